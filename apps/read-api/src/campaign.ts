// Loads a campaign with its active rules into the view read responses are shaped by: decay, decimals, tiers.
import type { Queryable } from "@pointwise/db";
import type { DecayConfig } from "@pointwise/rules";
import { safeParseRuleVersion } from "@pointwise/rules";
import { fromDatabase } from "./db-errors";

/** How one currency is presented: its decay (from the active rule version), decimals and tier names. */
export interface CurrencyView {
  decay: DecayConfig | undefined;
  /** Places a decayed value is rounded to; null when the active rules do not say (values are shown as stored). */
  decimals: number | null;
  tierNames: Record<string, string>;
}

/** Everything about a campaign that shaping a read response needs. */
export interface CampaignView {
  id: string;
  currencyNames: Record<string, string>;
  primaryCurrency: string;
  /** The shipped default list plus the campaign's own words. */
  badWords: string[];
  currencies: Record<string, CurrencyView>;
  /** What the leaderboard ranks by: earned (total) or balance (total - spent). */
  ranking: "earned" | "balance";
}

/** A campaign row joined with its active rule version's document. */
export interface CampaignRow {
  id: string;
  currencies: unknown;
  primary_currency: string;
  bad_words: string[] | null;
  leaderboard_ranking?: string;
  document: unknown;
}

function currencyNamesOf(raw: unknown): Record<string, string> {
  const names: Record<string, string> = {};
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) if (typeof v === "string") names[k] = v;
  }
  return names;
}

/**
 * Shapes a campaign row into a view. A rule document the rules engine cannot parse (or none)
 * means no decay and no tier names: values are then shown exactly as stored.
 */
export function campaignView(row: CampaignRow, defaultBadWords: readonly string[]): CampaignView {
  const currencyNames = currencyNamesOf(row.currencies);
  const parsed = row.document === null || row.document === undefined ? null : safeParseRuleVersion(row.document);
  const rules = parsed?.ok ? parsed.value : null;
  const currencies: Record<string, CurrencyView> = {};
  for (const key of Object.keys(currencyNames)) {
    const config = rules && Object.hasOwn(rules.currencies, key) ? rules.currencies[key] : undefined;
    currencies[key] = {
      decay: config?.decay,
      decimals: config ? config.decimals : null,
      tierNames: Object.fromEntries((config?.tiers ?? []).map((t) => [t.key, t.name])),
    };
  }
  return {
    id: row.id,
    currencyNames,
    primaryCurrency: row.primary_currency,
    badWords: [...defaultBadWords, ...(row.bad_words ?? [])],
    currencies,
    ranking: row.leaderboard_ranking === "balance" ? "balance" : "earned",
  };
}

/** Loads a campaign and its active rules; null when no campaign has this id. */
export async function loadCampaign(pool: Queryable, campaignId: string, defaultBadWords: readonly string[]): Promise<CampaignView | null> {
  const { rows } = await fromDatabase(() =>
    pool.query<CampaignRow>(
      `SELECT c.id, c.currencies, c.primary_currency, c.bad_words, c.leaderboard_ranking, rv.document
         FROM campaign c
         LEFT JOIN LATERAL (
           SELECT document FROM rule_version WHERE campaign_id = c.id AND status = 'active' ORDER BY version DESC LIMIT 1
         ) rv ON true
        WHERE c.id = $1`,
      [campaignId],
    ),
  );
  const row = rows[0];
  return row ? campaignView(row, defaultBadWords) : null;
}
