// Scores as the dashboard shows them, and the campaign's active rules they are read under.
import { activeRuleVersion, type Database } from "@pointwise/db";
import { trimDecimal } from "@pointwise/fixed";
import { parseRuleVersion, type RuleVersion, shownFactor, shownScore } from "@pointwise/rules";

/** A score row as stored (decay-scaled), with decimals as strings. */
export interface StoredScore {
  currency: string;
  score: string;
  referral_score: string;
  total: string;
  lifetime: string;
  tier: string | null;
}

/**
 * A score row as people should read it, digit for digit what the read API shows for it: score and
 * referral_score decayed to `at` under the active rules (the stored values are scaled to the
 * currency's decay epoch) and rounded to the currency's decimals, total as their sum; lifetime as stored.
 * Every figure is an exact decimal string, so JSON.parse in a browser keeps all of its digits.
 */
export function readableScore(row: StoredScore, rules: RuleVersion | null, at: Date): StoredScore {
  const currency = rules && Object.hasOwn(rules.currencies, row.currency) ? rules.currencies[row.currency] : undefined;
  const shown = shownScore(row, shownFactor(at, currency?.decay), currency ? currency.decimals : null);
  // shownScore's text is already exact plain notation without trailing zeros: the read API writes the same digits.
  return { ...row, score: shown.score, referral_score: shown.referral_score, total: shown.total, lifetime: trimDecimal(row.lifetime) };
}

/** What a score row leaves to spend as stored (decay-scaled): spent and balance (total - spent, never below zero). */
export interface StoredBalance {
  currency: string;
  spent: string;
  balance: string;
}

/**
 * Spent and balance as people should read them, digit for digit what the read API's board shows: each
 * decayed to `at` in one step from its stored value and rounded to the currency's decimals.
 */
export function readableBalance(row: StoredBalance, rules: RuleVersion | null, at: Date): { spent: string; balance: string } {
  const currency = rules && Object.hasOwn(rules.currencies, row.currency) ? rules.currencies[row.currency] : undefined;
  const factor = shownFactor(at, currency?.decay);
  const one = (stored: string) => shownScore({ score: stored, referral_score: "0" }, factor, currency ? currency.decimals : null).score;
  return { spent: one(row.spent), balance: one(row.balance) };
}

/** The active rule version of a campaign, or null when none is active (or its document no longer validates). */
export async function activeRules(db: Database, campaignId: string): Promise<{ version: number; rules: RuleVersion | null } | null> {
  const row = await activeRuleVersion(db, campaignId);
  if (!row) return null;
  try {
    return { version: row.version, rules: parseRuleVersion(row.document) };
  } catch {
    return { version: row.version, rules: null };
  }
}
