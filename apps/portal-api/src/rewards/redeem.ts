// Redeeming a reward: the SQL shell around the pure decision (decideRedemption), in one transaction under the campaign's apply lock.
import { createHash, randomBytes } from "node:crypto";
import { decryptVoucherCode } from "@pointwise/auth";
import { MAX_UINT256, signBurnVoucher } from "@pointwise/claims";
import {
  activeRuleVersion,
  addSpent,
  excludedUsers,
  guardMovedPoints,
  lockSpendableRow,
  REDEMPTION_COLUMNS,
  type RedemptionRow,
  type RewardRow,
  redemptionJson,
  type Transaction,
} from "@pointwise/db";
import { ConflictError, NotFoundError, ValidationError } from "@pointwise/errors";
import { decideRedemption, parseRuleVersion, type RuleVersion, shownFactor, shownScore, storedSpend } from "@pointwise/rules";
import { EVM_ADDRESS_PATTERN, isZeroEvmAddress, normalizeAccountId, type ScoresChanged, scoresChangeOf } from "@pointwise/schemas";
import Decimal from "decimal.js";
import type { Deps } from "../deps";

/** Who redeems: the participant themself (portal token) or the campaign on their behalf (API key). */
export type RedemptionChannel = "portal" | "api-key";

/** One redemption request. */
export interface RedeemInput {
  campaignId: string;
  userId: string;
  rewardId: string;
  idempotencyKey: string;
  /** The EVM address a token-claim reward pays out to (required for those, refused for the others). */
  account: string | null;
  channel: RedemptionChannel;
}

/** The answer: the redemption (new, or the one this idempotency key made before) and its voucher code for the owner. */
export interface RedeemOutcome {
  created: boolean;
  redemption: ReturnType<typeof redemptionJson>;
}

/** The fingerprint of what was asked, so a reused idempotency key with another request is refused. */
function requestHash(input: RedeemInput): string {
  return createHash("sha256")
    .update(JSON.stringify([input.rewardId, input.account?.toLowerCase() ?? null]))
    .digest("hex");
}

async function activeRules(tx: Transaction, campaignId: string): Promise<RuleVersion | null> {
  const active = await activeRuleVersion(tx, campaignId);
  return active ? parseRuleVersion(active.document) : null;
}

async function existing(tx: Transaction, input: RedeemInput): Promise<RedemptionRow | null> {
  const { rows } = await tx.query<RedemptionRow>(
    `SELECT ${REDEMPTION_COLUMNS} FROM redemption r JOIN reward w ON w.id = r.reward_id
      WHERE r.campaign_id = $1 AND r.user_id = $2 AND r.idempotency_key = $3`,
    [input.campaignId, input.userId, input.idempotencyKey],
  );
  return rows[0] ?? null;
}

/** The code handed out with a voucher redemption, decrypted for its owner (null for other kinds). */
async function codeOf(deps: Pick<Deps, "env">, tx: Transaction, redemptionId: string): Promise<string | null> {
  const { rows } = await tx.query<{ ciphertext: string }>("SELECT ciphertext FROM reward_code WHERE redemption_id = $1", [redemptionId]);
  const stored = rows[0]?.ciphertext;
  if (stored === undefined) return null;
  const key = deps.env.VOUCHER_CODE_KEY;
  if (!key) throw new ConflictError("voucher-codes-unavailable", "this service has no VOUCHER_CODE_KEY, so it cannot show voucher codes");
  return decryptVoucherCode(key, stored);
}

/**
 * Signs the burn voucher of a burn-voucher redemption: the token amount for the account, a random
 * 128-bit nonce (the contract redeems each once) and an expiry CLAIMS_VOUCHER_TTL_S from now.
 */
