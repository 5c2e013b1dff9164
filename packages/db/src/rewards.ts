// Redemptions as the score rows carry them: what the switch re-applies and what a spend or a refund changes.
import type { Queryable } from "./statement-queue";

/** One counted redemption (every status but rejected) as the score switch reads it back. */
export interface StoredSpend {
  userId: string;
  currency: string;
  /** Decimal text. */
  price: string;
  createdAt: Date;
}

/** Every counted redemption of a campaign, oldest first. */
export async function readSpends(q: Queryable, campaignId: string): Promise<StoredSpend[]> {
  const { rows } = await q.query<{ user_id: string; currency: string; price: string; created_at: Date }>(
    "SELECT user_id, currency, price::text, created_at FROM redemption WHERE campaign_id = $1 AND status <> 'rejected' ORDER BY created_at, id",
    [campaignId],
  );
  return rows.map((r) => ({ userId: r.user_id, currency: r.currency, price: r.price, createdAt: r.created_at }));
}

/**
 * Sets `spent` of the served score rows from redemption sums (stored form), creating rows for users
 * who have spent but hold no score any more (their balance shows 0 and the spend as a shortfall that
 * later earnings fill first). Such a row, nothing earned and only a spend, is on no board (ON_BOARD_SQL).
 * Users not named keep what they have; the switch calls it right after inserting fresh rows (spent 0).
 */
export async function setSpentScores(q: Queryable, campaignId: string, rows: readonly { userId: string; currency: string; spent: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO score AS s (campaign_id, user_id, currency, score, referral_score, total, lifetime, tier, spent, updated_at)
     SELECT $1, d.user_id, d.currency, 0, 0, 0, 0, NULL, d.spent, now()
       FROM json_to_recordset($2::json) AS d(user_id uuid, currency text, spent numeric)
      ORDER BY d.user_id, d.currency
     ON CONFLICT (campaign_id, user_id, currency) DO UPDATE SET spent = EXCLUDED.spent, updated_at = now()`,
    [campaignId, JSON.stringify(rows.map((r) => ({ user_id: r.userId, currency: r.currency, spent: r.spent })))],
  );
}

/** A user's score row in a currency as a spend reads it (locked until the transaction ends), or null. */
export interface SpendableRow {
  /** total - spent in stored form (may be negative after a recompute: a shortfall). */
  storedBalance: string;
}

/** Locks and reads the user's score row in a currency for a spend. */
export async function lockSpendableRow(q: Queryable, campaignId: string, userId: string, currency: string): Promise<SpendableRow | null> {
  const { rows } = await q.query<{ b: string }>(
    "SELECT (total - spent)::text AS b FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = $3 FOR UPDATE",
    [campaignId, userId, currency],
  );
  return rows[0] ? { storedBalance: rows[0].b } : null;
}

/**
 * Adds a stored amount to `spent` only if the stored balance covers it; false (nothing changed) when
 * it does not. A negative amount is a refund and always applies. One conditional UPDATE, so two
 * concurrent spends can never both pass a check that only one of them fits.
 */
export async function addSpent(q: Queryable, campaignId: string, userId: string, currency: string, stored: string): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE score SET spent = GREATEST(spent + $4::numeric, 0), updated_at = now()
      WHERE campaign_id = $1 AND user_id = $2 AND currency = $3 AND ($4::numeric < 0 OR total - spent >= $4::numeric)`,
    [campaignId, userId, currency, stored],
  );
  return (rowCount ?? 0) > 0;
}
