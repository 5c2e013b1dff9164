// The scores-changed message schema: what the scoring worker publishes after a batch or a recompute.
import { scoresChangedSchema } from "./scores-changed";

const valid = {
  v: 1,
  campaign_id: "demo-2026",
  reason: "events",
  rule_version: 2,
  currencies: ["xp"],
  user_ids: ["0b2f6c1e-6f1a-4a57-9b8e-3f4c2d1a0e9f"],
  last_seq: "41",
  at: "2026-03-07T10:00:00.123Z",
} as const;

describe("the scores-changed message", () => {
  it("accepts what the scoring worker publishes after a batch and after a recompute", () => {
    expect(scoresChangedSchema.parse(valid)).toEqual(valid);
    const recompute = { ...valid, reason: "recompute", user_ids: null, last_seq: null };
    expect(scoresChangedSchema.parse(recompute)).toEqual(recompute);
  });

  it.each([
    ["an unknown reason", { reason: "something-else" }],
    ["another version", { v: 2 }],
    ["a missing rule version", { rule_version: undefined }],
    ["user ids that are not a list", { user_ids: "all" }],
    ["rule version 0", { rule_version: 0 }],
    ["a fractional rule version", { rule_version: 1.5 }],
    ["an empty campaign id", { campaign_id: "" }],
    ["a time that is not ISO 8601", { at: "yesterday" }],
    ["a numeric last seq", { last_seq: 41 }],
    ["currencies that are not strings", { currencies: [1] }],
  ])("refuses %s", (_what, change) => {
    expect(scoresChangedSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });

  it("reads a message from a newer worker, dropping the fields it does not know", () => {
    expect(scoresChangedSchema.parse({ ...valid, shard: 3 })).toEqual(valid);
  });
});
