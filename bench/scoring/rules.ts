// The rule version every scoring benchmark applies: tiers with a level multiplier, a daily currency
// cap, a per-unit rule with a count milestone and a weekend multiplier, a fixed rule in a second
// currency, and referral shares: the state and arithmetic a typical campaign exercises.

/** The benchmark's rule document for one campaign and registered event type. */
export function benchRules(campaignId: string, regEventId: string) {
  return {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: {
      xp: {
        name: "Experience",
        decimals: 2,
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "silver", name: "Silver", minLifetime: "1000", multiplier: "1.1" },
        ],
        caps: [{ period: "day", limit: "5000" }],
      },
      gems: { name: "Gems", decimals: 0 },
    },
    rules: [
      {
        id: "volume",
        regEventId,
        currency: "xp",
        base: { kind: "perUnit", points: "1.5" },
        milestones: [{ id: "ten-swaps", metric: "count", level: "10", points: "100" }],
        multipliers: [{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }],
      },
      { id: "count", regEventId, currency: "gems", base: { kind: "fixed", points: "1" } },
    ],
    referral: { shares: { xp: "0.1" } },
  };
}
