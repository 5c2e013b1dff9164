// Reference engine (decimal.js) for the differential test: the stored user and campaign state and its checks.
import { ValidationError } from "@pointwise/errors";
import { z } from "zod";
import type { RuleVersion } from "../../src/schema";
import { formatPath } from "../../src/schema";
import { isDecimalString } from "./decimal";

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

/** Checks a stored user state (for example read back from a jsonb column); throws ValidationError `state-invalid`. */
export function parseUserState(input: unknown): UserState {
  return parseWith(userStateSchema, input, "user state");
}

/** Checks a stored campaign state; throws ValidationError `state-invalid`. */
export function parseCampaignState(input: unknown): CampaignState {
  return parseWith(campaignStateSchema, input, "campaign state");
}
