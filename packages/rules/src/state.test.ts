// Stored states: format 1 read and upgraded exactly, the fast check equal to the schema, and bad states refused.
import { ValidationError } from "@pointwise/errors";
import fc from "fast-check";
import { logArb, ruleVersionArb, timeLimitedRuleVersionArb } from "../test/arbitraries";
import { ALICE, LOGIN, log, rules, SWAP, thrownBy } from "../test/fixtures";
import { applyEvents as referenceApply } from "../test/reference/engine";
import { viaSchema } from "../test/via-schema";
import { applyEvents, parseCampaignState, parseUserState, STATE_FORMAT, type UserState } from "./index";
import { fastUserState } from "./state";

const errorOf = (fn: () => unknown) => thrownBy(fn, ValidationError);

// A state as the engine of format 1 stored it: one period per cap, lastAt and no spans.
const format1 = {
  format: 1,
  ruleVersion: 1,
  lastSeq: "7",
  currencies: { xp: { lifetime: "45", tier: null } },
  rules: {
    swap: { count: "3", amount: "35", lastAt: "2025-03-05T09:00:00.000Z", milestones: [] },
    login: { count: "1", amount: "1", lastAt: "2025-03-05T10:00:00.000Z", milestones: ["first"] },
  },
  caps: { "rule:swap:day": { period: "2025-03-05", used: "15" } },
};
const upgraded: UserState = {
  format: 2,
  ruleVersion: 1,
  lastSeq: "7",
  currencies: { xp: { lifetime: "45", tier: null } },
  rules: {
    swap: { count: "3", amount: "35", lastAt: "2025-03-05T09:00:00.000Z", milestones: [] },
    login: { count: "1", amount: "1", lastAt: "2025-03-05T10:00:00.000Z", milestones: ["first"] },
  },
  caps: { "rule:swap:day": { "2025-03-05": "15" } },
};

