// Participants and their identities: the user behind a signed-in identity, and linking further identities under the merge rules.
import type { Database, Queryable } from "@pointwise/db";
import { guardIdentityMove, linkingIdentity, queueRecompute } from "@pointwise/db";
import { ConflictError, NotFoundError } from "@pointwise/errors";
import type { IdentityType } from "@pointwise/schemas";

/** The campaign a participant signs in to. */
export interface PortalCampaign {
  id: string;
  name: string;
  badWords: string[];
}

/** Loads a campaign or throws 404 `campaign-not-found`. */
export async function loadCampaign(db: Queryable, campaignId: string): Promise<PortalCampaign> {
  const { rows } = await db.query<{ id: string; name: string; bad_words: string[] }>("SELECT id, name, bad_words FROM campaign WHERE id = $1", [campaignId]);
  const row = rows[0];
  if (!row) throw new NotFoundError(`campaign ${campaignId} not found`, { code: "campaign-not-found" });
  return { id: row.id, name: row.name, badWords: row.bad_words };
}

/**
 * The user an identity belongs to in a campaign, created (with a user of its own) when nobody has it
 * yet: the same statement the scoring worker uses for an unseen identity, so both may race safely.
 */
export async function userOfIdentity(db: Queryable, campaignId: string, identityType: IdentityType, accountId: string): Promise<string> {
  await db.query(
    `WITH ins AS (
       INSERT INTO identity(campaign_id, identity_type, account_id, user_id) VALUES ($1, $2, $3, gen_random_uuid())
       ON CONFLICT (campaign_id, identity_type, account_id) DO NOTHING
       RETURNING user_id
     )
     INSERT INTO app_user(id, campaign_id) SELECT user_id, $1 FROM ins`,
    [campaignId, identityType, accountId],
  );
  const { rows } = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3", [
    campaignId,
    identityType,
    accountId,
  ]);
  return rows[0]?.user_id as string;
}

/** How many identities of a kind one user may hold. */
export interface IdentityLimits {
  wallets: number;
  accountsPerProvider: number;
}

const WALLET_TYPES: readonly string[] = ["EVM_ADDRESS", "SOLANA_ADDRESS", "BTC_ADDRESS"];

/** What linking did: the identity, whom it was taken from (a merge) and the recompute that follows. */
export interface LinkOutcome {
  identityId: string;
  movedFromUserId: string | null;
  recomputeJobId: string | null;
}

/**
 * Links an identity whose control the participant has just proven (signature, OAuth, e-mail code)
 * to their user. An identity of another user moves over with every event it sent and the campaign is
 * recomputed, the merge rule operators follow; nothing is lost. Over the limit (wallets together, or
 * accounts of one provider) is 409 `identity-limit-reached`; an identity with events whose holder has
 * spent points is 409 `identity-points-spent` (guardIdentityMove), and nothing changes.
 */
export async function linkIdentity(
  db: Database,
  campaignId: string,
  userId: string,
  identity: { type: IdentityType; accountId: string; handle?: string | null },
  limits: IdentityLimits,
): Promise<LinkOutcome> {
  return linkingIdentity(() => linkOnce(db, campaignId, userId, identity, limits));
}

