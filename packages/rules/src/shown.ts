/**
 * What a person is shown for a stored score row: the one meaning of "a score as read" that the public
 * read API and the admin dashboard both present, so the two never show different digits for one user.
 */
import { addFixed, divRoundHalfEven, FIXED_ZERO, Fixed, mulFixed, parseFixed, pow10 } from "@pointwise/fixed";
import { decayFactor } from "./decay";
import type { DecayConfig } from "./schema";

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

// Exact at any size: stored values are NUMERIC without a limit (the largest amount times a large rate
// already has over 60 digits), and a decayed value is the full product with the factor before its one
// rounding, so no shown digit depends on a working precision.
function shownValue(stored: string, factor: string, decimals: number | null): Fixed {
  // Without decay a value is shown as stored: the engine already wrote it at the currency's places.
  if (factor === "1") return parseFixed(stored);
  const value = mulFixed(parseFixed(stored), parseFixed(factor));
  if (decimals === null || value.scale <= decimals) return value;
  return new Fixed(divRoundHalfEven(value.units, pow10(value.scale - decimals)), decimals);
}

/**
 * The shown score of one stored row (or zeros for no row): score and referral_score decayed by
 * `factor` (from `shownFactor`) and rounded half to even to the currency's `decimals` (null: the
 * active rules do not say, so no rounding), and total computed as their sum so that
 * total = score + referral_score holds exactly in decimal. Every step is exact, whatever the size.
 */
export function shownScore(stored: StoredScoreValues | undefined, factor: string, decimals: number | null): ShownScore {
  const score = stored ? shownValue(stored.score, factor, decimals) : FIXED_ZERO;
  const referral = stored ? shownValue(stored.referral_score, factor, decimals) : FIXED_ZERO;
  return { score: score.toString(), referral_score: referral.toString(), total: addFixed(score, referral).toString() };
}
