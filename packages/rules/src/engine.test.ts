// applyEvents as the worker calls it: repeats change nothing, state through JSON, and each refused input.
import { ValidationError } from "@pointwise/errors";
import { ALICE, BOB, log, rules, SWAP, thrownBy } from "../test/fixtures";
import { applyEvents, emptyUserState, type RawEvent } from "./index";

const rv = rules({
  rules: [
    {
      id: "swap",
      regEventId: SWAP,
      currency: "xp",
      base: { kind: "perUnit", points: "1" },
      milestones: [{ id: "m", metric: "count", level: "2", points: "5" }],
    },
  ],
});

const codeOf = (fn: () => unknown) => thrownBy(fn, ValidationError).code;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("applyEvents", () => {
  it("re-applying a batch to the state it produced changes nothing and reports every event as already applied", () => {
    const events = log([{ amount: "3" }, { amount: "4", userId: BOB }, { amount: "5" }]);
    const first = applyEvents({ rules: rv, events });
    const again = applyEvents({ rules: rv, events, users: first.users });
    expect(again.entries).toEqual([]);
    expect(again.scoreDeltas).toEqual([]);
    expect(again.users).toEqual(first.users);
    expect(again.skipped.map((s) => s.seq)).toEqual(["1", "2", "3"]);
  });

  it("a repeated event inside one batch is applied once: seq 1, 1, 2 pays 1 + 1 + milestone 5", () => {
    const [a, b] = log([{ amount: "1" }, { amount: "1" }]) as [RawEvent, RawEvent];
    const result = applyEvents({ rules: rv, events: [a, a, b] });
    expect(result.entries.map((e) => e.paid)).toEqual(["1", "1", "5"]);
    expect(result.skipped).toEqual([{ eventId: a.id, seq: "1", userId: ALICE, reason: "already-applied" }]);
  });

  it("state survives a JSON round trip: two batches through JSON equal one batch", () => {
    const events = log([{ amount: "2" }, { amount: "3" }, { amount: "4" }]);
    const whole = applyEvents({ rules: rv, events });
    const first = applyEvents({ rules: rv, events: events.slice(0, 1) });
    const stored = JSON.parse(JSON.stringify(first.users));
    const second = applyEvents({ rules: rv, events: events.slice(1), users: stored });
    expect(second.users).toEqual(whole.users);
    expect([...first.entries, ...second.entries]).toEqual(whole.entries);
  });

  it("never mutates its inputs (frozen rules, events and state)", () => {
    const events = deepFreeze(log([{ amount: "2" }, { amount: "3" }]));
    const prior = deepFreeze(applyEvents({ rules: rv, events: log([{ amount: "1" }], 0) }).users);
    expect(() => applyEvents({ rules: deepFreeze(rules({ rules: rv.rules })), events, users: prior })).not.toThrow();
  });

  it("rejects a negative amount as a value, moves lastSeq past it and scores the next event", () => {
    const result = applyEvents({ rules: rv, events: log([{ amount: "-5" }, { amount: "2" }]) });
    expect(result.rejected).toEqual([expect.objectContaining({ seq: "1", code: "amount-invalid" })]);
    expect(result.rejected[0]?.message).toContain("amount must be a non-negative decimal string");
    expect(result.entries.map((e) => [e.seq, e.paid])).toEqual([["2", "2"]]);
    expect(result.users[ALICE]?.lastSeq).toBe("2");
  });

  it("rejects an unparseable occurredAt as occurred-at-invalid", () => {
    const result = applyEvents({ rules: rv, events: log([{ occurredAt: "yesterday" }]) });
    expect(result.rejected.map((r) => r.code)).toEqual(["occurred-at-invalid"]);
  });

  it("throws events-out-of-order when seq goes down inside a batch", () => {
    const events = log([{}, {}]).reverse();
    expect(codeOf(() => applyEvents({ rules: rv, events }))).toBe("events-out-of-order");
  });

  it("throws events-out-of-order for two different events with the same seq", () => {
    const [a] = log([{}]) as [RawEvent];
    expect(codeOf(() => applyEvents({ rules: rv, events: [a, { ...a, id: "other" }] }))).toBe("events-out-of-order");
  });

  it("throws campaign-mismatch for an event of another campaign", () => {
    expect(codeOf(() => applyEvents({ rules: rv, events: log([{ campaignId: "other-0002" }]) }))).toBe("campaign-mismatch");
  });

  it("throws event-invalid for a non-numeric seq, naming events[0].seq", () => {
    try {
      applyEvents({ rules: rv, events: log([{ seq: "12a" }]) });
      throw new Error("expected a ValidationError");
    } catch (err) {
      expect(err).toMatchObject({ code: "event-invalid", field: "events[0].seq" });
    }
  });

  it("throws state-rule-version-mismatch for state computed under another rule version", () => {
    const users = { [ALICE]: emptyUserState({ version: 2 }) };
    expect(codeOf(() => applyEvents({ rules: rv, events: log([{}]), users }))).toBe("state-rule-version-mismatch");
  });

  it("throws state-invalid for a corrupted stored state", () => {
    const users = { [ALICE]: { ...emptyUserState(rv), lastSeq: "x" } };
    expect(codeOf(() => applyEvents({ rules: rv, events: log([{}]), users }))).toBe("state-invalid");
  });

  it("treats a user id of __proto__ as an ordinary key", () => {
    const result = applyEvents({ rules: rv, events: log([{ userId: "__proto__", amount: "2" }]) });
    expect(Object.keys(result.users)).toEqual(["__proto__"]);
    expect(result.scoreDeltas.map((d) => d.userId)).toEqual(["__proto__"]);
  });

  it("normalises seq to its canonical form: 007 is stored as 7 and 7 is then a repeat", () => {
    const first = applyEvents({ rules: rv, events: log([{ seq: "007" }]) });
    expect(first.users[ALICE]?.lastSeq).toBe("7");
    const again = applyEvents({ rules: rv, events: log([{ seq: "7" }]), users: first.users });
    expect(again.skipped).toHaveLength(1);
  });
});