function linkOnce(
  db: Database,
  campaignId: string,
  userId: string,
  identity: { type: IdentityType; accountId: string; handle?: string | null },
  limits: IdentityLimits,
): Promise<LinkOutcome> {
  return db.transaction(async (client) => {
    // The same lock the admin API's link/unlink take: one change of ownership at a time per campaign.
    await client.lockCampaign("users", campaignId);
    const { rows } = await client.query<{ id: string; user_id: string }>(
      "SELECT id, user_id FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3 FOR UPDATE",
      [campaignId, identity.type, identity.accountId],
    );
    const existing = rows[0];
    if (existing?.user_id === userId) {
      if (identity.handle !== undefined) await client.query("UPDATE identity SET handle = $2 WHERE id = $1", [existing.id, identity.handle]);
      return { identityId: existing.id, movedFromUserId: null, recomputeJobId: null };
    }
    const wallet = WALLET_TYPES.includes(identity.type);
    const { rows: held } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM identity WHERE user_id = $1 AND identity_type = ANY($2::text[])", [
      userId,
      wallet ? WALLET_TYPES : [identity.type],
    ]);
    const limit = wallet ? limits.wallets : limits.accountsPerProvider;
    if ((held[0]?.n ?? 0) >= limit) {
      throw new ConflictError(
        "identity-limit-reached",
        wallet
          ? `a user may hold at most ${limit} wallets; unlink one first`
          : `a user may hold at most ${limit} ${identity.type} account(s); unlink one first`,
      );
    }
    if (!existing) {
      const { rows: created } = await client.query<{ id: string }>(
        "INSERT INTO identity(campaign_id, user_id, identity_type, account_id, handle) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        [campaignId, userId, identity.type, identity.accountId, identity.handle ?? null],
      );
      return { identityId: created[0]?.id as string, movedFromUserId: null, recomputeJobId: null };
    }
    // Merge: the identity (and with it every event it sent) now belongs to this user; the log keeps its
    // rows and the recompute attributes them to the identity's current owner.
    await guardIdentityMove(client, { campaignId, identityType: identity.type, accountId: identity.accountId, fromUserId: existing.user_id });
    await client.query("UPDATE identity SET user_id = $2, handle = COALESCE($3, handle) WHERE id = $1", [existing.id, userId, identity.handle ?? null]);
    return { identityId: existing.id, movedFromUserId: existing.user_id, recomputeJobId: await queueRecompute(client, campaignId, "identity-link") };
  });
}

/** The identities of a user, oldest first, as the participant sees them (their own, so in full). */
export async function identitiesOf(db: Queryable, userId: string) {
  const { rows } = await db.query<{ id: string; identity_type: string; account_id: string; handle: string | null; created_at: Date }>(
    "SELECT id, identity_type, account_id, handle, created_at FROM identity WHERE user_id = $1 ORDER BY created_at, id",
    [userId],
  );
  return rows.map((r) => ({ id: r.id, identity_type: r.identity_type, account_id: r.account_id, handle: r.handle, created_at: r.created_at.toISOString() }));
}

/**
 * Unlinks one of the user's identities: it becomes a user of its own, keeping its events, and the
 * campaign is recomputed (the admin API's unlink rule). The user's only identity cannot be unlinked
 * (409 `last-identity`), nor one with events once the user has spent points (409 `identity-points-spent`,
 * guardIdentityMove); an identity that is not the user's is 404 `identity-not-found`.
 */
export async function unlinkIdentity(db: Database, campaignId: string, userId: string, identityId: string): Promise<{ recomputeJobId: string | null }> {
  return db.transaction(async (client) => {
    await client.lockCampaign("users", campaignId);
    const { rows } = await client.query<{ identity_type: string; account_id: string }>(
      "SELECT identity_type, account_id FROM identity WHERE id = $1 AND user_id = $2 AND campaign_id = $3 FOR UPDATE",
      [identityId, userId, campaignId],
    );
    const held = rows[0];
    if (!held) throw new NotFoundError(`identity ${identityId} not found`, { code: "identity-not-found" });
    const { rows: count } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM identity WHERE user_id = $1", [userId]);
    if ((count[0]?.n ?? 0) <= 1) throw new ConflictError("last-identity", "this is your only identity; link another one before unlinking it");
    await guardIdentityMove(client, { campaignId, identityType: held.identity_type, accountId: held.account_id, fromUserId: userId });
    const { rows: created } = await client.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [campaignId]);
    await client.query("UPDATE identity SET user_id = $2 WHERE id = $1", [identityId, created[0]?.id]);
    return { recomputeJobId: await queueRecompute(client, campaignId, "identity-link") };
  });
}
