// Reference engine (decimal.js) for the differential test: paying an award through caps, budget and referrals.
import type { AppliedMultiplier, LedgerEntry, RawEvent } from "../../src/types";
import type { CompiledCap, CompiledCurrency, CompiledRule } from "./compile";
import { scalePoints } from "./decay";
import { type Dec, dec, floorTo, str, ZERO } from "./decimal";
import type { DeltaBook } from "./scores";
import type { CampaignState, UserState } from "./state";
import { periodKey } from "./time";

/** Reads an own property of a record, so keys such as "constructor" never reach the prototype. */
export function own<T>(rec: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** The highest tier whose minLifetime the lifetime total has reached, or null. */
export function tierFor(currency: CompiledCurrency, lifetime: Dec): string | null {
  let tier: string | null = null;
  for (const t of currency.tiers) if (lifetime.gte(t.min)) tier = t.key;
  return tier;
}

/** The user's current lifetime total and tier in a currency (a fresh user starts at 0 and the tier 0 reaches). */
export function progressIn(state: UserState, currency: CompiledCurrency): { lifetime: Dec; tier: string | null } {
  const p = own(state.currencies, currency.key);
  if (p) return { lifetime: dec(p.lifetime), tier: p.tier };
  return { lifetime: ZERO, tier: tierFor(currency, ZERO) };
}

/** What one engine call carries from event to event besides the per-user states. */
export interface Run {
  ruleVersion: number;
  campaign: CampaignState | null;
  entries: LedgerEntry[];
  book: DeltaBook;
}

/** One award the engine has decided on, before caps. */
export interface Award {
  kind: "base" | "milestone";
  ev: RawEvent;
  ms: number;
  cr: CompiledRule;
  milestoneId: string | null;
  basePoints: Dec;
  multipliers: AppliedMultiplier[];
}

interface Usage {
  cap: CompiledCap;
  period: string;
  used: Dec;
}

function usageOf(state: UserState, cap: CompiledCap, ms: number): Usage {
  const eventPeriod = periodKey(cap.period, ms);
  const prev = own(state.caps, cap.key);
  // A late event (occurredAt before the period already reached) counts against the current
  // period instead of reopening an old one, so a cap can never be paid twice over.
  if (prev && prev.period >= eventPeriod) return { cap, period: prev.period, used: dec(prev.used) };
  return { cap, period: eventPeriod, used: ZERO };
}

function budgetLeft(run: Run, currency: CompiledCurrency): Dec | undefined {
  if (!currency.budget || !run.campaign) return undefined;
  const used = own(run.campaign.budgetUsed, currency.key);
  const left = currency.budget.sub(used ?? "0");
  return left.isNegative() ? ZERO : left;
}

function consumeBudget(run: Run, currency: CompiledCurrency, paid: Dec): void {
  if (!currency.budget || !run.campaign || paid.isZero()) return;
  const used = own(run.campaign.budgetUsed, currency.key) ?? "0";
  run.campaign.budgetUsed[currency.key] = str(dec(used).add(paid));
}

function limit(points: Dec, left: Dec, key: string, cappedBy: string[]): Dec {
  if (left.gte(points)) return points;
  cappedBy.push(key);
  return left.isNegative() ? ZERO : left;
}

function entryKey(a: { ev: RawEvent; cr: CompiledRule; milestoneId: string | null }, referral: boolean): string {
  const own = a.milestoneId === null ? `${a.ev.id}/${a.cr.rule.id}/base` : `${a.ev.id}/${a.cr.rule.id}/milestone/${a.milestoneId}`;
  return referral ? `${own}/referral` : own;
}

/**
 * Pays an award to the event's user: applies the rule's caps, the currency's caps and the budget
 * (in that order), records usage, lifetime, tier, ledger entry and score delta, then pays the referrer.
 */
export function payAward(run: Run, state: UserState, a: Award): void {
  const currency = a.cr.currency;
  const product = a.multipliers.reduce((acc, m) => acc.mul(m.factor), a.basePoints);
  const points = floorTo(product, currency.decimals);
  if (points.isZero()) return;
  const cappedBy: string[] = [];
  const usages = [...a.cr.caps, ...currency.caps].map((cap) => usageOf(state, cap, a.ms));
  let paid = points;
  for (const u of usages) paid = limit(paid, u.cap.limit.sub(u.used), u.cap.key, cappedBy);
  const left = budgetLeft(run, currency);
  if (left !== undefined) paid = limit(paid, left, `budget:${currency.key}`, cappedBy);
  // A cap limit may carry more decimals than the currency; never pay a fraction the currency lacks.
  paid = floorTo(paid, currency.decimals);

  let scaled = ZERO;
  if (!paid.isZero()) {
    for (const u of usages) state.caps[u.cap.key] = { period: u.period, used: str(u.used.add(paid)) };
    consumeBudget(run, currency, paid);
    const lifetime = progressIn(state, currency).lifetime.add(paid);
    const tier = tierFor(currency, lifetime);
    state.currencies[currency.key] = { lifetime: str(lifetime), tier };
    scaled = scalePoints(paid, a.ms, currency.decay);
    run.book.own(a.ev.userId, currency.key, paid, scaled, tier, new Date(a.ms).toISOString());
  }
  run.entries.push({
    key: entryKey(a, false),
    eventId: a.ev.id,
    seq: a.ev.seq,
    userId: a.ev.userId,
    sourceUserId: a.ev.userId,
    ruleId: a.cr.rule.id,
    ruleVersion: run.ruleVersion,
    milestoneId: a.milestoneId,
    kind: a.kind,
    currency: currency.key,
    basePoints: str(a.basePoints),
    multipliers: a.multipliers,
    points: str(points),
    capped: str(points.sub(paid)),
    cappedBy,
    paid: str(paid),
    scaledPaid: str(scaled),
    occurredAt: a.ev.occurredAt,
  });
  if (!paid.isZero()) payReferral(run, a, paid);
}

function payReferral(run: Run, a: Award, refereePaid: Dec): void {
  const currency = a.cr.currency;
  const share = currency.referralShare;
  const referrerId = a.ev.referrerId;
  if (!share || !referrerId || referrerId === a.ev.userId) return;
  const points = floorTo(refereePaid.mul(share), currency.decimals);
  if (points.isZero()) return;
  const cappedBy: string[] = [];
  const left = budgetLeft(run, currency);
  const paid = left === undefined ? points : floorTo(limit(points, left, `budget:${currency.key}`, cappedBy), currency.decimals);
  consumeBudget(run, currency, paid);
  const scaled = scalePoints(paid, a.ms, currency.decay);
  if (!paid.isZero()) run.book.referral(referrerId, currency.key, scaled, new Date(a.ms).toISOString());
  run.entries.push({
    key: entryKey(a, true),
    eventId: a.ev.id,
    seq: a.ev.seq,
    userId: referrerId,
    sourceUserId: a.ev.userId,
    ruleId: a.cr.rule.id,
    ruleVersion: run.ruleVersion,
    milestoneId: a.milestoneId,
    kind: "referral",
    currency: currency.key,
    basePoints: str(refereePaid),
    multipliers: [{ kind: "referralShare", factor: str(share), source: `referral.shares.${currency.key}` }],
    points: str(points),
    capped: str(points.sub(paid)),
    cappedBy,
    paid: str(paid),
    scaledPaid: str(scaled),
    occurredAt: a.ev.occurredAt,
  });
}
