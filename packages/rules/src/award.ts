// Paying an award: rule and currency caps, budget, lifetime and tier, ledger entry and referrer's share.
import { FIXED_ZERO, type Fixed, fx } from "@pointwise/fixed";
import type { CompiledCap, CompiledCurrency, CompiledRule, Factor } from "./compile";
import { scaleFixed } from "./decay";
import type { DeltaBook } from "./scores";
import type { CampaignState, UserState } from "./state";
import { periodKey } from "./time";
import type { AppliedMultiplier, LedgerEntry, RawEvent } from "./types";

/** Reads an own property of a record, so keys such as "constructor" never reach the prototype. */
export function own<T>(rec: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** The highest tier whose minLifetime the lifetime total has reached, or null. */
export function tierFor(currency: CompiledCurrency, lifetime: Fixed): string | null {
  let tier: string | null = null;
  for (const t of currency.tiers) if (lifetime.gte(t.min)) tier = t.key;
  return tier;
}

/** The user's current tier in a currency (a fresh user has the tier a lifetime of 0 reaches). */
export function tierIn(state: UserState, currency: CompiledCurrency): string | null {
  const p = own(state.currencies, currency.key);
  return p ? p.tier : currency.startTier;
}

/** What one engine call carries from event to event besides the per-user states. */
export interface Run {
  ruleVersion: number;
  campaign: CampaignState | null;
  entries: LedgerEntry[];
  book: DeltaBook;
}

/** One event being scored, with what every award of it shares worked out once. */
export interface Scoring {
  ev: RawEvent;
  ms: number;
  /** occurredAt in UTC with milliseconds, the form state, periods and score rows use. */
  iso: string;
  amount: Fixed;
}

/** One award the engine has decided on, before caps. */
export interface Award {
  kind: "base" | "milestone";
  at: Scoring;
  cr: CompiledRule;
  milestoneId: string | null;
  basePoints: Fixed;
  /** The factors of `multipliers`, in the same order. */
  factors: Factor[];
  multipliers: AppliedMultiplier[];
}

function periodOf(cap: CompiledCap, at: Scoring): string {
  // The same keys as periodKey, cut from the ISO string the event already has where possible.
  switch (cap.period) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: without this case periodKey gives the same day key
    case "day":
      return at.iso.slice(0, 10);
    // Stryker disable next-line ConditionalExpression,StringLiteral: without this case periodKey gives the same month key
    case "month":
      return at.iso.slice(0, 7);
    default:
      return periodKey(cap.period, at.ms);
  }
}

/** How much of a cap the user has used in the period an award falls in. */
interface Usage {
  cap: CompiledCap;
  period: string;
  used: Fixed;
}

function usageOf(state: UserState, cap: CompiledCap, at: Scoring): Usage {
  // Every cap is charged to the period of the event's own time, whatever was applied before it:
  // a backfilled event of last week uses last week's room, not today's.
  const period = periodOf(cap, at);
  const used = own(own(state.caps, cap.key), period);
  return { cap, period, used: used === undefined ? FIXED_ZERO : fx(used) };
}

function recordUsage(state: UserState, u: Usage, paid: Fixed): void {
  let periods = own(state.caps, u.cap.key);
  if (periods === undefined) {
    periods = {};
    state.caps[u.cap.key] = periods;
  }
  periods[u.period] = u.used.add(paid).toString();
}

function budgetLeft(run: Run, currency: CompiledCurrency): Fixed | undefined {
  if (!currency.budget || !run.campaign) return undefined;
  const used = own(run.campaign.budgetUsed, currency.key);
  const left = used === undefined ? currency.budget : currency.budget.sub(fx(used));
  return left.isNegative() ? FIXED_ZERO : left;
}

function consumeBudget(run: Run, currency: CompiledCurrency, paid: Fixed): void {
  if (!currency.budget || !run.campaign || paid.isZero()) return;
  const used = own(run.campaign.budgetUsed, currency.key);
  run.campaign.budgetUsed[currency.key] = (used === undefined ? paid : fx(used).add(paid)).toString();
}

function limit(points: Fixed, left: Fixed, key: string, cappedBy: string[]): Fixed {
  if (left.gte(points)) return points;
  cappedBy.push(key);
  return left.isNegative() ? FIXED_ZERO : left;
}