async function burnVoucher(deps: Pick<Deps, "env">, account: string, amount: string, now: Date) {
  const { CLAIMS_VOUCHER_SIGNER_KEY: key, CLAIMS_CONTRACT: contract, CLAIMS_CHAIN_ID: chainId } = deps.env;
  if (!key || !contract || !chainId)
    throw new ConflictError(
      "claims-not-configured",
      "this service has no CLAIMS_VOUCHER_SIGNER_KEY, CLAIMS_CONTRACT and CLAIMS_CHAIN_ID, so it cannot sign burn vouchers",
    );
  const nonce = BigInt(`0x${randomBytes(16).toString("hex")}`);
  const expiry = BigInt(Math.floor(now.getTime() / 1000) + deps.env.CLAIMS_VOUCHER_TTL_S);
  const signature = await signBurnVoucher(
    key,
    { chainId: BigInt(chainId), verifyingContract: contract },
    { user: account, amount: BigInt(amount), nonce, expiry },
  );
  return { nonce, expiry, signature };
}

function checkAccount(reward: RewardRow, account: string | null): string | null {
  if (reward.kind === "token-claim") {
    if (account === null) throw new ValidationError("account: a token-claim reward needs the EVM address (0x...) that claims the tokens", { field: "account" });
    if (!EVM_ADDRESS_PATTERN.test(account)) throw new ValidationError("account: must be an EVM address (0x and 40 hex digits)", { field: "account" });
    if (isZeroEvmAddress(account))
      throw new ValidationError("account: must not be the zero address, which no wallet holds: tokens paid there are burned", {
        code: "invalid-account-id",
        field: "account",
      });
    // Mixed case carries an EIP-55 checksum: a wrong one is a mistyped address, and tokens paid there are lost for good.
    try {
      return normalizeAccountId("EVM_ADDRESS", account);
    } catch {
      throw new ValidationError("account: EIP-55 checksum mismatch: the address is likely mistyped; copy it again from your wallet", {
        code: "invalid-account-id",
        field: "account",
      });
    }
  }
  if (account !== null) throw new ValidationError(`account: only token-claim rewards take an account; this reward is ${reward.kind}`, { field: "account" });
  return null;
}

/**
 * An epoch's tree pays each account the sum of its claims as one uint256: a claim that would take an account's total
 * past 2^256 - 1 is refused, or the epoch could never close (and every later claim of the campaign would join it).
 */
async function checkEpochTotal(tx: Transaction, epochId: string, account: string, amount: string): Promise<void> {
  const { rows } = await tx.query<{ total: string }>(
    "SELECT COALESCE(sum(token_amount), 0)::text AS total FROM redemption WHERE claim_epoch_id = $1 AND account = $2 AND status = 'claimable'",
    [epochId, account],
  );
  if (BigInt(rows[0]?.total ?? "0") + BigInt(amount) > MAX_UINT256)
    throw new ConflictError(
      "claim-total-too-large",
      `the tokens ${account} is owed in the open claim epoch would pass 2^256 - 1 base units, more than one claim can pay; redeem again once the epoch is closed`,
    );
}

/**
 * On the user's behalf, tokens go only to one of the user's own EVM wallets: a campaign key (an indexer's, say)
 * must not be able to pay a user's points out to an address of its holder's choosing.
 */
async function checkOwnWallet(tx: Transaction, input: RedeemInput, account: string): Promise<void> {
  const { rows } = await tx.query("SELECT 1 FROM identity WHERE campaign_id = $1 AND user_id = $2 AND identity_type = 'EVM_ADDRESS' AND account_id = $3", [
    input.campaignId,
    input.userId,
    account,
  ]);
  if (rows.length === 0)
    throw new ValidationError("account: on the user's behalf, tokens go only to one of the user's linked EVM wallets", { field: "account" });
}

/** Decimal places of the stored balance as a refusal names it: the places a price may have. */
const EXACT_PLACES = 18;

/** A non-negative plain decimal cut (never rounded up) to EXACT_PLACES places. */
function cut(value: string): Decimal {
  return new Decimal(value).toDecimalPlaces(EXACT_PLACES, Decimal.ROUND_DOWN);
}

/**
 * The refusal when the shown balance covered the price but the stored one did not. The shown balance
 * is rounded half to even to the currency's places, so in a decaying currency it can read as the price
 * (129.79) while the balance is below it (129.789...): the message names the balance itself, cut to 18
 * places (cutting keeps it below the price), beside what is shown.
 */