describe("stored user state", () => {
  it("writes format 2", () => {
    expect(STATE_FORMAT).toBe(2);
  });

  it("upgrades a format-1 state exactly: each cap's period becomes its one entry, progress is kept as it was", () => {
    expect(JSON.stringify(parseUserState(format1))).toBe(JSON.stringify(upgraded));
    expect(JSON.stringify(parseUserState(viaSchema(format1)))).toBe(JSON.stringify(upgraded));
  });

  it("an upgraded state scores on: the day cap's 15 used stays used, the login cooldown runs from lastAt", () => {
    const rv = rules({
      rules: [
        { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" }, caps: [{ period: "day", limit: "25" }] },
        { id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, cooldownSeconds: 3600 },
      ],
    });
    const events = log(
      [
        { amount: "20", occurredAt: "2025-03-05T11:00:00Z" }, // 10 left of the day's 25
        { regEventId: LOGIN, occurredAt: "2025-03-05T10:30:00Z" }, // 30 min after lastAt: blocked
        { regEventId: LOGIN, occurredAt: "2025-03-05T09:30:00Z" }, // 30 min before lastAt: blocked
        { regEventId: LOGIN, occurredAt: "2025-03-05T11:00:00Z" }, // 1 h after lastAt: counts
      ],
      8,
    );
    const result = applyEvents({ rules: rv, events, users: { [ALICE]: format1 as unknown as UserState } });
    expect(result.entries.map((e) => [e.seq, e.paid, e.capped])).toEqual([
      ["8", "10", "10"],
      ["11", "10", "0"],
    ]);
    expect(result.users[ALICE]?.caps).toEqual({ "rule:swap:day": { "2025-03-05": "25" } });
    expect(result.users[ALICE]?.rules.login?.spans).toEqual([[Date.parse("2025-03-05T10:00:00Z"), Date.parse("2025-03-05T11:00:00Z")]]);
  });

  it("the fast check accepts every state the engine writes, in both formats, with the schema's copy", () => {
    const arb = fc.tuple(fc.oneof(ruleVersionArb, timeLimitedRuleVersionArb), logArb({ skew: true, late: true }));
    fc.assert(
      fc.property(arb, ([rv, events]) => {
        const format2 = Object.values(JSON.parse(JSON.stringify(applyEvents({ rules: rv, events }).users)));
        const old = Object.values(JSON.parse(JSON.stringify(referenceApply({ rules: rv, events }).users)));
        for (const state of [...format2, ...old]) {
          const fast = JSON.stringify(fastUserState(state));
          expect(JSON.stringify(parseUserState(viaSchema(state)))).toBe(fast);
        }
        for (const state of format2) expect(JSON.stringify(parseUserState(state))).toBe(JSON.stringify(state));
      }),
      { numRuns: 100 },
    );
  });

  it("does not change the input it copies", () => {
    const input = JSON.parse(JSON.stringify(format1));
    const copy = parseUserState(input);
    copy.caps["rule:swap:day"] = { x: "1" };
    expect(input).toEqual(format1);
  });

  const withSpans = (spans: unknown) => ({ ...upgraded, rules: { login: { count: "2", amount: "2", lastAt: null, milestones: [], spans } } });
  const ORDER = "must be spans [first, last] with first <= last, each after the one before";

  it.each([
    ["format 3", { ...upgraded, format: 3 }, "format", "must be 1 or 2"],
    [
      "spans out of order",
      withSpans([
        [5, 6],
        [1, 2],
      ]),
      "rules.login.spans",
      ORDER,
    ],
    [
      "spans touching",
      withSpans([
        [1, 2],
        [2, 3],
      ]),
      "rules.login.spans",
      ORDER,
    ],
    ["a span ending before it starts", withSpans([[5, 4]]), "rules.login.spans", ORDER],
    ["a span time that is not an integer", withSpans([[1.5, 2]]), "rules.login.spans[0][0]", "Invalid input: expected int, received number"],
    ["a span time past what a Date holds", withSpans([[0, 8.64e15 + 1]]), "rules.login.spans[0][1]", "Too big: expected number to be <=8640000000000000"],
    ["a span of three times", withSpans([[1, 2, 3]]), "rules.login.spans[0]", "Too big: expected array to have <=2 items"],
    [
      "a format-2 state with format 1's caps",
      { ...upgraded, caps: { "rule:swap:day": { period: "2025-03-05", used: "15" } } },
      "caps.rule:swap:day.period",
      "must be a decimal string",
    ],
    [
      "a format-1 state with spans",
      { ...format1, rules: { login: { count: "1", amount: "1", lastAt: null, milestones: [], spans: [] } } },
      "rules.login",
      'Unrecognized key: "spans"',
    ],
    [
      "a format-1 state with format 2's caps",
      { ...format1, caps: { "rule:swap:day": { "2025-03-05": "15" } } },
      "caps.rule:swap:day.period",
      "Invalid input: expected string, received undefined",
    ],
  ])("refuses %s with state-invalid naming the field", (_name, state, field, rule) => {
    for (const input of [state, viaSchema(state)]) {
      const err = errorOf(() => parseUserState(input));
      expect({ code: err.code, field: err.field, message: err.message }).toEqual({
        code: "state-invalid",
        field,
        message: `Invalid user state: ${field}: ${rule}`,
      });
    }
  });
});

describe("a stored state that is not an object", () => {
  it.each([
    ["null", null, "null"],
    ["a string", "x", "string"],
    ["an array", [], "array"],
    ["a number", 7, "number"],
    ["undefined", undefined, "undefined"],
  ])("is %s: refused at the root with state-invalid and no field", (_name, input, type) => {
    const err = errorOf(() => parseUserState(input));
    expect([err.code, err.field, err.message]).toEqual(["state-invalid", "", `Invalid user state: (root): Invalid input: expected object, received ${type}`]);
    const campaign = errorOf(() => parseCampaignState(input));
    expect([campaign.code, campaign.field, campaign.message]).toEqual([
      "state-invalid",
      "",
      `Invalid campaign state: (root): Invalid input: expected object, received ${type}`,
    ]);
  });

  it("an empty object is refused for its format first", () => {
    expect(errorOf(() => parseUserState({})).message).toBe("Invalid user state: format: must be 1 or 2");
  });
});

describe("stored campaign state", () => {
  it("reads format 1 and 2 and writes 2; refuses format 3 with state-invalid", () => {
    const state = { ruleVersion: 1, lastSeq: "4", budgetUsed: { xp: "10" } };
    expect(parseCampaignState({ format: 1, ...state })).toEqual({ format: 2, ...state });
    expect(parseCampaignState({ format: 2, ...state })).toEqual({ format: 2, ...state });
    const err = errorOf(() => parseCampaignState({ format: 3, ...state }));
    expect([err.code, err.message]).toEqual(["state-invalid", "Invalid campaign state: format: must be 1 or 2"]);
  });
});
