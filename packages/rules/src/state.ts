// The per-user and per-campaign state the engine remembers between batches, with a fast stored-form check.
import { ValidationError } from "@pointwise/errors";
import { z } from "zod";
import type { Span } from "./cooldown";
import { isDecimalString } from "./decimal";
import type { RuleVersion } from "./schema";
import { formatPath } from "./schema";

/** The state format written by this engine; format 1 (the one before) is still read and upgraded. */
export const STATE_FORMAT = 2;

const decimal = z.string().refine(isDecimalString, { message: "must be a decimal string" });
const seq = z.string().regex(/^\d+$/, "must be a non-negative integer string");

// The instants a JavaScript Date can hold, in epoch milliseconds.
const MAX_TIME_MS = 8.64e15;
const instant = z.int().min(-MAX_TIME_MS).max(MAX_TIME_MS);
const FORMATS = `must be 1 or ${STATE_FORMAT}`;
const SPANS_ORDER = "must be spans [first, last] with first <= last, each after the one before";
const spansSchema = z.array(z.tuple([instant, instant])).refine(spansInOrder, { message: SPANS_ORDER });

const ruleProgressSchema = z.strictObject({
  count: decimal,
  amount: decimal,
  lastAt: z.string().nullable(),
  milestones: z.array(z.string()),
  spans: spansSchema.optional(),
});

const currencyProgressSchema = z.strictObject({ lifetime: decimal, tier: z.string().nullable() });

const userStateSchema = z.strictObject({
  format: z.literal(STATE_FORMAT, { error: FORMATS }),
  ruleVersion: z.int().min(1),
  lastSeq: seq.nullable(),
  currencies: z.record(z.string(), currencyProgressSchema),
  rules: z.record(z.string(), ruleProgressSchema),
  caps: z.record(z.string(), z.record(z.string(), decimal)),
});

/** Format 1: one `{ period, used }` per cap (the latest period) and no cooldown spans. */
const userStateV1Schema = z.strictObject({
  format: z.literal(1),
  ruleVersion: z.int().min(1),
  lastSeq: seq.nullable(),
  currencies: z.record(z.string(), currencyProgressSchema),
  rules: z.record(z.string(), ruleProgressSchema.omit({ spans: true })),
  caps: z.record(z.string(), z.strictObject({ period: z.string(), used: decimal })),
});

const campaignStateSchema = z.strictObject({
  format: z.union([z.literal(1), z.literal(STATE_FORMAT)], { error: FORMATS }).transform(() => STATE_FORMAT),
  ruleVersion: z.int().min(1),
  lastSeq: seq.nullable(),
  budgetUsed: z.record(z.string(), decimal),
});

function spansInOrder(spans: readonly (readonly [number, number])[]): boolean {
  let previous = Number.NEGATIVE_INFINITY;
  for (const [first, last] of spans) {
    if (!(previous < first && first <= last)) return false;
    previous = last;
  }
  return true;
}

/**
 * What a user has done under one rule: qualifying events counted and summed, the latest counted
 * time (`lastAt`), milestones paid, and for a rule with a cooldown the spans of its counted times
 * (see cooldown.ts; absent in a state upgraded from format 1, where `lastAt` alone stands for them).
 */
export type RuleProgress = z.output<typeof ruleProgressSchema>;

/**
 * Everything the engine remembers about one (campaign, user) under one rule version. Plain JSON
 * with decimal strings: the worker stores it as it is (e.g. a jsonb column) and hands it back.
 * `lastSeq` is the log position of the last event applied, which is how a repeat is recognised;
 * `caps` holds the usage of every cap per period (of event time) with usage.
 */
export type UserState = z.output<typeof userStateSchema>;

/**
 * What the engine remembers about a whole campaign: the budget consumed per currency and the last
 * log position applied. Only kept when the rule version has a budget (see needsGlobalOrder).
 */
export type CampaignState = z.output<typeof campaignStateSchema>;

/** A fresh user state: nothing applied yet under this rule version. */
export function emptyUserState(rules: Pick<RuleVersion, "version">): UserState {
  return { format: STATE_FORMAT, ruleVersion: rules.version, lastSeq: null, currencies: {}, rules: {}, caps: {} };
}

/** A fresh campaign state: no budget consumed yet under this rule version. */
export function emptyCampaignState(rules: Pick<RuleVersion, "version">): CampaignState {
  return { format: STATE_FORMAT, ruleVersion: rules.version, lastSeq: null, budgetUsed: {} };
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // A failed parse names at least one issue.
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const path = formatPath(issue.path);
  throw new ValidationError(`Invalid ${what}: ${path || "(root)"}: ${issue.message}`, {
    code: "state-invalid",
    field: path,
  });
}

/*
 * The worker reads thousands of stored states per batch, and the zod schema above costs more than
 * the scoring itself. The checks below accept exactly the plain JSON objects the schema accepts
 * and copy them the way it does (keys in schema order); anything unusual (another prototype, an
 * odd key, an invalid value) goes to the schema, which decides and names the problem.
 */

const DIGITS_RE = /^\d+$/;

function plainKeys(o: unknown): string[] | undefined {
  if (typeof o !== "object" || o === null || Object.getPrototypeOf(o) !== Object.prototype) return undefined;
  const keys = Object.keys(o);
  for (const k of keys) if (k === "__proto__") return undefined;
  return Object.getOwnPropertySymbols(o).length === 0 ? keys : undefined;
}

function isDecimal(v: unknown): v is string {
  return typeof v === "string" && isDecimalString(v);
}

