// Operator adjustments: append-only grants and deductions that show in scores at once and that every recompute adds back.
import type { Transaction } from "@pointwise/db";
import { activeRuleVersion, addAdjustmentScores, excludedUsers } from "@pointwise/db";
import { ValidationError } from "@pointwise/errors";
import { adjustmentDeltas, parseRuleVersion, type RuleVersion } from "@pointwise/rules";
import { type ScoresChanged, scoresChangeOf } from "@pointwise/schemas";
import type { Campaign } from "./scope";
import type { OperatorSession } from "./session";

/** A signed decimal of at most 30 integer digits and 18 places. */
const POINTS_PATTERN = /^-?(0|[1-9][0-9]{0,29})(\.[0-9]{1,18})?$/;

/** One adjustment to make. */
export interface NewAdjustment {
  userId: string;
  currency: string;
  points: string;
  reason: string;
  reversesId?: string;
  /** The reversed adjustment's time: a reversal decays from it, so the two cancel to the last digit. */
  reversesAt?: Date;
}

/** An adjustment row as read. */
export interface AdjustmentRow {
  id: string;
  campaign_id: string;
  user_id: string;
  currency: string;
  points: string;
  reason: string;
  operator_id: string | null;
  operator_email: string;
  reverses_id: string | null;
  reversed_by_id: string | null;
  import_id: string | null;
  created_at: Date;
}

/** The columns of AdjustmentRow from `score_adjustment a`. */
export const ADJUSTMENT_COLUMNS = `a.id::text, a.campaign_id, a.user_id, a.currency, a.points::text, a.reason, a.operator_id, a.operator_email,
  a.reverses_id::text, (SELECT r.id::text FROM score_adjustment r WHERE r.reverses_id = a.id) AS reversed_by_id, a.import_id, a.created_at`;

/** An adjustment on the wire. */
export function adjustmentJson(a: AdjustmentRow) {
  return { ...a, created_at: a.created_at.toISOString() };
}

/**
 * Checks the points of an adjustment (or any amount of points, named by `field`): a signed decimal, not zero,
 * with no more places than the currency has under the active rules. Returns the message naming the field and
 * the rule, or null when it is fine.
 */
export function pointsProblem(points: string, currency: string, rules: RuleVersion | null, field = "points"): string | null {
  if (!POINTS_PATTERN.test(points))
    return `${field}: must be a signed decimal string such as "100" or "-2.5" (at most 30 digits before the point and 18 after)`;
  if (/^-?0(\.0+)?$/.test(points)) return `${field}: must not be zero`;
  const decimals = rules?.currencies[currency]?.decimals;
  const places = points.split(".")[1]?.length ?? 0;
  if (decimals !== undefined && places > decimals) return `${field}: ${currency} has ${decimals} decimal places; got ${places}`;
  return null;
}

/** Checks a currency: one of the campaign's currency keys. */
export function currencyProblem(currency: string, campaign: Campaign): string | null {
  const keys = Object.keys(campaign.currencies as Record<string, string>);
  return keys.includes(currency) ? null : `currency: must be one of the campaign's currencies (${keys.join(", ")})`;
}

/** The campaign's active rules read inside the transaction (stable under the apply lock), or null. */
export async function activeRulesIn(tx: Transaction, campaignId: string): Promise<RuleVersion | null> {
  const active = await activeRuleVersion(tx, campaignId);
  if (!active) return null;
  try {
    return parseRuleVersion(active.document);
  } catch {
    return null;
  }
}

/** Refuses a bad adjustment with the message naming the field. */
export function checkAdjustment(a: NewAdjustment, campaign: Campaign, rules: RuleVersion | null): void {
  const problem = currencyProblem(a.currency, campaign) ?? pointsProblem(a.points, a.currency, rules);
  if (problem) throw new ValidationError(problem, { field: problem.split(":")[0] });
}

/** What appending adjustments did: the rows made, and the score change to announce once the transaction commits. */
export interface AppendedAdjustments {
  created: AdjustmentRow[];
  /** Null when no served score row changed (no active rule version, or only excluded users). */
  change: ScoresChanged | null;
}

/**
 * Appends adjustments and adds them to the served scores in the caller's transaction, under the
 * campaign's apply lock (so a recompute switch either sees them or runs before them, never half).
 * Without an active rule version nothing is served, and the first activation adds them. An excluded
 * user's adjustment is kept but shows nowhere until the exclusion is lifted.
 */
export async function appendAdjustments(
  tx: Transaction,
  session: OperatorSession,
  campaign: Campaign,
  items: readonly NewAdjustment[],
  opts: { importId?: string } = {},
): Promise<AppendedAdjustments> {
  if (items.length === 0) return { created: [], change: null };
  const rules = await activeRulesIn(tx, campaign.id);
  const { rows } = await tx.query<AdjustmentRow>(
    `WITH ins AS (
       INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_id, operator_email, reverses_id, import_id)
       SELECT $1, d.user_id, d.currency, d.points, d.reason, $2, COALESCE((SELECT email FROM operator WHERE id = $2), 'unknown'), d.reverses_id, $4
         FROM json_to_recordset($3::json) AS d(user_id uuid, currency text, points numeric, reason text, reverses_id bigint)
       RETURNING *
     ) SELECT ${ADJUSTMENT_COLUMNS.replace("(SELECT r.id::text FROM score_adjustment r WHERE r.reverses_id = a.id)", "NULL::text")} FROM ins a ORDER BY a.id`,
    [
      campaign.id,
      session.operatorId,
      JSON.stringify(items.map((i) => ({ user_id: i.userId, currency: i.currency, points: i.points, reason: i.reason, reverses_id: i.reversesId ?? null }))),
      opts.importId ?? null,
    ],
  );
  if (!rules) return { created: rows, change: null };
  const excluded = await excludedUsers(tx, campaign.id, [...new Set(rows.map((r) => r.user_id))]);
  const shown = rows.filter((r) => !excluded.has(r.user_id));
  // A reversal decays from the time of the adjustment it reverses, so the two cancel to the last digit.
  const originalTime = new Map(items.flatMap((i) => (i.reversesId !== undefined && i.reversesAt !== undefined ? [[i.reversesId, i.reversesAt]] : [])));
  const deltas = adjustmentDeltas(
    rules,
    shown.map((r) => {
      const decaysFrom = r.reverses_id ? originalTime.get(r.reverses_id) : undefined;
      return { userId: r.user_id, currency: r.currency, points: r.points, createdAt: r.created_at, ...(decaysFrom ? { decaysFrom } : {}) };
    }),
  );
  await addAdjustmentScores(tx, campaign.id, deltas);
  const change = scoresChangeOf({ campaignId: campaign.id, reason: "adjustments", ruleVersion: rules.version, rows: deltas, lastSeq: null, now: new Date() });
  return { created: rows, change };
}
