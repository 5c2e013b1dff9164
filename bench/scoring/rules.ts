// The workload every scoring benchmark applies: a rule version with tiers and a level multiplier, a
// daily currency cap, a per-unit rule with a count milestone and a weekend multiplier, a fixed rule
// in a second currency, and referral shares (the state and arithmetic a typical campaign
// exercises), and the raw events of a backlog.
import { randomUUID } from "node:crypto";
import type { RawEventMessage } from "@pointwise/schemas";
import { seedRuleVersion } from "@pointwise/testkit";
import type { Fixture } from "../lib/fixture";

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

/** Makes the benchmark's rule version the fixture campaign's active one. */
export const activateBenchRules = (fx: Fixture) => seedRuleVersion(fx.db, fx.campaignId, benchRules(fx.campaignId, fx.regEventId));

const STARTED = Date.UTC(2026, 2, 2);

/**
 * The i-th raw event of a backlog spread over `accounts`: one a second from a Monday on (so some
 * fall on a weekend), amounts cycling through 997 values.
 */
export function benchEvent(fx: Fixture, accounts: readonly string[], i: number): RawEventMessage {
  return {
    v: 1,
    event_id: randomUUID(),
    campaign_id: fx.campaignId,
    reg_event_id: fx.regEventId,
    identity_type: "EVM_ADDRESS",
    account_id: accounts[(i * 7919) % accounts.length] as string,
    amount: `${(i % 997) + 1}.25`,
    received_at: new Date(STARTED + i * 1000).toISOString(),
    source: "api",
  };
}
