// The pure decision of a reward redemption (can this user spend this much on this reward now?) and what redemptions take from score rows.
import { storedAdjustment } from "./adjustments";
import { D, type Dec } from "./decimal";
import type { RuleVersion } from "./schema";

/** What a reward's terms say, as the decision reads them. */
export interface RewardTerms {
  status: "active" | "archived";
  /** Decimal text, > 0. */
  price: string;
  /** Left in stock; null: unlimited. */
  stock: number | null;
  /** Redemptions one user may hold (rejected ones do not count); null: no limit. */
  perUserLimit: number | null;
  redeemableFrom: Date | null;
  /** Exclusive end of the window. */
  redeemableUntil: Date | null;
}

/** The user's side at the moment of the decision. */
export interface RedemptionContext {
  /** The user's balance in the reward's currency as shown at `now` (decimal text, >= 0). */
  balance: string;
  /** The user's redemptions of this reward that count against its limit. */
  redeemedByUser: number;
  now: Date;
}

/** Why a redemption is refused; each is the stable error code of the refusal. */
export type RedemptionRefusal = "reward-not-redeemable" | "out-of-stock" | "reward-limit-reached" | "insufficient-balance";

/** The outcome: the balance after spending, or a refusal with its code and a message naming the rule. */
export type RedemptionDecision = { ok: true; balanceBefore: string; balanceAfter: string } | { ok: false; code: RedemptionRefusal; message: string };

/**
 * Decides a redemption: the reward must be active and inside its window, in stock, under the user's
 * limit, and the balance must cover the price. Checks run in that order, so the refusal names the
 * first rule that fails; the balance after is exact decimal arithmetic and never below zero.
 */
export function decideRedemption(reward: RewardTerms, ctx: RedemptionContext): RedemptionDecision {
  const at = ctx.now.getTime();
  if (reward.status !== "active") return { ok: false, code: "reward-not-redeemable", message: "reward is archived" };
  if (reward.redeemableFrom && at < reward.redeemableFrom.getTime())
    return { ok: false, code: "reward-not-redeemable", message: `reward can be redeemed from ${reward.redeemableFrom.toISOString()}` };
  if (reward.redeemableUntil && at >= reward.redeemableUntil.getTime())
    return { ok: false, code: "reward-not-redeemable", message: `reward could be redeemed until ${reward.redeemableUntil.toISOString()}` };
  if (reward.stock !== null && reward.stock <= 0) return { ok: false, code: "out-of-stock", message: "reward is out of stock" };
  if (reward.perUserLimit !== null && ctx.redeemedByUser >= reward.perUserLimit)
    return { ok: false, code: "reward-limit-reached", message: `reward may be redeemed at most ${reward.perUserLimit} time(s) per user` };
  const balance = new D(ctx.balance);
  const price = new D(reward.price);
  if (balance.lessThan(price))
    return { ok: false, code: "insufficient-balance", message: `balance ${balance.toFixed()} is below the price ${price.toFixed()}` };
  return { ok: true, balanceBefore: balance.toFixed(), balanceAfter: balance.minus(price).toFixed() };
}

/**
 * The stored (decay-scaled) amount one redemption adds to its score row's `spent`: the price scaled by
 * its own time, exactly like a deduction made then, so the spend decays along with the balance it came from.
 */
export function storedSpend(rules: RuleVersion | null, currency: string, price: string, at: Date): string {
  return storedAdjustment(rules, currency, price, at).toFixed();
}

/** One counted redemption as the score switch reads it back. */
export interface Spend {
  userId: string;
  currency: string;
  /** Decimal text, > 0. */
  price: string;
  createdAt: Date;
}

/** What a set of redemptions puts in one score row's `spent` (stored form). */
export interface SpendDelta {
  userId: string;
  currency: string;
  spent: string;
}

/** Sums redemptions per user and currency into `spent` values under a rule version (its decay settings). */
export function spendDeltas(rules: RuleVersion | null, spends: readonly Spend[]): SpendDelta[] {
  const rows = new Map<string, { userId: string; currency: string; spent: Dec }>();
  for (const s of spends) {
    const key = `${s.userId}\u0000${s.currency}`;
    const row = rows.get(key) ?? { userId: s.userId, currency: s.currency, spent: new D(0) };
    row.spent = row.spent.add(storedAdjustment(rules, s.currency, s.price, s.createdAt));
    rows.set(key, row);
  }
  return [...rows.values()].map((r) => ({ userId: r.userId, currency: r.currency, spent: r.spent.toFixed() }));
}
