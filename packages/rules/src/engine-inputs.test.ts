// applyEvents' refusals, each with its exact code, field and message, and what it accepts at the edge of each rule.
import { ALICE, BOB, CAMPAIGN, log, rules, SWAP, thrownBy } from "../test/fixtures";
import { type ApplyInput, applyEvents, emptyCampaignState, emptyUserState, type RawEvent, type UserState } from "./index";

const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }] });
const budgeted = rules({
  currencies: { xp: { name: "Experience", budget: "100" } },
  rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
});

function refusal(input: ApplyInput): { code: string; field: string | undefined; message: string } {
  const err = thrownBy(() => applyEvents(input));
  return { code: err.code, field: (err as { field?: string }).field, message: err.message };
}

/** Two events, the second changed: every message must name events[1], not the first. */
const secondChanged = (change: Record<string, unknown>): RawEvent[] => {
  const [first, second] = log([{}, {}]);
  return [first as RawEvent, { ...(second as RawEvent), ...change } as RawEvent];
};

const FIELDS = ["id", "seq", "campaignId", "userId", "regEventId", "identityType", "amount", "occurredAt"];

describe("an event that is not well formed", () => {
  it.each(FIELDS)("refuses a %s that is not a string", (field) => {
    expect(refusal({ rules: rv, events: secondChanged({ [field]: 7 }) })).toEqual({
      code: "event-invalid",
      field: `events[1].${field}`,
      message: `events[1].${field} must be a string`,
    });
  });

  it.each(["id", "userId"])("refuses an empty %s", (field) => {
    expect(refusal({ rules: rv, events: secondChanged({ [field]: "" }) })).toEqual({
      code: "event-invalid",
      field: `events[1].${field}`,
      message: `events[1].${field} must not be empty`,
    });
  });

  it.each([
    ["empty", ""],
    ["a number", 7],
  ])("refuses a referrerId that is %s", (_name, referrerId) => {
    expect(refusal({ rules: rv, events: secondChanged({ referrerId }) })).toEqual({
      code: "event-invalid",
      field: "events[1].referrerId",
      message: "events[1].referrerId must be a non-empty string or null",
    });
  });

  it("accepts a referrerId that is null, absent or a user id", () => {
    for (const referrerId of [null, undefined, BOB]) expect(applyEvents({ rules: rv, events: secondChanged({ referrerId }) }).entries).toHaveLength(2);
  });

  it.each([
    ["negative", "-3"],
    ["a decimal", "3.0"],
    ["empty", ""],
    ["31 digits long", "1".repeat(31)],
    ["padded with a space", " 3"],
  ])("refuses a seq that is %s", (_name, seq) => {
    expect(refusal({ rules: rv, events: secondChanged({ seq }) })).toEqual({
      code: "event-invalid",
      field: "events[1].seq",
      message: "events[1].seq must be a non-negative integer string",
    });
  });

  it("accepts a seq of 30 digits and writes every seq without leading zeros", () => {
    const events = secondChanged({ seq: "9".repeat(30) });
    events[0] = { ...(events[0] as RawEvent), seq: "0001" };
    const result = applyEvents({ rules: rv, events });
    expect(result.entries.map((e) => e.seq)).toEqual(["1", "9".repeat(30)]);
    expect(result.users[ALICE]?.lastSeq).toBe("9".repeat(30));
  });

  it("refuses an event of another campaign with campaign-mismatch", () => {
    expect(refusal({ rules: rv, events: secondChanged({ campaignId: "camp-0002" }) })).toEqual({
      code: "campaign-mismatch",
      field: "events[1].campaignId",
      message: `events[1].campaignId must be ${CAMPAIGN}, the campaign of the rule version`,
    });
  });
});

describe("events out of log order", () => {
  it("refuses a seq below the one before, naming both", () => {
    expect(refusal({ rules: rv, events: log([{}, { seq: "1" }], 2) })).toEqual({
      code: "events-out-of-order",
      field: "events[1].seq",
      message: "events[1].seq 1 must be greater than the previous event's seq 2",
    });
  });

  it("refuses two events with one seq, and skips the same event delivered twice", () => {
    const [a] = log([{}]);
    expect(refusal({ rules: rv, events: [a as RawEvent, { ...(a as RawEvent), id: "another" }] }).code).toBe("events-out-of-order");
    const twice = applyEvents({ rules: rv, events: [a as RawEvent, a as RawEvent] });
    expect(twice.entries).toHaveLength(1);
    expect(twice.skipped).toEqual([{ eventId: a?.id, seq: "1", userId: ALICE, reason: "already-applied" }]);
  });

  it("refuses an event at or before the campaign's last seq in a budgeted campaign, with the seqs in its details", () => {
    const campaign = { ...emptyCampaignState(budgeted), lastSeq: "5" };
    expect(thrownBy(() => applyEvents({ rules: budgeted, events: log([{ userId: BOB }], 5), campaign }))).toMatchObject({
      code: "ordering-violation",
      message: "events[0].seq 5 is not after the campaign's last applied seq 5; a budgeted campaign must be applied in global log order",
      details: { eventId: log([{}], 5)[0]?.id, seq: "5", campaignLastSeq: "5" },
    });
    expect(applyEvents({ rules: budgeted, events: log([{ userId: BOB }], 6), campaign }).campaign?.lastSeq).toBe("6");
  });
});

