// Compiles a rule version once into parsed caps, tiers, decay, multipliers and milestones the engine runs on.
import { FIXED_ZERO, type Fixed, fx } from "@pointwise/fixed";
import type { Cap, CapPeriod, DecayConfig, Multiplier, RecurringWindow, Rule, RuleVersion } from "./schema";
import { parseRuleVersion } from "./schema";
import { timeOf } from "./time";

/** A cap ready to check: its state key, period and limit. */
export interface CompiledCap {
  key: string;
  period: CapPeriod;
  limit: Fixed;
}

/** A configured factor parsed once: its exact value and the canonical string the ledger shows. */
export interface Factor {
  value: Fixed;
  text: string;
}

/** A tier with its threshold and level multiplier parsed. */
export interface CompiledTier {
  key: string;
  min: Fixed;
  multiplier: Factor | undefined;
  /** `currencies.<key>.tiers.<tier>`, the lineage source of the level multiplier. */
  source: string;
}

/** A decay setting with its epoch and half-life as integers. */
export interface CompiledDecay {
  config: DecayConfig;
  epochMs: bigint;
  halfLifeMs: bigint;
}

/** A currency with everything the engine needs to pay into it. */
export interface CompiledCurrency {
  key: string;
  decimals: number;
  decay: CompiledDecay | undefined;
  tiers: CompiledTier[];
  /** The tier of a lifetime of 0 (what a user without progress in the currency has). */
  startTier: string | null;
  caps: CompiledCap[];
  budget: Fixed | undefined;
  budgetKey: string;
  referralShare: Factor | undefined;
  referralSource: string;
}

/** A rule multiplier with its times, factors and lineage source parsed once. */
export type CompiledMultiplier =
  | { kind: "constant"; source: string; factor: Factor }
  | { kind: "window"; source: string; factor: Factor; from: number; until: number }
  | { kind: "recurring"; source: string; factor: Factor; window: RecurringWindow }
  | { kind: "tier" | "identityType"; source: string; factors: Map<string, Factor> };

/** A milestone with its level and bonus parsed. */
export interface CompiledMilestone {
  id: string;
  metric: "amount" | "count";
  level: Fixed;
  points: Fixed;
}

/** A rule with its times and numbers parsed once per rule version. */
export interface CompiledRule {
  rule: Rule;
  activeFrom: number | undefined;
  activeUntil: number | undefined;
  minAmount: Fixed | undefined;
  base: { perUnit: boolean; points: Fixed } | undefined;
  cooldownMs: number | undefined;
  multipliers: CompiledMultiplier[];
  milestones: CompiledMilestone[];
  /** The rule's caps, then its currency's caps: the order limits apply in. */
  caps: CompiledCap[];
  currency: CompiledCurrency;
}

/** A validated rule version indexed for scoring. */
export interface Compiled {
  rv: RuleVersion;
  currencies: Map<string, CompiledCurrency>;
  byEvent: Map<string, CompiledRule[]>;
  globalOrder: boolean;
}

const cache = new WeakMap<object, Compiled>();

function factor(text: string): Factor {
  const value = fx(text);
  return { value, text: value.toString() };
}

function caps(list: readonly Cap[] | undefined, prefix: string): CompiledCap[] {
  return (list ?? []).map((c) => ({ key: `${prefix}:${c.period}`, period: c.period, limit: fx(c.limit) }));
}

function factors(map: Readonly<Record<string, string | undefined>>): Map<string, Factor> {
  const out = new Map<string, Factor>();
  // Stryker disable next-line ConditionalExpression: equivalent, parsing refuses a factor given as undefined; the check is for the partial record's type
  for (const [k, v] of Object.entries(map)) if (v !== undefined) out.set(k, factor(v));
  return out;
}

