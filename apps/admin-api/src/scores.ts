import type { Database } from "@pointwise/db";
import { decayedValue, parseRuleVersion, type RuleVersion } from "@pointwise/rules";

/** Drops trailing zeros of a decimal string ("41.500000" -> "41.5", "3.000" -> "3"); exact, no number conversion. */
export function trimDecimal(value: string): string {
  if (!value.includes(".")) return value;
  const trimmed = value.replace(/0+$/, "").replace(/\.$/, "");
  return trimmed === "-0" ? "0" : trimmed;
}

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
 * A score row as people should read it: score, referral_score and total decayed to `at` under the
 * active rules (the stored values are scaled to the currency's decay epoch), lifetime as stored.
 */
export function readableScore(row: StoredScore, rules: RuleVersion | null, at: Date): StoredScore {
  const decay = rules && Object.hasOwn(rules.currencies, row.currency) ? rules.currencies[row.currency]?.decay : undefined;
  const read = (v: string) => trimDecimal(decayedValue(v, at, decay));
  return { ...row, score: read(row.score), referral_score: read(row.referral_score), total: read(row.total), lifetime: trimDecimal(row.lifetime) };
}

/** The active rule version of a campaign, or null when none is active (or its document no longer validates). */
export async function activeRules(db: Database, campaignId: string): Promise<{ version: number; rules: RuleVersion | null } | null> {
  const row = await db.prisma.ruleVersion.findFirst({ where: { campaignId, status: "active" } });
  if (!row) return null;
  try {
    return { version: row.version, rules: parseRuleVersion(row.document) };
  } catch {
    return { version: row.version, rules: null };
  }
}
