// Read responses' score objects and tiers from stored rows, through the rules package's one meaning of a shown score.
import { addFixed, FIXED_ZERO, Fixed, parseFixed, plainDecimal } from "@pointwise/fixed";
import { shownFactor, shownScore } from "@pointwise/rules";
import { type ExactBalanceObject, type ExactScoreObject, JsonDecimal } from "@pointwise/schemas";
import type { CampaignView } from "./campaign";

/** A score row as PostgreSQL returns it (NUMERIC as strings, stored representation). */
export interface StoredScore {
  currency: string;
  score: string;
  referral_score: string;
  total: string;
  /** What rewards took, stored form. */
  spent: string;
  /** GREATEST(total - spent, 0), stored form. */
  balance: string;
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
  for (const [key, currency] of Object.entries(view.currencies)) factors[key] = shownFactor(at, currency.decay);
  return factors;
}

/**
 * The score object of every campaign currency at the moment `factors` was taken: decayed score and
 * referral_score, and total computed as their sum (so total = score + referral_score holds exactly
 * in decimal), each figure the exact digits `shownScore` gives, to be written by `stringifyJson`
 * as a JSON number without passing through a JS number. A currency without a row shows zeros.
 */
export function presentScores(rows: readonly StoredScore[], view: CampaignView, factors: Record<string, string>): Record<string, ExactScoreObject> {
  const out: Record<string, ExactScoreObject> = {};
  for (const key of Object.keys(view.currencyNames)) {
    const shown = shownScore(
      rows.find((r) => r.currency === key),
      factors[key] ?? "1",
      view.currencies[key]?.decimals ?? null,
    );
    out[key] = { score: new JsonDecimal(shown.score), referral_score: new JsonDecimal(shown.referral_score), total: new JsonDecimal(shown.total) };
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

/**
 * What each campaign currency leaves to spend at the moment `factors` was taken: spent (what rewards
 * took), balance (total - spent, never below zero) and shortfall (spent - total where a recompute
 * left the user with less than they had spent; later earnings fill it first), each decayed and rounded
 * like a score. The balance is decayed from its stored value in one step, as a redemption checks it.
 */
export function presentBalances(rows: readonly StoredScore[], view: CampaignView, factors: Record<string, string>): Record<string, ExactBalanceObject> {
  const out: Record<string, ExactBalanceObject> = {};
  for (const key of Object.keys(view.currencyNames)) {
    const row = rows.find((r) => r.currency === key);
    const factor = factors[key] ?? "1";
    const decimals = view.currencies[key]?.decimals ?? null;
    const one = (stored: string) => shownScore({ score: stored, referral_score: "0" }, factor, decimals).score;
    // Exact: decimal.js's default context keeps 20 significant digits, fewer than a NUMERIC score has.
    const total = row ? parseFixed(row.total) : FIXED_ZERO;
    const short = row ? addFixed(parseFixed(row.spent), new Fixed(-total.units, total.scale)) : FIXED_ZERO;
    out[key] = {
      spent: new JsonDecimal(one(row?.spent ?? "0")),
      balance: new JsonDecimal(one(row?.balance ?? "0")),
      shortfall: new JsonDecimal(one(short.units > 0n ? plainDecimal(short.units, short.scale) : "0")),
    };
  }
  return out;
}
