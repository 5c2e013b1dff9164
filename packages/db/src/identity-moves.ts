// The rule every change of an identity's owner follows (portal link/merge/unlink, admin move/unlink): spent points never move with an identity.
import { ConflictError } from "@pointwise/errors";
import { isUniqueViolation } from "./errors";
import { ACTIVE_RULE_VERSION_SQL } from "./rule-versions";
import type { Transaction } from "./transaction";

/** An identity about to change owner, and the user it leaves. */
export interface IdentityMove {
  campaignId: string;
  identityType: string;
  accountId: string;
  /** The user who holds the identity now. */
  fromUserId: string;
}

/**
 * Runs `link`, a transaction that looks an identity up and inserts it when nobody holds it, once more when the
 * insert lost a race: a sign-in or the scoring worker, which take no lock, made the same identity in between (the
 * insert waited for them, then failed on the identity's key). The second run finds the identity and treats it as held.
 */
export async function linkingIdentity<T>(link: () => Promise<T>): Promise<T> {
  try {
    return await link();
  } catch (err) {
    if (!isUniqueViolation(err, "identity_campaign_id_identity_type_account_id_key")) throw err;
    return link();
  }
}

/** The stable code of refusing to move an identity whose points its holder has spent. */
export const IDENTITY_POINTS_SPENT = "identity-points-spent";

/**
 * Refuses, with ConflictError `identity-points-spent`, to move an identity whose events pay points to a user who
 * holds a redemption that is not rejected (an entry of the user's live ledger, for an event of the identity);
 * `remedy` is appended to the message (what the caller can do about it). It first takes the campaign's apply lock for
 * the rest of the transaction, so call it in the transaction that moves the identity, before the move.
 */
export async function guardIdentityMove(tx: Transaction, move: IdentityMove, remedy?: string): Promise<void> {
  // Events follow their identity on the next recompute while redemptions stay with the user who made
  // them: moving an identity whose points were spent would hand its new owner those points unspent.
  // The apply lock is the one every redemption, refund, scoring batch and recompute switch takes, so
  // no redemption of the holder and no award for the identity lands between this check and the move.
  await tx.lockCampaign("apply", move.campaignId);
  const { rows: spends } = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM redemption WHERE campaign_id = $1 AND user_id = $2 AND status <> 'rejected'",
    [move.campaignId, move.fromUserId],
  );
  const redemptions = spends[0]?.n ?? 0;
  if (redemptions === 0) return;
  // What the identity brought the holder is what the holder's live ledger pays for its events: read along the
  // holder's own entries (the ledger's index), not the campaign's log, which has no index by identity. An event
  // not scored yet is scored after the move for its new owner, so the holder cannot have spent it. Referral entries
  // pay for a referee's events, which are not the holder's identities, and a replay pays them to the referrer stored
  // on each event whoever holds its identity then: a move can make them smaller (a shortfall), never another user's.
  const { rows: paid } = await tx.query(
    `SELECT 1 FROM ledger_entry l JOIN event_log e ON e.id = l.event_id
      WHERE l.campaign_id = $1 AND l.user_id = $2 AND l.kind <> 'referral'
        AND l.rule_version = ${ACTIVE_RULE_VERSION_SQL}
        AND e.identity_type = $3 AND e.account_id = $4
      LIMIT 1`,
    [move.campaignId, move.fromUserId, move.identityType, move.accountId],
  );
  if (paid.length === 0) return;
  throw new ConflictError(
    IDENTITY_POINTS_SPENT,
    `this identity's points were spent by the user who holds it (${redemptions} redemption${redemptions === 1 ? "" : "s"} not rejected); it cannot move to another user${remedy ? `; ${remedy}` : ""}`,
  );
}

/** The stable code of refusing a redemption while points of an identity that left the user are still in their balance. */
export const SCORES_RECOMPUTING = "scores-recomputing";

/**
 * Refuses, with ConflictError `scores-recomputing`, a spend by a user whose live ledger (`ruleVersion`) still
 * holds points of an event whose identity now belongs to another user: an identity moved away (guardIdentityMove
 * let it go, since nothing was spent then) and the recompute that takes its points along has not switched in. Until
 * it does, those points are in both this user's balance and, after it, in the new owner's. Asked only while an
 * identity-link recompute has not been followed by a finished one; call it under the campaign's apply lock, the
 * lock the switch takes, as a redemption does.
 */
export async function guardMovedPoints(tx: Transaction, campaignId: string, userId: string, ruleVersion: number): Promise<void> {
  const { rows: pending } = await tx.query(
    `SELECT 1 FROM recompute_job j
      WHERE j.campaign_id = $1 AND j.reason = 'identity-link' AND j.status <> 'done'
        AND NOT EXISTS (SELECT 1 FROM recompute_job d WHERE d.campaign_id = $1 AND d.status = 'done' AND d.queue_seq > j.queue_seq)
      LIMIT 1`,
    [campaignId],
  );
  if (pending.length === 0) return;
  // Referral entries pay for the referee's events, which are not the user's own identities.
  const { rows: moved } = await tx.query(
    `SELECT 1 FROM ledger_entry l
       JOIN event_log e ON e.id = l.event_id
       JOIN identity i ON i.campaign_id = e.campaign_id AND i.identity_type = e.identity_type AND i.account_id = e.account_id
      WHERE l.campaign_id = $1 AND l.user_id = $2 AND l.rule_version = $3 AND l.kind <> 'referral' AND i.user_id <> $2
      LIMIT 1`,
    [campaignId, userId, ruleVersion],
  );
  if (moved.length === 0) return;
  throw new ConflictError(
    SCORES_RECOMPUTING,
    "an identity of this user moved to another user and the campaign's scores are being recomputed; until that is done its points cannot be spent here: retry in a moment",
  );
}
