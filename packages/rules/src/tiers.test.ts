// Tiers worked out by hand: read before the award, stacked multipliers, reached on lifetime not score.
import { log, rules, run, SWAP } from "../test/fixtures";
import type { Multiplier } from "./index";

const tiered = (multipliers: Multiplier[] = []) =>
  rules({
    currencies: {
      xp: {
        name: "Experience",
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "silver", name: "Silver", minLifetime: "100", multiplier: "1.5" },
          { key: "gold", name: "Gold", minLifetime: "1000", multiplier: "2" },
        ],
      },
    },
    rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" }, multipliers }],
  });

describe("tiers", () => {
  it("60 + 60 + 60 xp: bronze, then silver from lifetime 120, so the third award is 60 x 1.5 = 90 (lifetime 210)", () => {
    const result = run(tiered(), log([{ amount: "60" }, { amount: "60" }, { amount: "60" }]));
    expect(result.entries.map((e) => e.paid)).toEqual(["60", "60", "90"]);
    expect(result.entries[2]?.multipliers).toEqual([{ kind: "tierLevel", factor: "1.5", source: "currencies.xp.tiers.silver" }]);
    expect(result.scoreDeltas).toEqual([expect.objectContaining({ lifetime: "210", tier: "silver" })]);
  });

  it("the tier is read before the award: one 2000 xp event from bronze is not multiplied, yet lands in gold", () => {
    const result = run(tiered(), log([{ amount: "2000" }, { amount: "10" }]));
    expect(result.entries.map((e) => e.paid)).toEqual(["2000", "20"]);
    expect(Object.values(result.users)[0]?.currencies.xp).toEqual({ lifetime: "2020", tier: "gold" });
  });

  it("a rule's tier multiplier stacks with the tier's own: gold x2 and rule gold x3 on 10 xp = 60 xp", () => {
    const result = run(tiered([{ kind: "tier", factors: { gold: "3" } }]), log([{ amount: "1000" }, { amount: "10" }]));
    expect(result.entries[1]?.multipliers.map((m) => [m.kind, m.factor])).toEqual([
      ["tier", "3"],
      ["tierLevel", "2"],
    ]);
    expect(result.entries[1]?.paid).toBe("60");
  });

  it("a user below the first tier has tier null: lowest tier at 50 xp, lifetime 40 has no tier", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", tiers: [{ key: "member", name: "Member", minLifetime: "50" }] } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    expect(run(rv, log([{ amount: "40" }])).scoreDeltas[0]?.tier).toBeNull();
    expect(run(rv, log([{ amount: "50" }])).scoreDeltas[0]?.tier).toBe("member");
  });

  it("tiers rise on lifetime, not decayed score: with a 1-hour half-life, 100 xp a day apart still reaches silver", () => {
    const rv = rules({
      currencies: {
        xp: {
          name: "Experience",
          decay: { halfLifeSeconds: 3600, epoch: "2025-03-05T00:00:00Z" },
          tiers: [
            { key: "bronze", name: "Bronze", minLifetime: "0" },
            { key: "silver", name: "Silver", minLifetime: "200" },
          ],
        },
      },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const result = run(
      rv,
      log([
        { amount: "100", occurredAt: "2025-03-05T00:00:00Z" },
        { amount: "100", occurredAt: "2025-03-06T00:00:00Z" },
      ]),
    );
    expect(result.scoreDeltas[0]).toMatchObject({ lifetime: "200", tier: "silver" });
  });
});
