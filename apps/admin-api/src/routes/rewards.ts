// Admin routes of a campaign's rewards catalogue: list, create, change or archive a reward, and upload voucher codes.
import { encryptVoucherCode, hashVoucherCode } from "@pointwise/auth";
import { MAX_UINT256 } from "@pointwise/claims";
import { REWARD_COLUMNS, type RewardRow, rewardJson, type Transaction } from "@pointwise/db";
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import type { RuleVersion } from "@pointwise/rules";
import { parseWith } from "@pointwise/runtime";
import { storedTimeSchema } from "@pointwise/schemas";
import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { activeRulesIn, currencyProblem, pointsProblem } from "../adjustments";
import { recordAudit } from "../audit";
import { type ListRowError, parseList } from "../csv-list";
import type { Deps } from "../deps";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";
import { readCsvBody } from "./exclusions";

const ANSWER_ROW_ERRORS = 1000;
/** Most codes one upload may hold. */
const MAX_CODES = 50_000;
const positiveDecimal = z
  .string({ message: "must be a decimal string" })
  .regex(/^(0|[1-9][0-9]{0,29})(\.[0-9]{1,18})?$/, 'must be a decimal string such as "100" or "2.5"');
const count = (max: number) =>
  z
    .number({ message: `must be a whole number from 0 to ${max}` })
    .int(`must be a whole number from 0 to ${max}`)
    .min(0)
    .max(max);
const tokenAmount = z
  .string({ message: "must be a whole number of token base units" })
  .regex(/^[1-9][0-9]{0,77}$/, { message: "must be a whole number of token base units (> 0)", abort: true })
  // What one claim or burn voucher can carry on chain; a larger amount could never be paid out.
  .refine((v) => BigInt(v) <= MAX_UINT256, "must be at most 2^256 - 1 base units (a uint256)");
const editable = {
  name: z.string().trim().min(1, "must not be empty").max(120, "must be at most 120 characters"),
  description: z.string().max(2000, "must be at most 2000 characters"),
  price: positiveDecimal,
  stock: count(100_000_000).nullable(),
  per_user_limit: z
    .number({ message: "must be a whole number from 1 to 1000000" })
    .int("must be a whole number from 1 to 1000000")
    .min(1, "must be a whole number from 1 to 1000000")
    .max(1_000_000, "must be a whole number from 1 to 1000000")
    .nullable(),
  redeemable_from: storedTimeSchema.nullable(),
  redeemable_until: storedTimeSchema.nullable(),
};
const createBody = z.strictObject({
  ...editable,
  description: editable.description.optional(),
  stock: editable.stock.optional(),
  per_user_limit: editable.per_user_limit.optional(),
  redeemable_from: editable.redeemable_from.optional(),
  redeemable_until: editable.redeemable_until.optional(),
  kind: z.enum(["voucher", "token-claim", "manual"], { message: "must be voucher, token-claim or manual" }),
  currency: z.string().min(1, "must not be empty"),
  token_amount: tokenAmount.optional(),
  claim_method: z.enum(["merkle", "burn-voucher"], { message: "must be merkle or burn-voucher" }).optional(),
});
const updateBody = z
  .strictObject({
    name: editable.name.optional(),
    description: editable.description.optional(),
    price: editable.price.optional(),
    stock: editable.stock.optional(),
    per_user_limit: editable.per_user_limit.optional(),
    redeemable_from: editable.redeemable_from.optional(),
    redeemable_until: editable.redeemable_until.optional(),
    status: z.enum(["active", "archived"], { message: "must be active or archived" }).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: "must change at least one field" });
const codesJson = z.strictObject({ codes: z.array(z.string(), { message: "must be a list of codes" }).max(MAX_CODES, `must hold at most ${MAX_CODES} codes`) });
const importQuery = z.strictObject({ mode: z.enum(["all-or-nothing", "accept-valid"], { message: "must be all-or-nothing or accept-valid" }).optional() });

function windowProblem(from: string | Date | null | undefined, until: string | Date | null | undefined): void {
  if (from && until && new Date(until).getTime() <= new Date(from).getTime())
    throw new ValidationError("redeemable_until: must be later than redeemable_from", { field: "redeemable_until" });
}

/**
 * Refuses a price its currency cannot hold: not zero, and no more decimal places than the currency has
 * under the active rules; the rule an adjustment's points follow (pointsProblem), named `price`.
 */