function shortOfPrice(exact: string, shown: string, price: string, decimals: number | undefined): string {
  const balance = cut(exact);
  const places = decimals === undefined ? "" : `, rounded to ${decimals} decimal places`;
  if (balance.lessThan(cut(price))) {
    // Plain notation without trailing zeros ("129.788999415195641835", "0"), whatever the size.
    const text = balance.toFixed();
    return text === shown ? `balance ${text} is below the price ${price}` : `balance ${text} is below the price ${price} (shown as ${shown}${places})`;
  }
  // Decayed to now the two agree to 18 places; the stored spend (the price scaled at 18 places) is what did not fit.
  return `balance is below the price ${price} by less than 0.000000000000000001 once decayed to now (shown as ${shown}${places})`;
}

/**
 * Redeems a reward for a user exactly once per idempotency key. Under the campaign's apply lock (so a
 * recompute's switch sees the spend or runs before it, and redemptions of one campaign go one at a
 * time) it reads the reward, the user's balance and their count, asks decideRedemption, then spends
 * with a conditional UPDATE, takes one from stock, hands out a code or joins the open claim epoch, and
 * appends the redemption; once that commits, it announces the spend. A refusal throws ConflictError
 * with the decision's code.
 */
export async function redeem(deps: Pick<Deps, "db" | "env" | "bus" | "logger">, input: RedeemInput): Promise<RedeemOutcome> {
  const { outcome, change } = await spend(deps, input);
  // Tells readers the spend committed, so the balance read-api shows does not wait for its cache
  // window; best effort (while NATS is away it is dropped with a warning and the window is the bound).
  if (change) deps.bus.announceScoresChanged(change, deps.logger);
  return outcome;
}

