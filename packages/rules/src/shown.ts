/**
 * What a person is shown for a stored score row: the one meaning of "a score as read" that the public
 * read API and the admin dashboard both present, so the two never show different digits for one user.
 */
import Decimal from "decimal.js";
import { decayFactor } from "./decay";
import type { DecayConfig } from "./schema";

// Stored decayed scores can be huge (they double every half-life after the epoch) but a shown value
// needs far fewer digits than that; 60 significant digits is well past what a JSON number keeps.
const SHOWN = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });

/** The stored (decay-scaled) values a shown score is computed from, NUMERIC as decimal strings. */
export interface StoredScoreValues {
  score: string;
  referral_score: string;
}

/** A score as shown: exact decimal strings in plain notation without trailing zeros, total = score + referral_score. */
export interface ShownScore {
  score: string;
  referral_score: string;
  total: string;
}

/**
 * The factor that turns a currency's stored values into their value at `at`: "1" without decay, and
 * "0" where decay has run for so many half-lives that every value has decayed to nothing.
 */
export function shownFactor(at: Date, decay: DecayConfig | undefined): string {
  try {
    return decayFactor(at, decay);
  } catch {
    // Only thrown thousands of half-lives past the epoch.
    return "0";
  }
}

function shownValue(stored: string, factor: string, decimals: number | null): Decimal {
  // Without decay a value is shown as stored: the engine already wrote it at the currency's places.
  if (factor === "1") return new SHOWN(stored);
  const value = new SHOWN(stored).mul(factor);
  return decimals === null ? value : value.toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN);
}

/**
 * The shown score of one stored row (or zeros for no row): score and referral_score decayed by
 * `factor` (from `shownFactor`) and rounded half to even to the currency's `decimals` (null: the
 * active rules do not say, so no rounding), and total computed as their sum so that
 * total = score + referral_score holds exactly in decimal.
 */
export function shownScore(stored: StoredScoreValues | undefined, factor: string, decimals: number | null): ShownScore {
  const score = stored ? shownValue(stored.score, factor, decimals) : new SHOWN(0);
  const referral = stored ? shownValue(stored.referral_score, factor, decimals) : new SHOWN(0);
  return { score: score.toFixed(), referral_score: referral.toFixed(), total: score.add(referral).toFixed() };
}
