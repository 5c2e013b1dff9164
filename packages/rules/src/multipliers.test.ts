// Multipliers worked out by hand: weekend, windows across midnight, identity type, rounded once.
import { log, rules, run, SWAP } from "../test/fixtures";
import type { Multiplier } from "./index";

function withMultipliers(multipliers: Multiplier[], perUnit = "1.5") {
  return rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: perUnit }, multipliers }] });
}

const SATURDAY = "2025-03-08T10:00:00Z";
const WEDNESDAY = "2025-03-05T10:00:00Z";

describe("multipliers", () => {
  it("1.5 points per unit x 2 weekend multiplier on amount 10 pays 30 xp on a Saturday", () => {
    const rv = withMultipliers([{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }]);
    const [entry] = run(rv, log([{ amount: "10", occurredAt: SATURDAY }])).entries;
    expect(entry).toMatchObject({ basePoints: "15", points: "30", paid: "30" });
    expect(entry?.multipliers).toEqual([{ kind: "recurring", factor: "2", source: "rules.swap.multipliers[0]" }]);
  });

  it("the same weekend multiplier pays only 15 xp on a Wednesday", () => {
    const rv = withMultipliers([{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }]);
    const [entry] = run(rv, log([{ amount: "10", occurredAt: WEDNESDAY }])).entries;
    expect(entry).toMatchObject({ points: "15", multipliers: [] });
  });

  it("constant x1.2 on 1 per unit, amount 10 pays 12 xp", () => {
    const [entry] = run(withMultipliers([{ kind: "constant", factor: "1.2" }], "1"), log([{ amount: "10" }])).entries;
    expect(entry?.paid).toBe("12");
  });

  it("launch-week window x3 applies from its start (inclusive) and not at its end (exclusive): 3, 3, 1 xp", () => {
    const rv = withMultipliers([{ kind: "window", factor: "3", from: "2025-03-01T00:00:00Z", until: "2025-03-08T00:00:00Z" }], "1");
    const result = run(rv, log([{ occurredAt: "2025-03-01T00:00:00Z" }, { occurredAt: "2025-03-07T23:59:59.999Z" }, { occurredAt: "2025-03-08T00:00:00Z" }]));
    expect(result.entries.map((e) => e.paid)).toEqual(["3", "3", "1"]);
  });

  it("UTC hours 22 to 2 wrap past midnight: x2 at 23:30 and 01:59, x1 at 02:00 and 21:59", () => {
    const rv = withMultipliers([{ kind: "recurring", factor: "2", window: { hours: { from: 22, to: 2 } } }], "1");
    const times = ["2025-03-05T23:30:00Z", "2025-03-06T01:59:59Z", "2025-03-06T02:00:00Z", "2025-03-06T21:59:59Z"];
    const result = run(rv, log(times.map((occurredAt) => ({ occurredAt }))));
    expect(result.entries.map((e) => e.paid)).toEqual(["2", "2", "1", "1"]);
  });

  it("reads the time zone of occurredAt: 2025-03-08T01:00:00+02:00 is Friday 23:00 UTC, so no weekend x2", () => {
    const rv = withMultipliers([{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }], "1");
    expect(run(rv, log([{ occurredAt: "2025-03-08T01:00:00+02:00" }])).entries[0]?.paid).toBe("1");
  });

  it("identity type x1.5 for EVM wallets and x0 for e-mail: amount 10 at 1 per unit pays 15 xp and nothing", () => {
    const rv = withMultipliers([{ kind: "identityType", factors: { EVM_ADDRESS: "1.5", EMAIL: "0" } }], "1");
    const result = run(
      rv,
      log([
        { amount: "10", identityType: "EVM_ADDRESS" },
        { amount: "10", identityType: "EMAIL" },
        { amount: "10", identityType: "SOLANA_ADDRESS" },
      ]),
    );
    // x0 makes the award zero, which writes no entry; Solana has no factor and pays the base 10.
    expect(result.entries.map((e) => [e.seq, e.paid])).toEqual([
      ["1", "15"],
      ["3", "10"],
    ]);
  });

  it("several multipliers multiply: 1.5/unit x 2 weekend x 1.5 EVM x 1.1 constant on amount 10 = 49.5 xp", () => {
    const rv = withMultipliers([
      { kind: "recurring", factor: "2", window: { days: ["sat"] } },
      { kind: "identityType", factors: { EVM_ADDRESS: "1.5" } },
      { kind: "constant", factor: "1.1" },
    ]);
    const [entry] = run(rv, log([{ amount: "10", occurredAt: SATURDAY }])).entries;
    expect(entry?.multipliers.map((m) => m.factor)).toEqual(["2", "1.5", "1.1"]);
    expect(entry?.paid).toBe("49.5");
  });

  it("rounds only the product: 0.15/unit x 3 on amount 1 with 1 decimal pays 0.4 xp (rounding the base first would pay 0.3)", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", decimals: 1 } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "0.15" }, multipliers: [{ kind: "constant", factor: "3" }] }],
    });
    expect(run(rv, log([{ amount: "1" }])).entries[0]).toMatchObject({ basePoints: "0.15", points: "0.4", paid: "0.4" });
  });
});