/** The transaction of `redeem`: its outcome, and the score change to announce after the commit (null when nothing was spent). */
async function spend(deps: Pick<Deps, "db" | "env">, input: RedeemInput): Promise<{ outcome: RedeemOutcome; change: ScoresChanged | null }> {
  const hash = requestHash(input);
  return deps.db.transaction(async (tx) => {
    await tx.lockCampaign("apply", input.campaignId);
    const before = await existing(tx, input);
    if (before) {
      // A replay answers with the voucher code, so it must come through the channel that redeemed: an API key holder
      // who learnt a participant's key (admin lists show it) must not read the participant's code.
      if (before.channel !== input.channel)
        throw new ConflictError(
          "idempotency-key-reused",
          `Idempotency-Key ${input.idempotencyKey} was used for a redemption made ${before.channel === "portal" ? "by the participant" : "with the campaign's API key"}`,
        );
      if (before.request_hash !== hash)
        throw new ConflictError("idempotency-key-reused", `Idempotency-Key ${input.idempotencyKey} was used for another request (reward or account differ)`);
      return { outcome: { created: false, redemption: redemptionJson(before, await codeOf(deps, tx, before.id)) }, change: null };
    }
    const { rows: rewards } = await tx.query<RewardRow>("SELECT * FROM reward WHERE id = $1 AND campaign_id = $2 FOR UPDATE", [
      input.rewardId,
      input.campaignId,
    ]);
    const reward = rewards[0];
    if (!reward) throw new NotFoundError(`reward ${input.rewardId} not found`, { code: "reward-not-found" });
    const account = checkAccount(reward, input.account);
    if (account !== null && input.channel === "api-key") await checkOwnWallet(tx, input, account);
    if ((await excludedUsers(tx, input.campaignId, [input.userId])).has(input.userId))
      throw new ConflictError("user-excluded", "this user is excluded from the campaign and cannot redeem");

    let stock = reward.stock;
    if (reward.kind === "voucher") {
      const { rows } = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM reward_code WHERE reward_id = $1 AND redemption_id IS NULL", [reward.id]);
      const free = rows[0]?.n ?? 0;
      stock = stock === null ? free : Math.min(stock, free);
    }
    const { rows: counted } = await tx.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM redemption WHERE campaign_id = $1 AND user_id = $2 AND reward_id = $3 AND status <> 'rejected'",
      [input.campaignId, input.userId, reward.id],
    );
    const rules = await activeRules(tx, input.campaignId);
    // Points of an identity that moved away stay in this balance until the recompute switches in.
    if (rules) await guardMovedPoints(tx, input.campaignId, input.userId, rules.version);
    const now = new Date();
    const row = await lockSpendableRow(tx, input.campaignId, input.userId, reward.currency);
    const config = rules?.currencies[reward.currency];
    // The balance as the user is shown it now (decayed, at the currency's places); a shortfall shows as 0.
    const stored = row && !row.storedBalance.startsWith("-") ? row.storedBalance : "0";
    const factor = shownFactor(now, config?.decay);
    const balance = shownScore({ score: stored, referral_score: "0" }, factor, config ? config.decimals : null).total;
    const decision = decideRedemption(
      {
        status: reward.status,
        price: reward.price,
        stock,
        perUserLimit: reward.per_user_limit,
        redeemableFrom: reward.redeemable_from,
        redeemableUntil: reward.redeemable_until,
      },
      { balance, redeemedByUser: counted[0]?.n ?? 0, now },
    );
    if (!decision.ok) throw new ConflictError(decision.code, decision.message);
    // The stored spend may not exceed the stored balance either (the shown one is rounded to the currency's places).
    if (!(await addSpent(tx, input.campaignId, input.userId, reward.currency, storedSpend(rules, reward.currency, reward.price, now))))
      throw new ConflictError(
        "insufficient-balance",
        shortOfPrice(shownScore({ score: stored, referral_score: "0" }, factor, null).total, balance, reward.price, config?.decimals),
      );
    if (reward.stock !== null) await tx.query("UPDATE reward SET stock = stock - 1 WHERE id = $1 AND stock > 0", [reward.id]);

    const burn = reward.claim_method === "burn-voucher" ? await burnVoucher(deps, account as string, reward.token_amount as string, now) : null;
    let epochId: string | null = null;
    if (reward.kind === "token-claim" && !burn) {
      await tx.query("INSERT INTO claim_epoch(campaign_id) VALUES ($1) ON CONFLICT (campaign_id) WHERE status = 'open' DO NOTHING", [input.campaignId]);
      const { rows } = await tx.query<{ id: string }>("SELECT id::text FROM claim_epoch WHERE campaign_id = $1 AND status = 'open'", [input.campaignId]);
      epochId = rows[0]?.id ?? null;
      await checkEpochTotal(tx, epochId as string, account as string, reward.token_amount as string);
    }
    const status = reward.kind === "voucher" || burn ? "delivered" : reward.kind === "manual" ? "pending" : "claimable";
    const { rows: inserted } = await tx.query<{ id: string }>(
      `INSERT INTO redemption(campaign_id, reward_id, user_id, idempotency_key, request_hash, channel, kind, currency, price,
                              balance_before, balance_after, token_amount, account, claim_epoch_id, status, status_at, created_at,
                              voucher_nonce, voucher_expiry, voucher_signature)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17, $18, $19) RETURNING id`,
      [
        input.campaignId,
        reward.id,
        input.userId,
        input.idempotencyKey,
        hash,
        input.channel,
        reward.kind,
        reward.currency,
        reward.price,
        decision.balanceBefore,
        decision.balanceAfter,
        reward.token_amount,
        account,
        epochId,
        status,
        now,
        burn?.nonce.toString() ?? null,
        burn?.expiry.toString() ?? null,
        burn?.signature ?? null,
      ],
    );
    const id = inserted[0]?.id as string;
    if (reward.kind === "voucher") {
      const { rowCount } = await tx.query(
        `UPDATE reward_code SET redemption_id = $2, handed_out_at = $3
          WHERE id = (SELECT id FROM reward_code WHERE reward_id = $1 AND redemption_id IS NULL ORDER BY id LIMIT 1)`,
        [reward.id, id, now],
      );
      if (rowCount !== 1) throw new ConflictError("out-of-stock", "reward is out of stock");
    }
    const created = await existing(tx, input);
    // Score rows exist only under an active version (none is ever deactivated): without one nothing served changed.
    const change = rules
      ? scoresChangeOf({
          campaignId: input.campaignId,
          reason: "redemptions",
          ruleVersion: rules.version,
          rows: [{ userId: input.userId, currency: reward.currency }],
          lastSeq: null,
          now,
        })
      : null;
    return { outcome: { created: true, redemption: redemptionJson(created as RedemptionRow, await codeOf(deps, tx, id)) }, change };
  });
}