function checkPrice(price: string, currency: string, rules: RuleVersion | null): void {
  const problem = pointsProblem(price, currency, rules, "price");
  if (problem) throw new ValidationError(problem, { field: "price" });
}

async function rewardIn(tx: Pick<Transaction, "query">, campaignId: string, rewardId: string, lock = false): Promise<RewardRow & { codes_available: number }> {
  const { rows } = await tx.query<RewardRow & { codes_available: number }>(
    `SELECT ${REWARD_COLUMNS} FROM reward w WHERE w.id = $1 AND w.campaign_id = $2${lock ? " FOR UPDATE" : ""}`,
    [rewardId, campaignId],
  );
  if (!rows[0]) throw new NotFoundError(`reward ${rewardId} not found`, { code: "reward-not-found" });
  return rows[0];
}

/** The uploaded codes with line numbers: a CSV with a `code` column, or JSON `{"codes": [...]}` (line = position + 1). */
async function readCodes(req: Request, res: Response): Promise<{ line: number; code: string }[]> {
  if (req.is("application/json")) return parseWith(codesJson, req.body).codes.map((code, i) => ({ line: i + 1, code }));
  const rows = parseList(await readCsvBody(req, res), ["code"], []);
  if (rows.length > MAX_CODES) throw new ValidationError(`at most ${MAX_CODES} codes per upload; split it`, { code: "too-many-rows" });
  return rows.map((r) => ({ line: r.line, code: r.values.code ?? "" }));
}