describe("state of another rule version", () => {
  it("refuses a user's state, naming the user and both versions", () => {
    const users = { [ALICE]: emptyUserState({ version: 2 }) };
    expect(refusal({ rules: rv, events: log([{}]), users })).toEqual({
      code: "state-rule-version-mismatch",
      field: `users.${ALICE}.ruleVersion`,
      message: `users.${ALICE}.ruleVersion is 2 but the rules are version 1; recompute from the log`,
    });
  });

  it("refuses a budgeted campaign's state, naming both versions", () => {
    expect(refusal({ rules: budgeted, events: log([{}]), campaign: emptyCampaignState({ version: 3 }) })).toEqual({
      code: "state-rule-version-mismatch",
      field: "campaign.ruleVersion",
      message: "campaign.ruleVersion is 3 but the rules are version 1; recompute from the log",
    });
  });

  it("ignores campaign state when the version has no budget", () => {
    expect(applyEvents({ rules: rv, events: log([{}]), campaign: emptyCampaignState({ version: 3 }) }).campaign).toBeNull();
  });
});

describe("events that can never score", () => {
  it("rejects a bad amount with the first 40 characters of it, and moves lastSeq past it", () => {
    const amount = `-${"1".repeat(60)}`;
    const result = applyEvents({ rules: rv, events: log([{ amount }]) });
    expect(result.rejected).toEqual([
      {
        eventId: log([{}])[0]?.id,
        seq: "1",
        userId: ALICE,
        code: "amount-invalid",
        message: `amount must be a non-negative decimal string of at most 100 characters, got "-${"1".repeat(39)}"`,
      },
    ]);
    expect(result.users[ALICE]?.lastSeq).toBe("1");
  });

  it("rejects an occurredAt that is not a time with the first 40 characters of it", () => {
    const occurredAt = `yesterday${"!".repeat(50)}`;
    const result = applyEvents({ rules: rv, events: log([{ occurredAt }]) });
    expect(result.rejected.map((r) => [r.code, r.message])).toEqual([
      ["occurred-at-invalid", `occurredAt must be an ISO 8601 time, got "yesterday${"!".repeat(31)}"`],
    ]);
    expect(result.entries).toEqual([]);
  });
});

/** What one swap of `amount` under `rv` leaves in a fresh state. */
const scored = (amount: string) => ({
  currencies: { xp: { lifetime: amount, tier: null } },
  rules: { swap: { count: "1", amount, lastAt: "2025-03-05T12:00:00.000Z", milestones: [] } },
});

describe("stored state at its edges", () => {
  it("starts a user whose stored state is null from empty, like a missing one", () => {
    const users = { [ALICE]: null as unknown as UserState };
    expect(applyEvents({ rules: rv, events: log([{}]), users }).users[ALICE]).toEqual({ ...emptyUserState(rv), lastSeq: "1", ...scored("1") });
  });

  it("a format-1 cooldown progress without lastAt blocks nothing and starts its spans at the event", () => {
    const cooldown = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "10" }, cooldownSeconds: 3600 }] });
    const format1 = {
      format: 1,
      ruleVersion: 1,
      lastSeq: "4",
      currencies: {},
      rules: { swap: { count: "0", amount: "0", lastAt: null, milestones: [] } },
      caps: {},
    } as unknown as UserState;
    const result = applyEvents({ rules: cooldown, events: log([{}], 5), users: { [ALICE]: format1 } });
    expect(result.entries.map((e) => e.paid)).toEqual(["10"]);
    const at = Date.parse("2025-03-05T12:00:00.000Z");
    expect(result.users[ALICE]?.rules.swap?.spans).toEqual([[at, at]]);
  });

  it("a stored tier the currency does not define earns no tier multiplier", () => {
    const tiered = rules({
      currencies: { xp: { name: "Experience", tiers: [{ key: "gold", name: "Gold", minLifetime: "1000", multiplier: "2" }] } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "10" }, multipliers: [{ kind: "tier", factors: { gold: "3" } }] }],
    });
    const state = { ...emptyUserState(tiered), lastSeq: "1", currencies: { xp: { lifetime: "5", tier: "ghost" } } };
    const result = applyEvents({ rules: tiered, events: log([{}], 2), users: { [ALICE]: state } });
    expect(result.entries.map((e) => [e.paid, e.multipliers.length])).toEqual([["10", 0]]);
  });
});

describe("event type ids", () => {
  it("match a rule's id whatever their case, as uuids do", () => {
    const rule = "abcdef01-2345-4678-89ab-cdef01234567";
    const lower = rules({ rules: [{ id: "swap", regEventId: rule, currency: "xp", base: { kind: "fixed", points: "10" } }] });
    const result = applyEvents({ rules: lower, events: log([{ regEventId: rule.toUpperCase() }, { regEventId: rule }]) });
    expect(result.entries.map((e) => e.paid)).toEqual(["10", "10"]);
  });
});
