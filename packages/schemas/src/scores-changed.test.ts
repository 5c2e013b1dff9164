// The scores-changed message schema and its builder: what the worker, admin-api and portal-api publish after a commit.
import { MAX_USERS_NAMED, scoresChangedSchema, scoresChangeOf } from "./scores-changed";

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

  it.each(["adjustments", "redemptions", "exclusions"])("accepts what admin-api or portal-api publishes for %s", (reason) => {
    const change = { ...valid, reason, last_seq: null };
    expect(scoresChangedSchema.parse(change)).toEqual(change);
  });

  it.each([
    ["an unknown reason", { reason: "something-else" }],
    ["a reason in another spelling", { reason: "adjustment" }],
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

describe("scoresChangeOf", () => {
  const at = new Date("2026-03-07T10:00:00.123Z");
  const user = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
  const of = (rows: { userId: string; currency: string }[]) =>
    scoresChangeOf({ campaignId: "demo-2026", reason: "adjustments", ruleVersion: 3, rows, lastSeq: null, now: at });

  it("announces nothing when no row changed", () => {
    expect(of([])).toBeNull();
  });

  it("names each user and currency once, sorted, in a message the schema accepts", () => {
    const change = of([
      { userId: user(2), currency: "xp" },
      { userId: user(1), currency: "xp" },
      { userId: user(2), currency: "gems" },
    ]);
    expect(change).toEqual({
      v: 1,
      campaign_id: "demo-2026",
      reason: "adjustments",
      rule_version: 3,
      currencies: ["gems", "xp"],
      user_ids: [user(1), user(2)],
      last_seq: null,
      at: "2026-03-07T10:00:00.123Z",
    });
    expect(scoresChangedSchema.parse(change)).toEqual(change);
  });

  it("names 500 users, and none (null) for 501", () => {
    expect(MAX_USERS_NAMED).toBe(500);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ userId: user(i), currency: "xp" }));
    expect(of(rows(500))?.user_ids).toHaveLength(500);
    expect(of(rows(501))?.user_ids).toBeNull();
    // 501 rows of 500 users: repeats do not count towards the limit.
    expect(of([...rows(500), { userId: user(0), currency: "gems" }])?.user_ids).toHaveLength(500);
  });
});
