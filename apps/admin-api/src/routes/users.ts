// Admin routes for a campaign's users: lookup, identities, display name, referrer and readable scores.
import { type Database, excludedUsers, guardIdentityMove, linkingIdentity, linkReferrer, type Transaction } from "@pointwise/db";
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { displayNameSchema, IDENTITY_TYPES, normalizeAccountId, refuseHiddenDisplayName } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { X_HANDLE_PATTERN } from "../identities";
import { identityJson, recomputeJobJson } from "../json";
import { queueRecompute } from "../recompute";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { activeRules, readableScore, type StoredScore } from "../scores";
import { sessionOf } from "../session";

const identityType = z.enum(IDENTITY_TYPES, { message: `must be one of ${IDENTITY_TYPES.join(", ")}` });
const handle = z
  .string()
  .trim()
  .transform((h) => h.replace(/^@/, ""))
  .refine((h) => X_HANDLE_PATTERN.test(h), "must be an X username: 1-15 letters, digits or _");

const findSchema = z.strictObject({ identity_type: identityType, account_id: z.string().min(1, "must not be empty") });
const linkSchema = z
  .strictObject({
    identity_type: identityType,
    account_id: z.string().min(1, "must not be empty"),
    handle: handle.optional(),
    move: z.boolean({ message: "must be true or false" }).optional(),
    move_from_user_id: z.string().optional(),
  })
  .refine((b) => b.handle === undefined || b.identity_type === "X_PROVIDER_ID", { message: "can only be set for an X_PROVIDER_ID identity", path: ["handle"] });
const handleSchema = z.strictObject({ handle: handle.nullable() });
const updateUserSchema = z
  .strictObject({
    display_name: displayNameSchema.nullable().optional(),
    referrer_id: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a uuid")
      .nullable()
      .optional(),
  })
  .refine((b) => b.display_name !== undefined || b.referrer_id !== undefined, { message: "must change display_name or referrer_id" });

/** What a user's display name and referral link are (the before and after of `user.update`). */
interface UserLinks {
  display_name: string | null;
  referrer_id: string | null;
}
const SELECT_USER_LINKS = "SELECT display_name, referrer_id FROM app_user WHERE id = $1";
/** What an operator can do about `identity-points-spent`. */
const POINTS_SPENT_REMEDY = "rejecting those redemptions first (only pending ones can be) refunds their points and allows the move";