function entryKey(a: Award, referral: boolean): string {
  const own = a.milestoneId === null ? `${a.at.ev.id}/${a.cr.rule.id}/base` : `${a.at.ev.id}/${a.cr.rule.id}/milestone/${a.milestoneId}`;
  return referral ? `${own}/referral` : own;
}

/**
 * Pays an award to the event's user: applies the rule's caps, the currency's caps and the budget
 * (in that order), records usage, lifetime, tier, ledger entry and score delta, then pays the referrer.
 */
export function payAward(run: Run, state: UserState, a: Award): void {
  const currency = a.cr.currency;
  let product = a.basePoints;
  for (const f of a.factors) product = product.mul(f.value);
  const points = product.floorTo(currency.decimals);
  if (points.isZero()) return;
  const cappedBy: string[] = [];
  const caps = a.cr.caps;
  const usages: Usage[] = [];
  for (const cap of caps) usages.push(usageOf(state, cap, a.at));
  let paid = points;
  for (const u of usages) paid = limit(paid, u.cap.limit.sub(u.used), u.cap.key, cappedBy);
  const left = budgetLeft(run, currency);
  if (left !== undefined) paid = limit(paid, left, currency.budgetKey, cappedBy);
  // A cap limit may carry more decimals than the currency; never pay a fraction the currency lacks.
  paid = paid.floorTo(currency.decimals);

  let scaled = FIXED_ZERO;
  if (!paid.isZero()) {
    for (const u of usages) recordUsage(state, u, paid);
    consumeBudget(run, currency, paid);
    const before = own(state.currencies, currency.key);
    const lifetime = before ? fx(before.lifetime).add(paid) : paid;
    const tier = tierFor(currency, lifetime);
    state.currencies[currency.key] = { lifetime: lifetime.toString(), tier };
    scaled = scaleFixed(paid, a.at.ms, currency.decay);
    run.book.own(a.at.ev.userId, currency.key, paid, scaled, tier, a.at.iso);
  }
  const paidText = paid.toString();
  run.entries.push({
    key: entryKey(a, false),
    eventId: a.at.ev.id,
    seq: a.at.ev.seq,
    userId: a.at.ev.userId,
    sourceUserId: a.at.ev.userId,
    ruleId: a.cr.rule.id,
    ruleVersion: run.ruleVersion,
    milestoneId: a.milestoneId,
    kind: a.kind,
    currency: currency.key,
    basePoints: a.basePoints.toString(),
    multipliers: a.multipliers,
    points: points.toString(),
    capped: points.sub(paid).toString(),
    cappedBy,
    paid: paidText,
    scaledPaid: scaled === paid ? paidText : scaled.toString(),
    occurredAt: a.at.ev.occurredAt,
  });
  if (!paid.isZero()) payReferral(run, a, paid, paidText);
}

function payReferral(run: Run, a: Award, refereePaid: Fixed, refereePaidText: string): void {
  const currency = a.cr.currency;
  const share = currency.referralShare;
  const referrerId = a.at.ev.referrerId;
  if (!share || !referrerId || referrerId === a.at.ev.userId) return;
  const points = refereePaid.mul(share.value).floorTo(currency.decimals);
  if (points.isZero()) return;
  const cappedBy: string[] = [];
  const left = budgetLeft(run, currency);
  const paid = left === undefined ? points : limit(points, left, currency.budgetKey, cappedBy).floorTo(currency.decimals);
  consumeBudget(run, currency, paid);
  const scaled = scaleFixed(paid, a.at.ms, currency.decay);
  if (!paid.isZero()) run.book.referral(referrerId, currency.key, scaled, a.at.iso);
  const paidText = paid.toString();
  run.entries.push({
    key: entryKey(a, true),
    eventId: a.at.ev.id,
    seq: a.at.ev.seq,
    userId: referrerId,
    sourceUserId: a.at.ev.userId,
    ruleId: a.cr.rule.id,
    ruleVersion: run.ruleVersion,
    milestoneId: a.milestoneId,
    kind: "referral",
    currency: currency.key,
    basePoints: refereePaidText,
    multipliers: [{ kind: "referralShare", factor: share.text, source: currency.referralSource }],
    points: points.toString(),
    capped: points.sub(paid).toString(),
    cappedBy,
    paid: paidText,
    scaledPaid: scaled === paid ? paidText : scaled.toString(),
    occurredAt: a.at.ev.occurredAt,
  });
}
