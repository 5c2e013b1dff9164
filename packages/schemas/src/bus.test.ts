// The raw event message schema: accepts what ingest publishes, refuses malformed messages.
import { EVENT_SOURCES, occurredAtOf, rawEventMessageSchema } from "./bus";

const valid = {
  v: 1,
  event_id: "0b2f6c1e-6f1a-4a57-9b8e-3f4c2d1a0e9f",
  campaign_id: "demo-2026",
  reg_event_id: "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11",
  identity_type: "EVM_ADDRESS",
  account_id: "0x00000000000000000000000000000000000000aa",
  amount: "125.5",
  received_at: "2026-03-07T10:00:00.123Z",
  source: "api",
} as const;

describe("the raw event message on the bus", () => {
  it("accepts what ingest publishes", () => {
    expect(rawEventMessageSchema.parse(valid)).toEqual(valid);
    expect(rawEventMessageSchema.safeParse({ ...valid, amount: "7", received_at: "2026-03-07T10:00:00Z" }).success).toBe(true);
    expect(rawEventMessageSchema.safeParse({ ...valid, amount: `1.${"0".repeat(17)}1` }).success).toBe(true);
  });

  it("accepts every source, every identity type's name, and times with 0 to 3 decimals of a second", () => {
    expect(EVENT_SOURCES).toEqual(["api", "batch", "csv", "indexer"]);
    for (const source of EVENT_SOURCES) expect(rawEventMessageSchema.safeParse({ ...valid, source }).success).toBe(true);
    for (const received_at of ["2026-03-07T10:00:00Z", "2026-03-07T10:00:00.1Z", "2026-03-07T10:00:00.12Z", "2026-03-07T10:00:00.123Z"]) {
      expect(rawEventMessageSchema.safeParse({ ...valid, received_at }).success).toBe(true);
    }
    expect(rawEventMessageSchema.safeParse({ ...valid, identity_type: "EMAIL", account_id: "a@b.co" }).success).toBe(true);
  });

  it.each([
    ["an amount with a point but no decimals", { amount: "1." }],
    ["an amount without an integer part", { amount: ".5" }],
    ["an amount with text before it", { amount: "a1.5" }],
    ["an amount with text after it", { amount: "1.5a" }],
    ["an amount in exponent notation", { amount: "1e3" }],
  ])("refuses %s with the amount rule", (_what, change) => {
    const result = rawEventMessageSchema.safeParse({ ...valid, ...change });
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["amount", "amount must be a decimal with at most 18 digits after the point"],
    ]);
  });

  it.each([
    ["a version this schema does not know", { v: 3 }, "v"],
    ["an unknown source", { source: "web" }, "source"],
    ["an unknown identity type", { identity_type: "PHONE" }, "identity_type"],
    ["an empty account id", { account_id: "" }, "account_id"],
    ["an event id that is not a UUID", { event_id: "e1" }, "event_id"],
    ["a time with a point but no decimals", { received_at: "2026-03-07T10:00:00.Z" }, "received_at"],
  ])("refuses %s", (_what, change, field) => {
    const result = rawEventMessageSchema.safeParse({ ...valid, ...change });
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it.each([
    ["a campaign id that is not xxxx-xxxx", { campaign_id: "x".repeat(3000) }, "campaign_id must be a campaign id (xxxx-xxxx)"],
    ["an account id longer than any identity", { account_id: "a".repeat(513) }, "account_id must be at most 512 characters"],
    ["an empty account id", { account_id: "" }, "account_id must not be empty"],
  ])("refuses %s, which no index on it could hold, naming the field", (_what, change, message) => {
    expect(rawEventMessageSchema.safeParse({ ...valid, ...change }).error?.issues.map((i) => i.message)).toEqual([message]);
  });

  it("takes an account id of 512 characters, more than the longest e-mail address ingest accepts", () => {
    expect(rawEventMessageSchema.safeParse({ ...valid, identity_type: "EMAIL", account_id: `${"é".repeat(507)}@b.co` }).success).toBe(true);
  });

  it("refuses a field it does not know, so a message of another shape is never half read", () => {
    const result = rawEventMessageSchema.safeParse({ ...valid, points: "5" });
    expect(result.error?.issues[0]?.code).toBe("unrecognized_keys");
  });

  it("names the millisecond rule for a finer time", () => {
    const result = rawEventMessageSchema.safeParse({ ...valid, received_at: "2026-03-07T10:00:00.1234Z" });
    expect(result.error?.issues.map((i) => i.message)).toContain("received_at must be UTC with at most millisecond precision");
  });

  it.each([
    ["an amount finer than the log's 18 decimals", { amount: `1.${"0".repeat(18)}1` }, "at most 18 digits"],
    ["a negative amount", { amount: "-1" }, "at most 18 digits"],
    ["a time finer than a millisecond", { received_at: "2026-03-07T10:00:00.1234Z" }, "millisecond precision"],
    ["a time with an offset", { received_at: "2026-03-07T10:00:00.123+01:00" }, ""],
  ])("refuses %s", (_what, change, message) => {
    const result = rawEventMessageSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it("accepts version 2 with the event time, and reads a version-1 message as having happened when received", () => {
    const v2 = { ...valid, v: 2, occurred_at: "2026-02-01T08:30:00.000Z" } as const;
    expect(rawEventMessageSchema.parse(v2)).toEqual(v2);
    expect(occurredAtOf(v2)).toBe("2026-02-01T08:30:00.000Z");
    expect(occurredAtOf(rawEventMessageSchema.parse(valid))).toBe(valid.received_at);
  });

  it.each([
    ["version 2 without occurred_at", { v: 2 }, "occurred_at is required in version 2"],
    ["version 1 with occurred_at", { occurred_at: "2026-02-01T08:30:00.000Z" }, "occurred_at is not part of version 1"],
    [
      "an occurred_at finer than a millisecond",
      { v: 2, occurred_at: "2026-02-01T08:30:00.0001Z" },
      "occurred_at must be UTC with at most millisecond precision",
    ],
    ["an unknown version", { v: 3, occurred_at: "2026-02-01T08:30:00.000Z" }, ""],
  ])("refuses %s", (_what, change, message) => {
    const result = rawEventMessageSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message).join("; ")).toContain(message);
  });

  it.each([
    ["version 2 without occurred_at", { v: 2 }, "occurred_at is required in version 2"],
    ["version 1 with occurred_at", { occurred_at: "2026-02-01T08:30:00.000Z" }, "occurred_at is not part of version 1"],
  ])("refuses %s as a custom issue on the occurred_at field alone", (_what, change, message) => {
    const result = rawEventMessageSchema.safeParse({ ...valid, ...change });
    expect(result.error?.issues.map((i) => ({ code: i.code, path: i.path, message: i.message }))).toEqual([{ code: "custom", path: ["occurred_at"], message }]);
  });
});