function multiplier(m: Multiplier, source: string): CompiledMultiplier {
  switch (m.kind) {
    case "constant":
      return { kind: m.kind, source, factor: factor(m.factor) };
    case "window":
      return { kind: m.kind, source, factor: factor(m.factor), from: timeOf(m.from), until: timeOf(m.until) };
    case "recurring":
      return { kind: m.kind, source, factor: factor(m.factor), window: m.window };
    case "tier":
    case "identityType":
      return { kind: m.kind, source, factors: factors(m.factors) };
  }
}

function build(rv: RuleVersion): Compiled {
  const currencies = new Map<string, CompiledCurrency>();
  for (const [key, cur] of Object.entries(rv.currencies)) {
    const share = rv.referral?.shares && Object.hasOwn(rv.referral.shares, key) ? rv.referral.shares[key] : undefined;
    const tiers = (cur.tiers ?? []).map((t) => ({
      key: t.key,
      min: fx(t.minLifetime),
      multiplier: t.multiplier === undefined ? undefined : factor(t.multiplier),
      source: `currencies.${key}.tiers.${t.key}`,
    }));
    let startTier: string | null = null;
    for (const t of tiers) if (FIXED_ZERO.gte(t.min)) startTier = t.key;
    currencies.set(key, {
      key,
      decimals: cur.decimals,
      decay: cur.decay && { config: cur.decay, epochMs: BigInt(timeOf(cur.decay.epoch)), halfLifeMs: BigInt(cur.decay.halfLifeSeconds) * 1000n },
      tiers,
      startTier,
      caps: caps(cur.caps, `currency:${key}`),
      budget: cur.budget === undefined ? undefined : fx(cur.budget),
      budgetKey: `budget:${key}`,
      referralShare: share === undefined ? undefined : factor(share),
      referralSource: `referral.shares.${key}`,
    });
  }
  const byEvent = new Map<string, CompiledRule[]>();
  for (const rule of rv.rules) {
    const currency = currencies.get(rule.currency);
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, parsing refuses a rule whose currency the version does not define
    if (!currency) throw new Error(`unreachable: rule ${rule.id} names an unknown currency`);
    const compiled: CompiledRule = {
      rule,
      activeFrom: rule.activeFrom === undefined ? undefined : timeOf(rule.activeFrom),
      activeUntil: rule.activeUntil === undefined ? undefined : timeOf(rule.activeUntil),
      minAmount: rule.minAmount === undefined ? undefined : fx(rule.minAmount),
      base: rule.base && { perUnit: rule.base.kind === "perUnit", points: fx(rule.base.points) },
      cooldownMs: rule.cooldownSeconds === undefined ? undefined : rule.cooldownSeconds * 1000,
      multipliers: (rule.multipliers ?? []).map((m, i) => multiplier(m, `rules.${rule.id}.multipliers[${i}]`)),
      milestones: (rule.milestones ?? []).map((m) => ({ id: m.id, metric: m.metric, level: fx(m.level), points: fx(m.points) })),
      caps: [...caps(rule.caps, `rule:${rule.id}`), ...currency.caps],
      currency,
    };
    // Event type ids are uuids; compare them case-insensitively like PostgreSQL's uuid type does.
    const k = rule.regEventId.toLowerCase();
    const list = byEvent.get(k);
    if (list) list.push(compiled);
    else byEvent.set(k, [compiled]);
  }
  const globalOrder = [...currencies.values()].some((c) => c.budget !== undefined);
  return { rv, currencies, byEvent, globalOrder };
}

/**
 * Validates and indexes a rule version, once per object: the engine is handed the same rule
 * version for every batch, and re-validating it each time would be wasted work.
 */
export function compile(rules: RuleVersion): Compiled {
  const hit = cache.get(rules);
  if (hit) return hit;
  const compiled = build(parseRuleVersion(rules));
  cache.set(rules, compiled);
  return compiled;
}

/**
 * True when the rule version has a campaign-wide budget, so that events of different users
 * compete for it and must be applied in global log order with the campaign state; false when
 * each user's events can be applied independently (per-user ordering is enough).
 */
export function needsGlobalOrder(rules: RuleVersion): boolean {
  return compile(rules).globalOrder;
}
