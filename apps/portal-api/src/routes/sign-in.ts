// Sign-in routes: wallet nonces and messages, e-mail codes, refresh and sign-out.
import { countAttempt, forgetAttempts } from "@pointwise/db";
import { BaseError, ValidationError } from "@pointwise/errors";
import { clientAddress, parseWith } from "@pointwise/runtime";
import { campaignIdSchema, normalizeAccountId } from "@pointwise/schemas";
import { getAddress } from "ethers";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { participantOf, requireParticipant } from "../bearer";
import type { Deps } from "../deps";
import { consumeEmailCode, issueEmailCode } from "../email-codes";
import { consumeNonce, issueNonce } from "../nonces";
import { setReferrerByCode } from "../referrals";
import { endSession, type IssuedSession, refreshSession, startSession } from "../sessions";
import { loadCampaign, userOfIdentity } from "../users";
import { checkWalletMessage, walletSchema } from "../wallets";

const referralCode = z.string().min(1, "must not be empty").max(32, "must be at most 32 characters").optional();
const nonceSchema = z.strictObject({
  campaign_id: campaignIdSchema,
  /** An EVM address in any case: answered in its EIP-55 form, which the message must name (wallets often answer lowercase). */
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address: 0x and 40 hex digits")
    .optional(),
});
const walletSignInSchema = z.strictObject({
  campaign_id: campaignIdSchema,
  wallet: walletSchema.default("evm"),
  message: z.string().min(1, "must not be empty").max(4096, "must be at most 4096 characters"),
  signature: z.string().min(1, "must not be empty").max(4096, "must be at most 4096 characters"),
  referral_code: referralCode,
});
const emailStartSchema = z.strictObject({ campaign_id: campaignIdSchema, email: z.string().min(1, "must not be empty").max(320) });
/** The 6-digit code field of a code entry. */
export const emailCodeSchema = z.string().regex(/^[0-9]{6}$/, "must be the 6 digits that were sent");
const emailVerifySchema = z.strictObject({
  campaign_id: campaignIdSchema,
  email: z.string().min(1, "must not be empty").max(320),
  code: emailCodeSchema,
  referral_code: referralCode,
});
const refreshSchema = z.strictObject({ refresh_token: z.string().min(1, "must not be empty").max(200) });

/** The e-mail of a request body, normalised as identities are stored; 400 `invalid-email` otherwise. */
export function emailOf(raw: string): string {
  try {
    return normalizeAccountId("EMAIL", raw);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^.*?EMAIL:?\s*/i, "") : "invalid";
    throw new ValidationError(`email: ${reason}`, { code: "invalid-email", field: "email" });
  }
}

/** Counts an attempt of the client address and, when known, of the identity; 429 `too-many-attempts` past either limit. */
export async function countAttempts(deps: Deps, req: Request, action: string, identity?: string): Promise<void> {
  const windowSeconds = deps.env.PORTAL_ATTEMPT_WINDOW_S;
  await countAttempt(
    deps.db,
    "portal_attempt",
    `ip:${action}:${clientAddress(req)}`,
    { attempts: deps.env.PORTAL_ATTEMPTS_PER_IP, windowSeconds },
    `${action} attempts from this address`,
  );
  if (identity !== undefined) {
    await countAttempt(
      deps.db,
      "portal_attempt",
      `id:${action}:${identity}`,
      { attempts: deps.env.PORTAL_ATTEMPTS_PER_IDENTITY, windowSeconds },
      `${action} attempts for this identity`,
    );
  }
}

function sendTokens(deps: Deps, res: Response, session: IssuedSession, referral?: unknown): void {
  const ttl = deps.env.PORTAL_ACCESS_TOKEN_TTL_S;
  const accessToken = deps.keys.sign({ userId: session.userId, sessionId: session.sessionId, campaignId: session.campaignId }, ttl);
  res.set("cache-control", "no-store");
  res.json({
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ttl,
    refresh_token: session.refreshToken,
    user_id: session.userId,
    campaign_id: session.campaignId,
    ...(referral === undefined ? {} : { referral }),
  });
}

/** A referral code given with a first sign-in: its outcome travels beside the tokens, since the sign-in itself succeeded. */
async function applyReferral(deps: Deps, campaignId: string, userId: string, code: string | undefined) {
  if (code === undefined) return undefined;
  try {
    return { referrer_id: await setReferrerByCode(deps.db, campaignId, userId, code), error: null };
  } catch (err) {
    if (err instanceof BaseError && !err.retryable) return { referrer_id: null, error: { code: err.code, message: err.message } };
    throw err;
  }
}