function record<T>(o: unknown, item: (v: Record<string, unknown>) => T | undefined): Record<string, T> | undefined {
  const keys = plainKeys(o);
  if (!keys) return undefined;
  const out: Record<string, T> = {};
  for (const k of keys) {
    const v = (o as Record<string, unknown>)[k];
    const fields = plainKeys(v);
    if (!fields) return undefined;
    const copy = item(v as Record<string, unknown>);
    if (copy === undefined || fields.length !== Object.keys(copy as object).length) return undefined;
    out[k] = copy;
  }
  return out;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return undefined;
  const list: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const m: unknown = v[i];
    if (typeof m !== "string") return undefined;
    list.push(m);
  }
  return list;
}

function isInstant(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= -MAX_TIME_MS && v <= MAX_TIME_MS;
}

function spanList(v: unknown): Span[] | undefined {
  if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return undefined;
  const list: Span[] = [];
  for (let i = 0; i < v.length; i++) {
    const span: unknown = v[i];
    if (!Array.isArray(span) || Object.getPrototypeOf(span) !== Array.prototype || span.length !== 2) return undefined;
    const [first, last] = span as unknown[];
    if (!isInstant(first) || !isInstant(last)) return undefined;
    list.push([first, last]);
  }
  return spansInOrder(list) ? list : undefined;
}

/** Rule progress of either format; `spans` only in format 2 (the record check rejects a key it did not copy). */
function progressOf(v: Record<string, unknown>, withSpans: boolean): RuleProgress | undefined {
  const { count, amount, lastAt } = v;
  if (!isDecimal(count) || !isDecimal(amount) || (lastAt !== null && typeof lastAt !== "string")) return undefined;
  const milestones = stringList(v.milestones);
  if (!milestones) return undefined;
  if (!withSpans || !Object.hasOwn(v, "spans")) return { count, amount, lastAt, milestones };
  const spans = spanList(v.spans);
  return spans && { count, amount, lastAt, milestones, spans };
}

const progressV1 = (v: Record<string, unknown>) => progressOf(v, false);
const progressV2 = (v: Record<string, unknown>) => progressOf(v, true);

function currencyProgress(v: Record<string, unknown>): UserState["currencies"][string] | undefined {
  const { lifetime, tier } = v;
  return isDecimal(lifetime) && (tier === null || typeof tier === "string") ? { lifetime, tier } : undefined;
}

function capUsageV1(v: Record<string, unknown>): { period: string; used: string } | undefined {
  const { period, used } = v;
  return typeof period === "string" && isDecimal(used) ? { period, used } : undefined;
}

/** Format 1 kept one `{ period, used }` per cap, the latest period used; format 2 keeps every period. */
function upgradeCaps(caps: Readonly<Record<string, { period: string; used: string }>>): UserState["caps"] {
  const out: UserState["caps"] = {};
  // A computed key defines an own property, even for a period named "__proto__".
  for (const [key, { period, used }] of Object.entries(caps)) out[key] = { [period]: used };
  return out;
}

function capPeriods(o: unknown): Record<string, Record<string, string>> | undefined {
  const keys = plainKeys(o);
  if (!keys) return undefined;
  const out: Record<string, Record<string, string>> = {};
  for (const k of keys) {
    const v = (o as Record<string, unknown>)[k];
    const periods = plainKeys(v);
    if (!periods) return undefined;
    const copy: Record<string, string> = {};
    for (const period of periods) {
      const used = (v as Record<string, unknown>)[period];
      if (!isDecimal(used)) return undefined;
      copy[period] = used;
    }
    out[k] = copy;
  }
  return out;
}

/**
 * The fast check alone: a copy of a plain-JSON user state, or undefined when the schema must decide.
 * Exported for its tests, which hold it to accepting every state the engine writes.
 */
export function fastUserState(input: unknown): UserState | undefined {
  const keys = plainKeys(input);
  if (keys?.length !== 6) return undefined;
  const o = input as Record<string, unknown>;
  const { format, ruleVersion, lastSeq } = o;
  if ((format !== STATE_FORMAT && format !== 1) || typeof ruleVersion !== "number" || !Number.isSafeInteger(ruleVersion) || ruleVersion < 1) return undefined;
  if (lastSeq !== null && (typeof lastSeq !== "string" || !DIGITS_RE.test(lastSeq))) return undefined;
  const currencies = record(o.currencies, currencyProgress);
  if (!currencies) return undefined;
  if (format === 1) {
    const rules = record(o.rules, progressV1);
    const caps = rules && record(o.caps, capUsageV1);
    return caps && { format: STATE_FORMAT, ruleVersion, lastSeq, currencies, rules, caps: upgradeCaps(caps) };
  }
  const rules = record(o.rules, progressV2);
  const caps = rules && capPeriods(o.caps);
  return caps && { format: STATE_FORMAT, ruleVersion, lastSeq, currencies, rules, caps };
}

function slowUserState(input: unknown): UserState {
  const format = typeof input === "object" && input !== null ? (input as { format?: unknown }).format : undefined;
  if (format !== 1) return parseWith(userStateSchema, input, "user state");
  const v1 = parseWith(userStateV1Schema, input, "user state");
  return { ...v1, format: STATE_FORMAT, caps: upgradeCaps(v1.caps) };
}

/**
 * Checks a stored user state (for example read back from a jsonb column) and copies it; throws
 * ValidationError `state-invalid`. A format-1 state is upgraded: each cap's one period becomes that
 * period's entry, and a rule's `lastAt` stands for its cooldown spans (`[[lastAt, lastAt]]`).
 */
export function parseUserState(input: unknown): UserState {
  return fastUserState(input) ?? slowUserState(input);
}

/** Checks a stored campaign state; throws ValidationError `state-invalid`. */
export function parseCampaignState(input: unknown): CampaignState {
  return parseWith(campaignStateSchema, input, "campaign state");
}
