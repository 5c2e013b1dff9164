// The per-user and per-campaign state the engine remembers between batches, with a fast stored-form check.
import { ValidationError } from "@pointwise/errors";
import { z } from "zod";
import { isDecimalString } from "./decimal";
import type { RuleVersion } from "./schema";
import { formatPath } from "./schema";

/** The state format written by this engine; a stored state of another format is rejected. */
export const STATE_FORMAT = 1;

const decimal = z.string().refine(isDecimalString, { message: "must be a decimal string" });
const seq = z.string().regex(/^\d+$/, "must be a non-negative integer string");

const ruleProgressSchema = z.strictObject({
  count: decimal,
  amount: decimal,
  lastAt: z.string().nullable(),
  milestones: z.array(z.string()),
});

const userStateSchema = z.strictObject({
  format: z.literal(STATE_FORMAT),
  ruleVersion: z.int().min(1),
  lastSeq: seq.nullable(),
  currencies: z.record(z.string(), z.strictObject({ lifetime: decimal, tier: z.string().nullable() })),
  rules: z.record(z.string(), ruleProgressSchema),
  caps: z.record(z.string(), z.strictObject({ period: z.string(), used: decimal })),
});

const campaignStateSchema = z.strictObject({
  format: z.literal(STATE_FORMAT),
  ruleVersion: z.int().min(1),
  lastSeq: seq.nullable(),
  budgetUsed: z.record(z.string(), decimal),
});

/** What a user has done under one rule: qualifying events counted and summed, last award time, milestones paid. */
export type RuleProgress = z.output<typeof ruleProgressSchema>;

/**
 * Everything the engine remembers about one (campaign, user) under one rule version. Plain JSON
 * with decimal strings: the worker stores it as it is (e.g. a jsonb column) and hands it back.
 * `lastSeq` is the log position of the last event applied, which is how a repeat is recognised.
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
  const issue = result.error.issues[0];
  const path = issue ? formatPath(issue.path) : "";
  throw new ValidationError(`Invalid ${what}: ${path || "(root)"}: ${issue?.message ?? "is invalid"}`, {
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

function progress(v: Record<string, unknown>): RuleProgress | undefined {
  const { count, amount, lastAt, milestones } = v;
  if (!isDecimal(count) || !isDecimal(amount) || (lastAt !== null && typeof lastAt !== "string") || !Array.isArray(milestones)) return undefined;
  if (Object.getPrototypeOf(milestones) !== Array.prototype) return undefined;
  const list: string[] = [];
  for (let i = 0; i < milestones.length; i++) {
    const m: unknown = milestones[i];
    if (typeof m !== "string") return undefined;
    list.push(m);
  }
  return { count, amount, lastAt, milestones: list };
}

function currencyProgress(v: Record<string, unknown>): UserState["currencies"][string] | undefined {
  const { lifetime, tier } = v;
  return isDecimal(lifetime) && (tier === null || typeof tier === "string") ? { lifetime, tier } : undefined;
}

function capUsage(v: Record<string, unknown>): UserState["caps"][string] | undefined {
  const { period, used } = v;
  return typeof period === "string" && isDecimal(used) ? { period, used } : undefined;
}

function fastUserState(input: unknown): UserState | undefined {
  const keys = plainKeys(input);
  if (keys?.length !== 6) return undefined;
  const o = input as Record<string, unknown>;
  const { format, ruleVersion, lastSeq } = o;
  if (format !== STATE_FORMAT || typeof ruleVersion !== "number" || !Number.isSafeInteger(ruleVersion) || ruleVersion < 1) return undefined;
  if (lastSeq !== null && (typeof lastSeq !== "string" || !DIGITS_RE.test(lastSeq))) return undefined;
  const currencies = record(o.currencies, currencyProgress);
  const rules = currencies && record(o.rules, progress);
  const caps = rules && record(o.caps, capUsage);
  if (!caps) return undefined;
  return { format: STATE_FORMAT, ruleVersion, lastSeq, currencies: currencies as UserState["currencies"], rules: rules as UserState["rules"], caps };
}

/** Checks a stored user state (for example read back from a jsonb column) and copies it; throws ValidationError `state-invalid`. */
export function parseUserState(input: unknown): UserState {
  return fastUserState(input) ?? parseWith(userStateSchema, input, "user state");
}

/** Checks a stored campaign state; throws ValidationError `state-invalid`. */
export function parseCampaignState(input: unknown): CampaignState {
  return parseWith(campaignStateSchema, input, "campaign state");
}