/** The catalogue of a campaign; codes are stored encrypted and never answered (see docs/rewards.md). */
export function rewardRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  router.get("/api/campaigns/:id/rewards", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const { rows } = await db.query<RewardRow & { codes_available: number }>(
      `SELECT ${REWARD_COLUMNS} FROM reward w WHERE w.campaign_id = $1 ORDER BY w.created_at, w.id`,
      [campaign.id],
    );
    res.json({ rewards: rows.map(rewardJson) });
  });

  router.post("/api/campaigns/:id/rewards", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const body = parseWith(createBody, req.body);
    const problem = currencyProblem(body.currency, campaign);
    if (problem) throw new ValidationError(problem, { field: "currency" });
    if ((body.kind === "token-claim") !== (body.token_amount !== undefined))
      throw new ValidationError("token_amount: required for token-claim rewards and refused for the others", { field: "token_amount" });
    if (body.kind !== "token-claim" && body.claim_method !== undefined)
      throw new ValidationError("claim_method: only token-claim rewards have one", { field: "claim_method" });
    windowProblem(body.redeemable_from, body.redeemable_until);
    const json = await db.transaction(async (tx) => {
      checkPrice(body.price, body.currency, await activeRulesIn(tx, campaign.id));
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO reward(campaign_id, name, description, kind, currency, price, stock, per_user_limit, redeemable_from, redeemable_until, token_amount, claim_method)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          campaign.id,
          body.name,
          body.description ?? "",
          body.kind,
          body.currency,
          body.price,
          body.stock ?? null,
          body.per_user_limit ?? null,
          body.redeemable_from ?? null,
          body.redeemable_until ?? null,
          body.token_amount ?? null,
          body.kind === "token-claim" ? (body.claim_method ?? "merkle") : null,
        ],
      );
      const created = rewardJson(await rewardIn(tx, campaign.id, rows[0]?.id as string));
      await recordAudit(tx, session, { campaignId: campaign.id, action: "reward.create", target: `reward:${created.id}`, after: created });
      return created;
    });
    res.status(201).json(json);
  });

  router.patch("/api/campaigns/:id/rewards/:rewardId", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = uuidParam(req.params.rewardId, "reward_id");
    const body = parseWith(updateBody, req.body);
    const json = await db.transaction(async (tx) => {
      const before = await rewardIn(tx, campaign.id, id, true);
      // Only a price sent is checked: a reward priced finer than a later version's places keeps its price (docs/rewards.md).
      if (body.price !== undefined) checkPrice(body.price, before.currency, await activeRulesIn(tx, campaign.id));
      windowProblem(
        body.redeemable_from === undefined ? before.redeemable_from : body.redeemable_from,
        body.redeemable_until === undefined ? before.redeemable_until : body.redeemable_until,
      );
      const set = (field: keyof typeof body) => body[field] !== undefined;
      await tx.query(
        `UPDATE reward SET name = coalesce($3, name), description = coalesce($4, description), price = coalesce($5::numeric, price),
                stock = CASE WHEN $6 THEN $7::int ELSE stock END, per_user_limit = CASE WHEN $8 THEN $9::int ELSE per_user_limit END,
                redeemable_from = CASE WHEN $10 THEN $11::timestamptz ELSE redeemable_from END,
                redeemable_until = CASE WHEN $12 THEN $13::timestamptz ELSE redeemable_until END,
                status = coalesce($14, status), updated_at = now()
          WHERE id = $1 AND campaign_id = $2`,
        [
          id,
          campaign.id,
          body.name ?? null,
          body.description ?? null,
          body.price ?? null,
          set("stock"),
          body.stock ?? null,
          set("per_user_limit"),
          body.per_user_limit ?? null,
          set("redeemable_from"),
          body.redeemable_from ?? null,
          set("redeemable_until"),
          body.redeemable_until ?? null,
          body.status ?? null,
        ],
      );
      const after = rewardJson(await rewardIn(tx, campaign.id, id));
      await recordAudit(tx, session, { campaignId: campaign.id, action: "reward.update", target: `reward:${id}`, before: rewardJson(before), after });
      return after;
    });
    res.json(json);
  });

  // Voucher codes: each checked (not empty, at most 200 characters, not twice in the upload, not already in the pool).
  router.post("/api/campaigns/:id/rewards/:rewardId/codes", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const id = uuidParam(req.params.rewardId, "reward_id");
    const query = parseWith(importQuery, req.query);
    const key = deps.env.VOUCHER_CODE_KEY;
    if (!key) throw new ConflictError("voucher-codes-unavailable", "set VOUCHER_CODE_KEY to store voucher codes (they are kept encrypted under it)");
    const codes = await readCodes(req, res);
    const mode = query.mode ?? "all-or-nothing";
    const outcome = await db.transaction(async (tx) => {
      const reward = await rewardIn(tx, campaign.id, id, true);
      if (reward.kind !== "voucher") throw new ConflictError("reward-not-voucher", `reward ${id} is ${reward.kind}; only voucher rewards hold codes`);
      const errors: ListRowError[] = [];
      const seen = new Set<string>();
      const valid: { hash: string; code: string }[] = [];
      const hashes = codes.map((c) => hashVoucherCode(c.code.trim()));
      const { rows: taken } = await tx.query<{ code_hash: string }>("SELECT code_hash FROM reward_code WHERE reward_id = $1 AND code_hash = ANY($2::text[])", [
        id,
        hashes,
      ]);
      const inPool = new Set(taken.map((t) => t.code_hash));
      codes.forEach((c, i) => {
        const code = c.code.trim();
        const hash = hashes[i] as string;
        const fail = (code: string, message: string) => errors.push({ line: c.line, code, message });
        if (code.length === 0) fail("validation-failed", "code: must not be empty");
        else if (code.length > 200) fail("validation-failed", "code: must be at most 200 characters");
        else if (seen.has(hash)) fail("duplicate-code", "code: appears earlier in this upload");
        else if (inPool.has(hash)) fail("duplicate-code", "code: is already in this reward's pool");
        else {
          seen.add(hash);
          valid.push({ hash, code });
        }
      });
      if (mode === "all-or-nothing" && errors.length > 0) return { status: "rejected" as const, errors, added: 0 };
      if (valid.length > 0) {
        await tx.query(
          `INSERT INTO reward_code(reward_id, code_hash, ciphertext)
           SELECT $1, d.code_hash, d.ciphertext FROM json_to_recordset($2::json) AS d(code_hash text, ciphertext text)`,
          [id, JSON.stringify(valid.map((v) => ({ code_hash: v.hash, ciphertext: encryptVoucherCode(key, v.code) })))],
        );
        // The trail says how many, never which: codes are secrets until handed out.
        await recordAudit(tx, session, {
          campaignId: campaign.id,
          action: "reward.codes-upload",
          target: `reward:${id}`,
          after: { added: valid.length, rows_invalid: errors.length, codes_available: reward.codes_available + valid.length },
        });
      }
      return { status: "done" as const, errors, added: valid.length };
    });
    res.json({
      status: outcome.status,
      rows_read: codes.length,
      rows_valid: codes.length - outcome.errors.length,
      rows_invalid: outcome.errors.length,
      added: outcome.added,
      invalid_rows: outcome.errors.slice(0, ANSWER_ROW_ERRORS),
      invalid_rows_truncated: outcome.errors.length > ANSWER_ROW_ERRORS,
    });
  });

  return router;
}