/** Sign-in routes of participants. */
export function signInRoutes(deps: Deps): Router {
  const router = Router();
  const { db, env } = deps;

  router.post("/auth/nonce", async (req, res) => {
    const body = parseWith(nonceSchema, req.body);
    await countAttempts(deps, req, "nonce");
    await loadCampaign(db, body.campaign_id);
    const { nonce, issuedAt, expiresAt } = await issueNonce(db, body.campaign_id, env.PORTAL_NONCE_TTL_S);
    // Ended windows and codes are of no use any more; removed here, where every sign-in passes.
    await forgetAttempts(db, "portal_attempt", [], env.PORTAL_ATTEMPT_WINDOW_S);
    await db.query("DELETE FROM portal_email_code WHERE expires_at < now() - interval '1 hour'");
    res.set("cache-control", "no-store");
    // Both times are the service's, so a message written with them lives exactly as long as it may, whatever the browser's clock.
    res.json({
      nonce,
      issued_at: issuedAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      domain: env.PORTAL_DOMAIN,
      chain_ids: env.PORTAL_EVM_CHAIN_IDS,
      // A mixed-case address whose EIP-55 checksum is wrong is a mistyped one: refused (invalid-account-id), not re-cased;
      // so is the zero address, which signs in nobody (an entry, as the signed sign-in that follows).
      ...(body.address === undefined ? {} : { address: getAddress(normalizeAccountId("EVM_ADDRESS", body.address, { entry: true })) }),
    });
  });

  router.post("/auth/wallet", async (req, res) => {
    const body = parseWith(walletSignInSchema, req.body);
    await countAttempts(deps, req, "sign-in");
    const campaign = await loadCampaign(db, body.campaign_id);
    const signed = await checkWalletMessage(deps, body.wallet, body.message, body.signature, (account) => countAttempts(deps, req, "wallet", account));
    await consumeNonce(db, campaign.id, signed.nonce);
    const userId = await userOfIdentity(db, campaign.id, signed.identityType, signed.accountId);
    const session = await startSession(db, campaign.id, userId, env.PORTAL_SESSION_TTL_S);
    sendTokens(deps, res, session, await applyReferral(deps, campaign.id, userId, body.referral_code));
  });

  router.post("/auth/email/start", async (req, res) => {
    const body = parseWith(emailStartSchema, req.body);
    const email = emailOf(body.email);
    await countAttempts(deps, req, "email", `${body.campaign_id}:${email}`);
    const campaign = await loadCampaign(db, body.campaign_id);
    // Sent whether or not the address has an account: the answer is the same either way.
    const code = await issueEmailCode(db, campaign.id, email, env.PORTAL_EMAIL_CODE_TTL_S);
    await deps.mailer.sendCode({ to: email, code, campaignName: campaign.name, expiresInS: env.PORTAL_EMAIL_CODE_TTL_S });
    res.status(202).json({ status: "sent", expires_in: env.PORTAL_EMAIL_CODE_TTL_S });
  });

  router.post("/auth/email/verify", async (req, res) => {
    const body = parseWith(emailVerifySchema, req.body);
    const email = emailOf(body.email);
    await countAttempts(deps, req, "code", `${body.campaign_id}:${email}`);
    const campaign = await loadCampaign(db, body.campaign_id);
    await consumeEmailCode(db, campaign.id, email, body.code, env.PORTAL_EMAIL_CODE_ATTEMPTS);
    const userId = await userOfIdentity(db, campaign.id, "EMAIL", email);
    const session = await startSession(db, campaign.id, userId, env.PORTAL_SESSION_TTL_S);
    sendTokens(deps, res, session, await applyReferral(deps, campaign.id, userId, body.referral_code));
  });

  router.post("/auth/refresh", async (req, res) => {
    const body = parseWith(refreshSchema, req.body);
    await countAttempts(deps, req, "refresh");
    sendTokens(deps, res, await refreshSession(db, body.refresh_token));
  });

  router.post("/auth/sign-out", requireParticipant(deps.keys, db), async (_req, res) => {
    await endSession(db, participantOf(res.locals).sessionId);
    res.status(204).end();
  });

  return router;
}
