import { decayFactor } from "@pointwise/rules";
import type { ScoreObject } from "@pointwise/schemas";
import Decimal from "decimal.js";
import type { CampaignView } from "./campaign";

// Stored decayed scores can be huge (they double every half-life after the epoch) but a shown value
// needs far fewer digits than that; 60 significant digits is well past what a JSON number keeps.
const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

/** A score row as PostgreSQL returns it (NUMERIC as strings, stored representation). */
export interface StoredScore {
  currency: string;
  score: string;
  referral_score: string;
  total: string;
  tier: string | null;
}

/** A tier as shown to its user. */
export interface TierView {
  key: string;
  name: string;
}

/** The factor that turns each currency's stored values into their value at `at` ("1" without decay). */
export function decayFactors(view: CampaignView, at: Date): Record<string, string> {
  const factors: Record<string, string> = {};
  for (const [key, currency] of Object.entries(view.currencies)) {
    try {
      factors[key] = decayFactor(at, currency.decay);
    } catch {
      // Only thrown thousands of half-lives past the epoch, where every value has decayed to nothing.
      factors[key] = "0";
    }
  }
  return factors;
}

function shown(stored: string, factor: string, decimals: number | null): Decimal {
  if (factor === "1") return new Dec(stored);
  const value = new Dec(stored).mul(factor);
  return decimals === null ? value : value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN);
}

/**
 * The score object of every campaign currency at the moment `factors` was taken: decayed score and
 * referral_score, and total computed as their sum (so total = score + referral_score holds exactly
 * in decimal). A currency without a row shows zeros.
 */
export function presentScores(rows: readonly StoredScore[], view: CampaignView, factors: Record<string, string>): Record<string, ScoreObject> {
  const out: Record<string, ScoreObject> = {};
  for (const key of Object.keys(view.currencyNames)) {
    const row = rows.find((r) => r.currency === key);
    const currency = view.currencies[key];
    const factor = factors[key] ?? "1";
    const score = row ? shown(row.score, factor, currency?.decimals ?? null) : new Dec(0);
    const referral = row ? shown(row.referral_score, factor, currency?.decimals ?? null) : new Dec(0);
    out[key] = { score: Number(score.toFixed()), referral_score: Number(referral.toFixed()), total: Number(score.add(referral).toFixed()) };
  }
  return out;
}

/** The user's tier in every campaign currency (null below the first tier or when the currency has none). */
export function presentTiers(rows: readonly StoredScore[], view: CampaignView): Record<string, TierView | null> {
  const out: Record<string, TierView | null> = {};
  for (const key of Object.keys(view.currencyNames)) {
    const tier = rows.find((r) => r.currency === key)?.tier ?? null;
    const names = view.currencies[key]?.tierNames ?? {};
    out[key] = tier === null ? null : { key: tier, name: Object.hasOwn(names, tier) ? (names[tier] as string) : tier };
  }
  return out;
}
