// The signed-in participant's own user: profile, display name, referral code, linked wallets and e-mail addresses.
import { ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
// refuseHiddenDisplayName uses the read API's comparisons, so a name this API accepts is never one the
// leaderboard hides for a bad word or an identity.
import { displayNameSchema, refuseHiddenDisplayName } from "@pointwise/schemas";
import { Router } from "express";
import { z } from "zod";
import { participantOf, requireParticipant } from "../bearer";
import type { Deps } from "../deps";
import { consumeEmailCode, issueEmailCode } from "../email-codes";
import { consumeNonce } from "../nonces";
import { referralCodeOf, setReferrerByCode } from "../referrals";
import { identitiesOf, linkIdentity, loadCampaign, unlinkIdentity } from "../users";
import { checkWalletMessage, walletSchema } from "../wallets";
import { ledgerRoutes } from "./ledger";
import { countAttempts, emailCodeSchema, emailOf } from "./sign-in";

const profileSchema = z.strictObject({ display_name: displayNameSchema.nullable() });
const referrerSchema = z.strictObject({ referral_code: z.string().min(1, "must not be empty").max(32, "must be at most 32 characters") });
const linkWalletSchema = z.strictObject({
  wallet: walletSchema.default("evm"),
  message: z.string().min(1, "must not be empty").max(4096, "must be at most 4096 characters"),
  signature: z.string().min(1, "must not be empty").max(4096, "must be at most 4096 characters"),
});
const linkEmailStartSchema = z.strictObject({ email: z.string().min(1, "must not be empty").max(320) });
const linkEmailVerifySchema = z.strictObject({ email: z.string().min(1, "must not be empty").max(320), code: emailCodeSchema });

/** Routes of the signed-in participant, all behind their access token (the ledger's are in ledger.ts). */
export function meRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;
  router.use("/me", requireParticipant(deps.keys, db));
  router.use(ledgerRoutes(deps));

  async function profile(campaignId: string, userId: string) {
    const { rows } = await db.query<{ display_name: string | null; referrer_id: string | null; created_at: Date }>(
      "SELECT display_name, referrer_id, created_at FROM app_user WHERE id = $1",
      [userId],
    );
    const user = rows[0];
    return {
      user_id: userId,
      campaign_id: campaignId,
      display_name: user?.display_name ?? null,
      referral_code: await referralCodeOf(db, campaignId, userId),
      referrer_id: user?.referrer_id ?? null,
      identities: await identitiesOf(db, userId),
    };
  }

  router.get("/me", async (_req, res) => {
    const me = participantOf(res.locals);
    res.json(await profile(me.campaignId, me.userId));
  });

  router.patch("/me", async (req, res) => {
    const me = participantOf(res.locals);
    const body = parseWith(profileSchema, req.body);
    if (body.display_name !== null) {
      const campaign = await loadCampaign(db, me.campaignId);
      const ownIds = (await identitiesOf(db, me.userId)).map((i) => i.account_id);
      refuseHiddenDisplayName(body.display_name, { badWords: [deps.badWords, campaign.badWords], ownIds });
    }
    await db.query("UPDATE app_user SET display_name = $2 WHERE id = $1", [me.userId, body.display_name]);
    res.json(await profile(me.campaignId, me.userId));
  });

  router.post("/me/referrer", async (req, res) => {
    const me = participantOf(res.locals);
    const body = parseWith(referrerSchema, req.body);
    await countAttempts(deps, req, "referral", me.userId);
    await setReferrerByCode(db, me.campaignId, me.userId, body.referral_code);
    res.json(await profile(me.campaignId, me.userId));
  });

  router.post("/me/wallets", async (req, res) => {
    const me = participantOf(res.locals);
    const body = parseWith(linkWalletSchema, req.body);
    await countAttempts(deps, req, "link");
    const signed = await checkWalletMessage(deps, body.wallet, body.message, body.signature, (account) => countAttempts(deps, req, "wallet", account));
    await consumeNonce(db, me.campaignId, signed.nonce);
    const outcome = await linkIdentity(db, me.campaignId, me.userId, { type: signed.identityType, accountId: signed.accountId }, linkLimits(deps));
    if (outcome.movedFromUserId)
      deps.logger.info({ campaign_id: me.campaignId, user_id: me.userId, from_user_id: outcome.movedFromUserId }, "identity moved by its owner");
    res.status(200).json({
      identity_id: outcome.identityId,
      merged: outcome.movedFromUserId !== null,
      recompute_job_id: outcome.recomputeJobId,
      ...(await profile(me.campaignId, me.userId)),
    });
  });

  // Linking an e-mail address: a code goes to the address, whoever holds it; entering it proves the
  // address as a signature proves a wallet. Attempts share the sign-in counts of the address.
  router.post("/me/email/start", async (req, res) => {
    const me = participantOf(res.locals);
    const body = parseWith(linkEmailStartSchema, req.body);
    const email = emailOf(body.email);
    await countAttempts(deps, req, "email", `${me.campaignId}:${email}`);
    const campaign = await loadCampaign(db, me.campaignId);
    // Sent whether the address is nobody's, another user's or already this user's: the answer is the same.
    const code = await issueEmailCode(db, campaign.id, email, deps.env.PORTAL_EMAIL_CODE_TTL_S, { kind: "link", userId: me.userId });
    await deps.mailer.sendCode({ to: email, code, campaignName: campaign.name, expiresInS: deps.env.PORTAL_EMAIL_CODE_TTL_S, purpose: "link" });
    res.status(202).json({ status: "sent", expires_in: deps.env.PORTAL_EMAIL_CODE_TTL_S });
  });

  router.post("/me/email/verify", async (req, res) => {
    const me = participantOf(res.locals);
    const body = parseWith(linkEmailVerifySchema, req.body);
    const email = emailOf(body.email);
    await countAttempts(deps, req, "code", `${me.campaignId}:${email}`);
    await consumeEmailCode(db, me.campaignId, email, body.code, deps.env.PORTAL_EMAIL_CODE_ATTEMPTS, { kind: "link", userId: me.userId });
    const outcome = await linkIdentity(db, me.campaignId, me.userId, { type: "EMAIL", accountId: email }, linkLimits(deps));
    if (outcome.movedFromUserId)
      deps.logger.info({ campaign_id: me.campaignId, user_id: me.userId, from_user_id: outcome.movedFromUserId }, "identity moved by its owner");
    res.json({
      identity_id: outcome.identityId,
      merged: outcome.movedFromUserId !== null,
      recompute_job_id: outcome.recomputeJobId,
      ...(await profile(me.campaignId, me.userId)),
    });
  });

  router.delete("/me/identities/:identityId", async (req, res) => {
    const me = participantOf(res.locals);
    const identityId = String(req.params.identityId);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(identityId)) {
      throw new ValidationError("identity_id must be a uuid", { code: "invalid-identity-id", field: "identity_id" });
    }
    const outcome = await unlinkIdentity(db, me.campaignId, me.userId, identityId.toLowerCase());
    res.json({ recompute_job_id: outcome.recomputeJobId, ...(await profile(me.campaignId, me.userId)) });
  });

  return router;
}

/** The identity limits of this deployment. */
export function linkLimits(deps: Deps) {
  return { wallets: deps.env.PORTAL_MAX_WALLETS, accountsPerProvider: deps.env.PORTAL_MAX_ACCOUNTS_PER_PROVIDER };
}
