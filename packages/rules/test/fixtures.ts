// Test support for the engine: a campaign, event types, users, a default rule version and a log builder.
import { BaseError } from "@pointwise/errors";
import { type ApplyResult, applyEvents, parseRuleVersion, type RawEvent, type RuleVersion, type RuleVersionInput, type ScoreRow } from "../src/index";

/** The campaign every fixture belongs to. */
export const CAMPAIGN = "camp-0001";

/** Registered event types used across the tests. */
export const SWAP = "11111111-1111-4111-8111-111111111111";
export const LOGIN = "22222222-2222-4222-8222-222222222222";
export const BRIDGE = "33333333-3333-4333-8333-333333333333";

/** A user id per letter, so tests read as alice, bob, carol. */
export const ALICE = "aaaaaaaa-0000-4000-8000-000000000001";
export const BOB = "bbbbbbbb-0000-4000-8000-000000000002";
export const CAROL = "cccccccc-0000-4000-8000-000000000003";

/** A rule version with one xp currency (2 decimals) unless the test overrides parts of it. */
export function rules(overrides: Partial<RuleVersionInput>): RuleVersion {
  return parseRuleVersion({
    campaignId: CAMPAIGN,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [],
    ...overrides,
  });
}

/** Partial event fields a test cares about; the rest get defaults. */
export type EventSpec = Partial<RawEvent> & { amount?: string; occurredAt?: string };

/** Builds a log: seq 1..n in the order given, ids derived from seq, Alice and SWAP by default. */
export function log(specs: readonly EventSpec[], startSeq = 1): RawEvent[] {
  return specs.map((s, i) => {
    const seq = String(startSeq + i);
    return {
      id: `00000000-0000-4000-8000-${seq.padStart(12, "0")}`,
      seq,
      campaignId: CAMPAIGN,
      userId: ALICE,
      regEventId: SWAP,
      identityType: "EVM_ADDRESS",
      amount: "1",
      occurredAt: "2025-03-05T12:00:00.000Z", // a Wednesday
      ...s,
    };
  });
}

/** Applies a log from empty state and returns the engine's result. */
export function run(rv: RuleVersion, events: readonly RawEvent[]): ApplyResult {
  return applyEvents({ rules: rv, events });
}

/** The paid amounts of a result's entries, in order. */
export function paid(result: ApplyResult): string[] {
  return result.entries.map((e) => e.paid);
}

/** A score row with only a total (all of it own score) and when it was reached, in `xp` unless another currency is given. */
export function scoreRow(userId: string, total: string, reachedAt: string | null, currency = "xp"): ScoreRow {
  return { userId, currency, score: total, referralScore: "0", total, lifetime: total, tier: null, reachedAt };
}

/** The error of class `type` (any typed error by default) that `fn` throws; anything else, or no throw at all, fails the test. */
export function thrownBy<E extends BaseError = BaseError>(fn: () => unknown, type: abstract new (...args: never[]) => E = BaseError as never): E {
  try {
    fn();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name}`);
}
