// The rule document as the form edits it: the engine's format (docs/rules.md), loosely typed because the
// JSON view may hold anything while being typed. The form and the JSON view edit this one object.
import type { Campaign, EventType } from "../types";

/** A recurring UTC window: days of the week and/or an hour range. */
export interface WindowDoc {
  days?: string[];
  hours?: { from: number; to: number };
}
/** A multiplier of a rule. */
export interface MultiplierDoc {
  kind: "constant" | "window" | "recurring" | "tier" | "identityType";
  factor?: string;
  from?: string;
  until?: string;
  window?: WindowDoc;
  factors?: Record<string, string>;
}
/** A milestone bonus of a rule. */
export interface MilestoneDoc {
  id: string;
  metric: "amount" | "count";
  level: string;
  points: string;
}
/** A per-user cap. */
export interface CapDoc {
  period: "day" | "week" | "month" | "campaign";
  limit: string;
}
/** One rule: an event type mapped to points in a currency. */
export interface RuleDoc {
  id: string;
  regEventId: string;
  currency: string;
  base?: { kind: "perUnit" | "fixed"; points: string };
  minAmount?: string;
  milestones?: MilestoneDoc[];
  multipliers?: MultiplierDoc[];
  activeFrom?: string;
  activeUntil?: string;
  schedule?: WindowDoc[];
  cooldownSeconds?: number;
  caps?: CapDoc[];
}
/** A tier of a currency. */
export interface TierDoc {
  key: string;
  name: string;
  minLifetime: string;
  multiplier?: string;
}
/** One currency's settings. */
export interface CurrencyDoc {
  name: string;
  decimals?: number;
  decay?: { halfLifeSeconds: number; epoch: string };
  tiers?: TierDoc[];
  caps?: CapDoc[];
  budget?: string;
}
/** A rule version document. */
export interface RuleDocument {
  campaignId?: string;
  version?: number;
  primaryCurrency: string;
  currencies: Record<string, CurrencyDoc>;
  rules: RuleDoc[];
  referral?: { shares: Record<string, string> };
}

/** Days of the week as rule windows spell them, Monday first. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
/** Cap periods (UTC calendar periods, or the whole campaign). */
export const CAP_PERIODS = ["day", "week", "month", "campaign"] as const;
/** Multiplier kinds with how the form names them. */
export const MULTIPLIER_KINDS: [MultiplierDoc["kind"], string][] = [
  ["constant", "Always"],
  ["window", "Between two dates"],
  ["recurring", "On days / hours (UTC)"],
  ["tier", "By the user's tier"],
  ["identityType", "By identity type"],
];

/** A starting document: every campaign currency, one rule for the first active event type. */
export function starterDocument(campaign: Campaign, eventTypes: EventType[]): RuleDocument {
  const first = eventTypes.find((t) => !t.retired_at);
  return {
    primaryCurrency: campaign.primary_currency,
    currencies: Object.fromEntries(Object.entries(campaign.currencies).map(([key, name]) => [key, { name, decimals: 2 }])),
    rules: first ? [newRule(first.reg_event_id, campaign.primary_currency, first.name)] : [],
  };
}

/** A new rule paying 1 point per unit. */
export function newRule(regEventId: string, currency: string, name = "rule"): RuleDoc {
  const id =
    name
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, "-")
      .replace(/^-+/, "")
      .slice(0, 60) || "rule";
  return { id, regEventId, currency, base: { kind: "perUnit", points: "1" } };
}

/** Makes a document copied from a stored version editable again (the server assigns campaign and version). */
export function editable(doc: Record<string, unknown>): RuleDocument {
  const { campaignId: _c, version: _v, ...rest } = doc;
  return rest as unknown as RuleDocument;
}

/** One plain sentence of what a rule pays, e.g. "2 xp per unit of trade_volume, at least 10, x2 on sat, sun". */
export function describeRule(rule: RuleDoc, eventTypes: EventType[]): string {
  const type = eventTypes.find((t) => t.reg_event_id === rule.regEventId)?.name ?? "an unknown event type";
  const parts: string[] = [];
  if (rule.base?.kind === "perUnit") parts.push(`${rule.base.points || "?"} ${rule.currency} per unit of ${type}`);
  else if (rule.base?.kind === "fixed") parts.push(`${rule.base.points || "?"} ${rule.currency} per ${type} event`);
  else parts.push(`milestones of ${type} in ${rule.currency}`);
  if (rule.minAmount) parts.push(`amount at least ${rule.minAmount}`);
  for (const m of rule.multipliers ?? []) {
    if (m.kind === "constant") parts.push(`x${m.factor}`);
    if (m.kind === "window") parts.push(`x${m.factor} from ${m.from?.slice(0, 10)} to ${m.until?.slice(0, 10)}`);
    if (m.kind === "recurring") parts.push(`x${m.factor} ${windowText(m.window)}`);
    if (m.kind === "tier" || m.kind === "identityType") parts.push(`x by ${m.kind === "tier" ? "tier" : "identity type"}`);
  }
  if (rule.milestones?.length) parts.push(`${rule.milestones.length} milestone${rule.milestones.length > 1 ? "s" : ""}`);
  if (rule.cooldownSeconds) parts.push(`once per ${rule.cooldownSeconds}s`);
  for (const cap of rule.caps ?? []) parts.push(`at most ${cap.limit} per ${cap.period}`);
  return parts.join(", ");
}

/** "on sat, sun 18-22h UTC". */
export function windowText(w: WindowDoc | undefined): string {
  if (!w) return "";
  const days = w.days?.length ? `on ${w.days.join(", ")}` : "every day";
  const hours = w.hours ? ` ${w.hours.from}-${w.hours.to}h UTC` : "";
  return `${days}${hours}`;
}

/** An issue path in words: `rules[0].base.points` -> "Rule 1 (volume) › base › points". */
export function describePath(path: string, doc: RuleDocument): string {
  if (!path) return "Document";
  return path
    .replace(/^rules\[(\d+)\]/, (_, i: string) => `Rule ${Number(i) + 1}${doc.rules?.[Number(i)]?.id ? ` (${doc.rules[Number(i)]?.id})` : ""}`)
    .replace(/^currencies\.(\w+)/, (_, k: string) => `Currency ${k}`)
    .replace(/\[(\d+)\]/g, (_, i: string) => ` ${Number(i) + 1}`)
    .split(".")
    .join(" › ");
}

/** Returns a copy of `value` with `path` set (or removed when `next` is undefined or ""). */
export function setIn<T>(value: T, path: (string | number)[], next: unknown): T {
  if (path.length === 0) return next as T;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const base = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  const child = setIn(base[head], rest, next);
  if (child === undefined || child === "") {
    if (Array.isArray(base)) (base as unknown[]).splice(head as number, 1);
    else delete base[head];
  } else base[head] = child;
  return base as T;
}
