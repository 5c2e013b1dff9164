// Rewards for participants: the catalogue, redeeming (by the participant, or by the campaign's API key on their behalf) and their redemptions.
import { apiKeyMatches, apiKeyPrefix, decryptVoucherCode } from "@pointwise/auth";
import { REDEMPTION_COLUMNS, REWARD_COLUMNS, type RedemptionRow, type RewardRow, redemptionJson, rewardJson } from "@pointwise/db";
import { AuthError, NotFoundError, ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { idempotencyKeyProblem } from "@pointwise/schemas";
import { type Request, Router } from "express";
import { z } from "zod";
import { participantOf, requireParticipant } from "../bearer";
import type { Deps } from "../deps";
import { createClaimTrees } from "../rewards/claim-trees";
import { redeem } from "../rewards/redeem";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const redeemBody = z.strictObject({
  reward_id: z.string().regex(UUID, "must be a reward id (a UUID)"),
  account: z.string().max(100, "must be at most 100 characters").optional(),
});
const listQuery = z.strictObject({
  limit: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(200, "must be at most 200").optional(),
});

/** The Idempotency-Key header, required on every redemption, under the rule every service shares. */
function idempotencyKeyOf(req: Request): string {
  const key = req.headers["idempotency-key"];
  if (typeof key !== "string" || key.length === 0)
    throw new ValidationError("Idempotency-Key header is required: a retry with the same key returns the same redemption", { code: "idempotency-key-missing" });
  const problem = idempotencyKeyProblem(key);
  if (problem) throw new ValidationError(problem, { code: "invalid-idempotency-key" });
  return key;
}

function uuidOf(value: string, what: string): string {
  if (!UUID.test(value)) throw new NotFoundError(`${what} ${value} not found`, { code: `${what}-not-found` });
  return value.toLowerCase();
}

/** Participant routes under /me (behind the token) and the API-key route that redeems on a user's behalf. */
export function rewardRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;
  const trees = createClaimTrees(db);

  // The campaign an X-API-Key belongs to (any live key of the campaign named in the path); 401 otherwise.
  async function requireKey(req: Request, campaignId: string): Promise<void> {
    const key = req.headers["x-api-key"];
    if (typeof key !== "string" || key.length === 0) throw new AuthError("missing-credentials", "send X-API-Key: <campaign API key>");
    const prefix = apiKeyPrefix(key);
    const { rows } = prefix
      ? await db.query<{ campaign_id: string; hash: string }>("SELECT campaign_id, hash FROM api_key WHERE prefix = $1 AND revoked_at IS NULL", [prefix])
      : { rows: [] };
    const row = rows[0];
    if (!row || !apiKeyMatches(key, row.hash)) throw new AuthError("invalid-api-key", "X-API-Key is not a live key");
    if (row.campaign_id !== campaignId) throw new AuthError("forbidden", "this API key belongs to another campaign");
  }

  router.post("/campaigns/:campaign_id/users/:user_id/redemptions", async (req, res) => {
    const campaignId = req.params.campaign_id;
    await requireKey(req, campaignId);
    const userId = uuidOf(req.params.user_id, "user");
    const idempotencyKey = idempotencyKeyOf(req);
    const body = parseWith(redeemBody, req.body);
    const { rows } = await db.query("SELECT 1 FROM app_user WHERE id = $1 AND campaign_id = $2", [userId, campaignId]);
    if (rows.length === 0) throw new NotFoundError(`user ${userId} not found`, { code: "user-not-found" });
    const out = await redeem(deps, {
      campaignId,
      userId,
      rewardId: body.reward_id.toLowerCase(),
      idempotencyKey,
      account: body.account ?? null,
      channel: "api-key",
    });
    deps.logger.info({ campaign_id: campaignId, user_id: userId, redemption_id: out.redemption.id, created: out.created }, "redeemed by API key");
    res.status(out.created ? 201 : 200).json(out.redemption);
  });

  router.use("/me", requireParticipant(deps.keys, db));

  router.get("/me/rewards", async (_req, res) => {
    const me = participantOf(res.locals);
    const { rows } = await db.query<RewardRow & { codes_available: number }>(
      `SELECT ${REWARD_COLUMNS} FROM reward w WHERE w.campaign_id = $1 AND w.status = 'active' ORDER BY w.created_at, w.id`,
      [me.campaignId],
    );
    res.json({ rewards: rows.map(rewardJson) });
  });

  router.post("/me/redemptions", async (req, res) => {
    const me = participantOf(res.locals);
    const idempotencyKey = idempotencyKeyOf(req);
    const body = parseWith(redeemBody, req.body);
    const out = await redeem(deps, {
      campaignId: me.campaignId,
      userId: me.userId,
      rewardId: body.reward_id.toLowerCase(),
      idempotencyKey,
      account: body.account ?? null,
      channel: "portal",
    });
    deps.logger.info({ campaign_id: me.campaignId, user_id: me.userId, redemption_id: out.redemption.id, created: out.created }, "redeemed");
    res.status(out.created ? 201 : 200).json(out.redemption);
  });

  router.get("/me/redemptions", async (req, res) => {
    const me = participantOf(res.locals);
    const query = parseWith(listQuery, req.query);
    const { rows } = await db.query<RedemptionRow>(
      `SELECT ${REDEMPTION_COLUMNS} FROM redemption r JOIN reward w ON w.id = r.reward_id
        WHERE r.campaign_id = $1 AND r.user_id = $2 ORDER BY r.created_at DESC, r.id DESC LIMIT $3`,
      [me.campaignId, me.userId, query.limit ?? 50],
    );
    res.json({ user_id: me.userId, redemptions: rows.map((r) => redemptionJson(r)) });
  });

  // The user's token claims of published epochs: per epoch and account, the amount and the Merkle proof to claim it on chain.
  router.get("/me/claims", async (_req, res) => {
    const me = participantOf(res.locals);
    const { rows } = await db.query<{ epoch: string; account: string; root: string; tx_hash: string | null }>(
      `SELECT DISTINCT e.id::text AS epoch, r.account, e.root, e.tx_hash
         FROM redemption r JOIN claim_epoch e ON e.id = r.claim_epoch_id
        WHERE r.campaign_id = $1 AND r.user_id = $2 AND e.status = 'published' ORDER BY 1, 2`,
      [me.campaignId, me.userId],
    );
    const claims = await Promise.all(
      rows.map(async (r) => {
        const leaf = (await trees.get(r.epoch)).proof(r.account);
        return { epoch: r.epoch, account: r.account, amount: leaf?.amount.toString() ?? "0", proof: leaf?.proof ?? [], root: r.root, tx_hash: r.tx_hash };
      }),
    );
    res.json({ contract: deps.env.CLAIMS_CONTRACT ?? null, chain_id: deps.env.CLAIMS_CHAIN_ID ?? null, claims });
  });

  // One redemption of the signed-in user, with its voucher code: the code is shown to its owner only.
  router.get("/me/redemptions/:id", async (req, res) => {
    const me = participantOf(res.locals);
    const id = uuidOf(req.params.id, "redemption");
    const { rows } = await db.query<RedemptionRow & { ciphertext: string | null }>(
      `SELECT ${REDEMPTION_COLUMNS}, (SELECT c.ciphertext FROM reward_code c WHERE c.redemption_id = r.id) AS ciphertext
         FROM redemption r JOIN reward w ON w.id = r.reward_id WHERE r.id = $1 AND r.user_id = $2`,
      [id, me.userId],
    );
    const row = rows[0];
    if (!row) throw new NotFoundError(`redemption ${id} not found`, { code: "redemption-not-found" });
    const key = deps.env.VOUCHER_CODE_KEY;
    res.json(redemptionJson(row, row.ciphertext && key ? decryptVoucherCode(key, row.ciphertext) : null));
  });

  return router;
}
