// Base points worked out by hand: per unit and fixed, rounding down to the currency's decimals, lineage.
import { BRIDGE, LOGIN, log, paid, rules, run, SWAP } from "../test/fixtures";

describe("base points", () => {
  it("1.5 points per unit on amount 10 pays 15 xp", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1.5" } }] });
    const result = run(rv, log([{ amount: "10" }]));
    expect(result.entries).toHaveLength(1);
    expect(result.entries[0]).toMatchObject({ kind: "base", ruleId: "swap", currency: "xp", basePoints: "15", points: "15", paid: "15", capped: "0" });
    expect(result.scoreDeltas).toEqual([
      { userId: result.entries[0]?.userId, currency: "xp", score: "15", referralScore: "0", lifetime: "15", tier: null, reachedAt: "2025-03-05T12:00:00.000Z" },
    ]);
  });

  it("fixed 10 points per occurrence pays 10 xp whatever the amount (amount 999)", () => {
    const rv = rules({ rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" } }] });
    expect(
      paid(
        run(
          rv,
          log([
            { regEventId: LOGIN, amount: "999" },
            { regEventId: LOGIN, amount: "0" },
          ]),
        ),
      ),
    ).toEqual(["10", "10"]);
  });

  it("0.333 points per unit on amount 1 pays 0.33 xp: rounded down to the currency's 2 decimals", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "0.333" } }] });
    const [entry] = run(rv, log([{ amount: "1" }])).entries;
    expect(entry).toMatchObject({ basePoints: "0.333", points: "0.33", paid: "0.33" });
  });

  it("keeps 18-decimal amounts exact: 1e-18 per unit on 123456789123456789000.123456789123456789 pays 123.456789123456789 xp", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", decimals: 18 } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "0.000000000000000001" } }],
    });
    const [entry] = run(rv, log([{ amount: "123456789123456789000.123456789123456789" }])).entries;
    // 123456789123456789000.123456789123456789 * 1e-18 = 123.456789123456789000123456789..., cut to 18 places
    expect(entry?.paid).toBe("123.456789123456789");
  });

  it("amount 0 on a per-unit rule writes no entry because nothing is earned", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "2" } }] });
    expect(run(rv, log([{ amount: "0" }])).entries).toEqual([]);
  });

  it("an event type without rules earns nothing but still advances the user's lastSeq to 1", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" } }] });
    const result = run(rv, log([{ regEventId: BRIDGE }]));
    expect(result.entries).toEqual([]);
    expect(Object.values(result.users)[0]?.lastSeq).toBe("1");
  });

  it("two rules on one event type both pay: 2 xp fixed plus 3 gems per unit on amount 4 = 2 xp and 12 gems", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience" }, gems: { name: "Gems", decimals: 0 } },
      rules: [
        { id: "swap-xp", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "2" } },
        { id: "swap-gems", regEventId: SWAP, currency: "gems", base: { kind: "perUnit", points: "3" } },
      ],
    });
    const result = run(rv, log([{ amount: "4" }]));
    expect(result.entries.map((e) => [e.ruleId, e.currency, e.paid])).toEqual([
      ["swap-xp", "xp", "2"],
      ["swap-gems", "gems", "12"],
    ]);
  });

  it("matches the event type case-insensitively, as uuids compare in PostgreSQL", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" } }] });
    expect(paid(run(rv, log([{ regEventId: SWAP.toUpperCase() }])))).toEqual(["1"]);
  });

  it("records lineage: event id, seq, rule id, rule version and an entry key per award", () => {
    const rv = rules({ version: 7, rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" } }] });
    const events = log([{}]);
    const [entry] = run(rv, events).entries;
    expect(entry).toMatchObject({ eventId: events[0]?.id, seq: "1", ruleId: "swap", ruleVersion: 7, milestoneId: null, key: `${events[0]?.id}/swap/base` });
  });
});
