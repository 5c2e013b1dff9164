// Rewards and redemptions as read from their tables and as both portal-api and admin-api put them on the wire.
import { trimDecimal } from "@pointwise/fixed";

/** A reward row (NUMERIC as text). */
export interface RewardRow {
  id: string;
  campaign_id: string;
  name: string;
  description: string;
  kind: "voucher" | "token-claim" | "manual";
  currency: string;
  price: string;
  stock: number | null;
  per_user_limit: number | null;
  redeemable_from: Date | null;
  redeemable_until: Date | null;
  token_amount: string | null;
  claim_method: "merkle" | "burn-voucher" | null;
  status: "active" | "archived";
  created_at: Date;
  updated_at: Date;
}

/** The columns of RewardRow from `reward w`, NUMERIC as text, with the count of free voucher codes. */
export const REWARD_COLUMNS = `w.id, w.campaign_id, w.name, w.description, w.kind, w.currency, w.price::text, w.stock, w.per_user_limit,
  w.redeemable_from, w.redeemable_until, w.token_amount::text, w.claim_method, w.status, w.created_at, w.updated_at,
  (SELECT count(*)::int FROM reward_code c WHERE c.reward_id = w.id AND c.redemption_id IS NULL) AS codes_available`;

/** A reward on the wire. */
export function rewardJson(r: RewardRow & { codes_available?: number }) {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    name: r.name,
    description: r.description,
    kind: r.kind,
    currency: r.currency,
    price: trimDecimal(r.price),
    stock: r.stock,
    per_user_limit: r.per_user_limit,
    redeemable_from: r.redeemable_from?.toISOString() ?? null,
    redeemable_until: r.redeemable_until?.toISOString() ?? null,
    token_amount: r.token_amount === null ? null : trimDecimal(r.token_amount),
    claim_method: r.claim_method,
    status: r.status,
    codes_available: r.kind === "voucher" ? (r.codes_available ?? 0) : null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** A redemption row with its reward's name. */
export interface RedemptionRow {
  id: string;
  campaign_id: string;
  reward_id: string;
  reward_name: string;
  user_id: string;
  idempotency_key: string;
  request_hash: string;
  channel: string;
  kind: string;
  currency: string;
  price: string;
  balance_before: string;
  balance_after: string;
  token_amount: string | null;
  account: string | null;
  claim_epoch_id: string | null;
  voucher_nonce: string | null;
  voucher_expiry: string | null;
  voucher_signature: string | null;
  status: string;
  status_note: string | null;
  status_at: Date;
  created_at: Date;
}

/** The columns of RedemptionRow from `redemption r JOIN reward w`. */
export const REDEMPTION_COLUMNS = `r.id, r.campaign_id, r.reward_id, w.name AS reward_name, r.user_id, r.idempotency_key, r.request_hash, r.channel, r.kind,
  r.currency, r.price::text, r.balance_before::text, r.balance_after::text, r.token_amount::text, r.account, r.claim_epoch_id::text,
  r.voucher_nonce::text, r.voucher_expiry::text, r.voucher_signature, r.status, r.status_note, r.status_at, r.created_at`;

/**
 * A redemption on the wire, with its lineage (reward, price, currency, balance before and after). `code`
 * is the voucher code, given only to its owner; null elsewhere and for other kinds. `burn_voucher` is the
 * signed voucher of a burn-voucher redemption (the claim contract's address and chain id are added by the caller).
 */
export function redemptionJson(r: RedemptionRow, code: string | null = null) {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    user_id: r.user_id,
    reward_id: r.reward_id,
    reward_name: r.reward_name,
    kind: r.kind,
    idempotency_key: r.idempotency_key,
    channel: r.channel,
    currency: r.currency,
    price: trimDecimal(r.price),
    balance_before: trimDecimal(r.balance_before),
    balance_after: trimDecimal(r.balance_after),
    token_amount: r.token_amount === null ? null : trimDecimal(r.token_amount),
    account: r.account,
    claim_epoch: r.claim_epoch_id,
    burn_voucher:
      r.voucher_signature === null
        ? null
        : { user: r.account, amount: r.token_amount, nonce: r.voucher_nonce, expiry: r.voucher_expiry, signature: r.voucher_signature },
    status: r.status,
    status_note: r.status_note,
    status_at: r.status_at.toISOString(),
    created_at: r.created_at.toISOString(),
    code,
  };
}