/** Everything the dashboard shows about one user: identities, referral link and readable scores. */
async function userDetail(db: Database, campaignId: string, userId: string) {
  const user = await db.prisma.user.findFirst({ where: { id: userId, campaignId } });
  if (!user) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
  const [identities, scores, active, excluded] = await Promise.all([
    db.prisma.identity.findMany({ where: { userId, campaignId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.query<StoredScore>(
      "SELECT currency, score::text, referral_score::text, total::text, lifetime::text, tier FROM score WHERE campaign_id = $1 AND user_id = $2 ORDER BY currency",
      [campaignId, userId],
    ),
    activeRules(db, campaignId),
    excludedUsers(db, campaignId, [userId]),
  ]);
  const now = new Date();
  return {
    id: user.id,
    campaign_id: campaignId,
    display_name: user.displayName,
    referrer_id: user.referrerId,
    referred_at: user.referredAt?.toISOString() ?? null,
    excluded: excluded.has(userId),
    created_at: user.createdAt.toISOString(),
    identities: identities.map(identityJson),
    scores: scores.rows.map((s) => readableScore(s, active?.rules ?? null, now)),
  };
}

/** Users of a campaign: find by identity, link/unlink identities, display name, referrer, X username. */
export function userRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;
  const { prisma } = db;

  router.get("/api/campaigns/:id/users", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const query = parseWith(findSchema, req.query);
    const accountId = normalizeAccountId(query.identity_type, query.account_id);
    const identity = await prisma.identity.findUnique({
      where: { campaignId_identityType_accountId: { campaignId: campaign.id, identityType: query.identity_type, accountId } },
    });
    if (!identity) throw new NotFoundError(`no user has the ${query.identity_type} ${accountId} in this campaign`, { code: "user-not-found" });
    res.json(await userDetail(deps.db, campaign.id, identity.userId));
  });

  router.get("/api/campaigns/:id/users/:userId", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    res.json(await userDetail(deps.db, campaign.id, uuidParam(req.params.userId, "user_id")));
  });

  router.patch("/api/campaigns/:id/users/:userId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const userId = uuidParam(req.params.userId, "user_id");
    const body = parseWith(updateUserSchema, req.body);
    await db.transaction(async (client) => {
      // Referral links are checked for cycles against the whole chain; one change at a time per campaign.
      await client.lockCampaign("users", campaign.id);
      const { rows } = await client.query<UserLinks>(`${SELECT_USER_LINKS} AND campaign_id = $2 FOR UPDATE`, [userId, campaign.id]);
      const user = rows[0];
      if (!user) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
      await updateUser(client, user);
      const { rows: after } = await client.query<UserLinks>(SELECT_USER_LINKS, [userId]);
      await recordAudit(client, session, { campaignId: campaign.id, action: "user.update", target: `user:${userId}`, before: user, after: after[0] });
    });
    res.json(await userDetail(deps.db, campaign.id, userId));

    async function updateUser(client: Transaction, user: UserLinks): Promise<void> {
      if (body.display_name !== undefined && body.display_name !== null) {
        // The boards' own checks (as portal-api's PATCH /me applies them), so no name is "saved" that every board hides.
        const { rows: own } = await client.query<{ account_id: string }>("SELECT account_id FROM identity WHERE user_id = $1", [userId]);
        refuseHiddenDisplayName(body.display_name, { badWords: [deps.badWords, campaign.badWords], ownIds: own.map((i) => i.account_id) });
      }
      if (body.display_name !== undefined) await client.query("UPDATE app_user SET display_name = $2 WHERE id = $1", [userId, body.display_name]);
      const referrer = body.referrer_id?.toLowerCase() ?? body.referrer_id;
      if (referrer === undefined || referrer === user.referrer_id) return;
      // Referral points already paid were computed under the link, so it never changes once made.
      if (user.referrer_id !== null) throw new ConflictError("referrer-already-set", `referrer_id is already set to ${user.referrer_id} and cannot be changed`);
      if (referrer === null) return;
      if (referrer === userId) throw new ValidationError("referrer_id must not be the user itself", { field: "referrer_id" });
      const { rows: found } = await client.query("SELECT 1 FROM app_user WHERE id = $1 AND campaign_id = $2", [referrer, campaign.id]);
      if (found.length === 0) throw new ValidationError("referrer_id must be a user of this campaign", { field: "referrer_id" });
      if (!(await linkReferrer(client, userId, referrer)))
        throw new ValidationError(`referrer_id would make a referral cycle: ${referrer} is referred by this user, directly or through others`, {
          field: "referrer_id",
        });
    }
  });

  router.post("/api/campaigns/:id/users/:userId/identities", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const userId = uuidParam(req.params.userId, "user_id");
    const body = parseWith(linkSchema, req.body);
    // Linking brings an identity in, so one nobody can hold (the EVM zero address) is refused; the lookup above still finds it.
    const accountId = normalizeAccountId(body.identity_type, body.account_id, { entry: true });
    const moveFrom = body.move_from_user_id === undefined ? undefined : uuidParam(body.move_from_user_id, "move_from_user_id");
    const outcome = await linkingIdentity(() =>
      db.transaction(async (client) => {
        await client.lockCampaign("users", campaign.id);
        const { rows: users } = await client.query("SELECT 1 FROM app_user WHERE id = $1 AND campaign_id = $2", [userId, campaign.id]);
        if (users.length === 0) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
        const { rows } = await client.query<{ id: string; user_id: string; handle: string | null }>(
          "SELECT id, user_id, handle FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3 FOR UPDATE",
          [campaign.id, body.identity_type, accountId],
        );
        const existing = rows[0];
        // Moving carries every event the identity sent, and unlinking it later makes a new user, not the old one
        // again: it happens only when asked for, decided here under the lock rather than by a look-up before.
        // move_from_user_id pins the holder the operator agreed to move it from: held by anyone else now, it is asked again.
        if (existing && existing.user_id !== userId && (body.move !== true || (moveFrom !== undefined && moveFrom !== existing.user_id)))
          throw new ConflictError(
            "identity-held",
            `the ${body.identity_type} ${accountId} belongs to user ${existing.user_id}; send "move": true to move it, with its events and their points, to this user`,
          );
        // Its holder's spends stay with the holder: an identity whose points were spent does not move.
        if (existing && existing.user_id !== userId)
          await guardIdentityMove(
            client,
            { campaignId: campaign.id, identityType: body.identity_type, accountId, fromUserId: existing.user_id },
            POINTS_SPENT_REMEDY,
          );
        if (!existing) {
          const { rows: created } = await client.query<{ id: string }>(
            "INSERT INTO identity(campaign_id, user_id, identity_type, account_id, handle) VALUES ($1, $2, $3, $4, $5) RETURNING id",
            [campaign.id, userId, body.identity_type, accountId, body.handle ?? null],
          );
          await recordAudit(client, session, {
            campaignId: campaign.id,
            action: "identity.link",
            target: `user:${userId}`,
            after: { identity_id: created[0]?.id, identity_type: body.identity_type, account_id: accountId, user_id: userId },
          });
          return { identityId: created[0]?.id as string, movedFrom: null, jobId: null, status: 201 };
        }
        if (body.handle !== undefined && body.handle !== existing.handle) {
          // A new handle is what the leaderboard shows for an X account: audited like PATCH of the identity.
          await client.query("UPDATE identity SET handle = $2 WHERE id = $1", [existing.id, body.handle]);
          await recordAudit(client, session, {
            campaignId: campaign.id,
            action: "identity.update",
            target: `identity:${existing.id}`,
            before: { handle: existing.handle },
            after: { handle: body.handle },
          });
        }
        if (existing.user_id === userId) return { identityId: existing.id, movedFrom: null, jobId: null, status: 200 };
        // Merge: the identity (and with it every event it sent) now belongs to this user; the log keeps
        // its rows as they are and the recompute attributes them to the identity's current owner.
        await client.query("UPDATE identity SET user_id = $2 WHERE id = $1", [existing.id, userId]);
        await recordAudit(client, session, {
          campaignId: campaign.id,
          action: "identity.move",
          target: `identity:${existing.id}`,
          before: { identity_type: body.identity_type, account_id: accountId, user_id: existing.user_id },
          after: { identity_type: body.identity_type, account_id: accountId, user_id: userId },
        });
        return { identityId: existing.id, movedFrom: existing.user_id, jobId: await queueRecompute(client, campaign.id, "identity-link"), status: 200 };
      }),
    );
    if (outcome.movedFrom)
      deps.logger.info({ campaign_id: campaign.id, user_id: userId, from_user_id: outcome.movedFrom, operator_id: session.operatorId }, "identity moved");
    const identity = await prisma.identity.findUniqueOrThrow({ where: { id: outcome.identityId } });
    const job = outcome.jobId ? await prisma.recomputeJob.findUnique({ where: { id: outcome.jobId } }) : null;
    res
      .status(outcome.status)
      .json({ identity: identityJson(identity), moved_from_user_id: outcome.movedFrom, recompute_job: job ? recomputeJobJson(job) : null });
  });

  router.patch("/api/campaigns/:id/users/:userId/identities/:identityId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const userId = uuidParam(req.params.userId, "user_id");
    const identityId = uuidParam(req.params.identityId, "identity_id");
    const body = parseWith(handleSchema, req.body);
    const identity = await prisma.identity.findFirst({ where: { id: identityId, userId, campaignId: campaign.id } });
    if (!identity) throw new NotFoundError(`identity ${identityId} not found`, { code: "identity-not-found" });
    if (identity.identityType !== "X_PROVIDER_ID") throw new ValidationError("handle can only be set for an X_PROVIDER_ID identity", { field: "handle" });
    const updated = await prisma.$transaction(async (tx) => {
      const now = await tx.identity.update({ where: { id: identityId }, data: { handle: body.handle } });
      await recordAudit(tx, session, {
        campaignId: campaign.id,
        action: "identity.update",
        target: `identity:${identityId}`,
        before: identityJson(identity),
        after: identityJson(now),
      });
      return now;
    });
    res.json(identityJson(updated));
  });

  router.delete("/api/campaigns/:id/users/:userId/identities/:identityId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const userId = uuidParam(req.params.userId, "user_id");
    const identityId = uuidParam(req.params.identityId, "identity_id");
    const outcome = await db.transaction(async (client) => {
      await client.lockCampaign("users", campaign.id);
      const { rows } = await client.query<{ identity_type: string; account_id: string }>(
        "SELECT identity_type, account_id FROM identity WHERE id = $1 AND user_id = $2 AND campaign_id = $3 FOR UPDATE",
        [identityId, userId, campaign.id],
      );
      const held = rows[0];
      if (!held) throw new NotFoundError(`identity ${identityId} not found`, { code: "identity-not-found" });
      const { rows: count } = await client.query<{ n: string }>("SELECT count(*) AS n FROM identity WHERE user_id = $1", [userId]);
      if (Number(count[0]?.n) <= 1) throw new ConflictError("last-identity", "this is the user's only identity; link another one before unlinking it");
      await guardIdentityMove(
        client,
        { campaignId: campaign.id, identityType: held.identity_type, accountId: held.account_id, fromUserId: userId },
        POINTS_SPENT_REMEDY,
      );
      // Unlinking detaches the identity into a user of its own, with its events, so nothing is lost.
      const { rows: created } = await client.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [campaign.id]);
      const newUserId = created[0]?.id as string;
      await client.query("UPDATE identity SET user_id = $2 WHERE id = $1", [identityId, newUserId]);
      await recordAudit(client, session, {
        campaignId: campaign.id,
        action: "identity.unlink",
        target: `identity:${identityId}`,
        before: { user_id: userId },
        after: { user_id: newUserId },
      });
      return { newUserId, jobId: await queueRecompute(client, campaign.id, "identity-link") };
    });
    deps.logger.info({ campaign_id: campaign.id, user_id: userId, new_user_id: outcome.newUserId, operator_id: session.operatorId }, "identity unlinked");
    const job = outcome.jobId ? await prisma.recomputeJob.findUnique({ where: { id: outcome.jobId } }) : null;
    res.json({ user: await userDetail(deps.db, campaign.id, userId), detached_user_id: outcome.newUserId, recompute_job: job ? recomputeJobJson(job) : null });
  });

  return router;
}
