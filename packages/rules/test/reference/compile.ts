// Reference engine (decimal.js) for the differential test: a rule version parsed and indexed for scoring.
import type { Cap, CapPeriod, DecayConfig, Multiplier, Rule, RuleVersion } from "../../src/schema";
import { parseRuleVersion } from "../../src/schema";
import { type Dec, dec } from "./decimal";
import { timeOf } from "./time";

/** A cap ready to check: its state key, period and limit. */
export interface CompiledCap {
  key: string;
  period: CapPeriod;
  limit: Dec;
}

/** A tier with its threshold parsed. */
export interface CompiledTier {
  key: string;
  min: Dec;
  multiplier: string | undefined;
}

/** A currency with everything the engine needs to pay into it. */
export interface CompiledCurrency {
  key: string;
  decimals: number;
  decay: DecayConfig | undefined;
  tiers: CompiledTier[];
  caps: CompiledCap[];
  budget: Dec | undefined;
  referralShare: Dec | undefined;
}

/** A rule with its times and numbers parsed once per rule version. */
export interface CompiledRule {
  rule: Rule;
  activeFrom: number | undefined;
  activeUntil: number | undefined;
  minAmount: Dec | undefined;
  multipliers: readonly Multiplier[];
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

function caps(list: readonly Cap[] | undefined, prefix: string): CompiledCap[] {
  return (list ?? []).map((c) => ({ key: `${prefix}:${c.period}`, period: c.period, limit: dec(c.limit) }));
}

function build(rv: RuleVersion): Compiled {
  const currencies = new Map<string, CompiledCurrency>();
  for (const [key, cur] of Object.entries(rv.currencies)) {
    const share = rv.referral?.shares && Object.hasOwn(rv.referral.shares, key) ? rv.referral.shares[key] : undefined;
    currencies.set(key, {
      key,
      decimals: cur.decimals,
      decay: cur.decay,
      tiers: (cur.tiers ?? []).map((t) => ({ key: t.key, min: dec(t.minLifetime), multiplier: t.multiplier })),
      caps: caps(cur.caps, `currency:${key}`),
      budget: cur.budget === undefined ? undefined : dec(cur.budget),
      referralShare: share === undefined ? undefined : dec(share),
    });
  }
  const byEvent = new Map<string, CompiledRule[]>();
  for (const rule of rv.rules) {
    const currency = currencies.get(rule.currency);
    if (!currency) throw new Error(`unreachable: rule ${rule.id} names an unknown currency`);
    const compiled: CompiledRule = {
      rule,
      activeFrom: rule.activeFrom === undefined ? undefined : timeOf(rule.activeFrom),
      activeUntil: rule.activeUntil === undefined ? undefined : timeOf(rule.activeUntil),
      minAmount: rule.minAmount === undefined ? undefined : dec(rule.minAmount),
      multipliers: rule.multipliers ?? [],
      caps: caps(rule.caps, `rule:${rule.id}`),
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
