// The zod schema of a rule version: currencies, rules, caps, tiers, multipliers, milestones and referrals.
import { ValidationError } from "@pointwise/errors";
import { z } from "zod";
import { dec, isDecimalString } from "./decimal";

/** Identity kinds an event's account can have; the same list as @pointwise/schemas, repeated so the engine does not pull in its address libraries. */
export const IDENTITY_TYPES = ["EVM_ADDRESS", "SOLANA_ADDRESS", "BTC_ADDRESS", "EMAIL", "DISCORD_PROVIDER_ID", "X_PROVIDER_ID", "GITHUB_PROVIDER_ID"] as const;

/** One of the spec's identity types. */
export type IdentityType = (typeof IDENTITY_TYPES)[number];

/** Days of the week as written in recurring windows, Monday first. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/** Cap periods: UTC calendar day, ISO week (Monday 00:00 UTC), UTC calendar month, or the whole campaign. */
export const CAP_PERIODS = ["day", "week", "month", "campaign"] as const;

const DECIMAL_MSG = 'must be a non-negative decimal string such as "1.5"';

const decimalString = z.string().refine(isDecimalString, { message: DECIMAL_MSG });
const positiveDecimal = decimalString.refine((s) => !isDecimalString(s) || !dec(s).isZero(), {
  message: "must be greater than 0",
});
const key = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, "must be 1-32 lowercase letters, digits or _, starting with a letter");
// Ids end up inside ledger keys and state keys joined with ":" and "/", so those characters are excluded.
const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "must be 1-64 letters, digits, _, . or -, starting with a letter or digit");
const isoTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone, such as 2025-01-01T00:00:00Z" });

const recurringWindowSchema = z
  .strictObject({
    days: z.array(z.enum(WEEKDAYS)).min(1).optional(),
    hours: z
      .strictObject({ from: z.int().min(0).max(23), to: z.int().min(1).max(24) })
      .refine((h) => h.from !== h.to, { message: "must have from different from to (use no hours for all day)" })
      .optional(),
  })
  .refine((w) => w.days !== undefined || w.hours !== undefined, { message: "must set days, hours or both" });

const capSchema = z.strictObject({ period: z.enum(CAP_PERIODS), limit: decimalString });

const multiplierSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("constant"), factor: decimalString }),
  z.strictObject({ kind: z.literal("window"), factor: decimalString, from: isoTime, until: isoTime }),
  z.strictObject({ kind: z.literal("recurring"), factor: decimalString, window: recurringWindowSchema }),
  z.strictObject({ kind: z.literal("tier"), factors: z.record(key, decimalString) }),
  z.strictObject({ kind: z.literal("identityType"), factors: z.partialRecord(z.enum(IDENTITY_TYPES), decimalString) }),
]);

const milestoneSchema = z.strictObject({
  id,
  metric: z.enum(["amount", "count"]),
  level: positiveDecimal,
  points: positiveDecimal,
});

const ruleSchema = z.strictObject({
  id,
  regEventId: z.guid({ message: "must be a uuid" }),
  currency: key,
  base: z
    .discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("perUnit"), points: positiveDecimal }),
      z.strictObject({ kind: z.literal("fixed"), points: positiveDecimal }),
    ])
    .optional(),
  minAmount: decimalString.optional(),
  milestones: z.array(milestoneSchema).optional(),
  multipliers: z.array(multiplierSchema).optional(),
  activeFrom: isoTime.optional(),
  activeUntil: isoTime.optional(),
  schedule: z.array(recurringWindowSchema).min(1).optional(),
  cooldownSeconds: z.int().min(1).optional(),
  caps: z.array(capSchema).optional(),
});

const tierSchema = z.strictObject({
  key,
  name: z.string().min(1),
  minLifetime: decimalString,
  multiplier: decimalString.optional(),
});

const currencySchema = z.strictObject({
  name: z.string().min(1),
  decimals: z.int().min(0).max(18).default(2),
  decay: z.strictObject({ halfLifeSeconds: z.int().min(3600), epoch: isoTime }).optional(),
  tiers: z.array(tierSchema).min(1).optional(),
  caps: z.array(capSchema).optional(),
  budget: decimalString.optional(),
});

type Ctx = z.RefinementCtx;

/** Adds one problem found across fields; only its path and message reach a caller (see RuleIssue). */
function addProblem(ctx: Ctx, path: PropertyKey[], message: string): void {
  // Stryker disable next-line StringLiteral: equivalent, an issue's code never leaves this module (describe keeps path and message)
  ctx.addIssue({ code: "custom", path, message });
}

function uniqueBy<T>(items: readonly T[], pick: (t: T) => string, ctx: Ctx, path: (i: number) => PropertyKey[], what: string): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const k = pick(item);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else addProblem(ctx, path(i), `must be unique: ${what} "${k}" is also used at index ${first}`);
  });
}

function checkCaps(caps: readonly { period: string }[] | undefined, ctx: Ctx, at: PropertyKey[]): void {
  if (caps)
    uniqueBy(
      caps,
      (c) => c.period,
      ctx,
      (i) => [...at, i, "period"],
      "period",
    );
}

/** Tier keys are unique and each tier starts above the one before it. */
function checkTiers(tiers: readonly { key: string; minLifetime: string }[], ctx: Ctx, at: PropertyKey[]): void {
  uniqueBy(
    tiers,
    (t) => t.key,
    ctx,
    (i) => [...at, i, "key"],
    "tier key",
  );
  tiers.forEach((t, i) => {
    const prev = tiers[i - 1];
    if (prev && isDecimalString(prev.minLifetime) && isDecimalString(t.minLifetime) && !dec(t.minLifetime).gt(dec(prev.minLifetime))) {
      addProblem(ctx, [...at, i, "minLifetime"], "must be greater than the previous tier's minLifetime");
    }
  });
}

/** The zod schema of a rule version; `parseRuleVersion` wraps it with path-naming errors. */
export const ruleVersionSchema = z
  .strictObject({
    campaignId: z.string().min(1),
    version: z.int().min(1),
    primaryCurrency: key,
    currencies: z.record(key, currencySchema),
    rules: z.array(ruleSchema),
    referral: z.strictObject({ shares: z.record(key, positiveDecimal) }).optional(),
  })
  .superRefine((rv, ctx) => {
    const currencyKeys = Object.keys(rv.currencies);
    const known = currencyKeys.join(", ");
    if (currencyKeys.length === 0) addProblem(ctx, ["currencies"], "must define at least one currency");
    if (!Object.hasOwn(rv.currencies, rv.primaryCurrency)) addProblem(ctx, ["primaryCurrency"], `must be one of the currencies (${known})`);
    for (const [ck, cur] of Object.entries(rv.currencies)) {
      checkCaps(cur.caps, ctx, ["currencies", ck, "caps"]);
      if (cur.tiers) checkTiers(cur.tiers, ctx, ["currencies", ck, "tiers"]);
    }
    uniqueBy(
      rv.rules,
      (r) => r.id,
      ctx,
      (i) => ["rules", i, "id"],
      "rule id",
    );
    rv.rules.forEach((rule, i) => {
      const at = (...p: PropertyKey[]) => ["rules", i, ...p];
      const cur = Object.hasOwn(rv.currencies, rule.currency) ? rv.currencies[rule.currency] : undefined;
      if (!cur) addProblem(ctx, at("currency"), `must be one of the currencies (${known})`);
      if (!rule.base && !rule.milestones?.length) addProblem(ctx, at("base"), "must be set when the rule has no milestones");
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, a missing time parses as NaN and no comparison with NaN is true; the guard says what is compared
      if (rule.activeFrom && rule.activeUntil && Date.parse(rule.activeFrom) >= Date.parse(rule.activeUntil)) {
        addProblem(ctx, at("activeUntil"), "must be later than activeFrom");
      }
      if (rule.milestones) {
        uniqueBy(
          rule.milestones,
          (m) => m.id,
          ctx,
          (j) => at("milestones", j, "id"),
          "milestone id",
        );
      }
      checkCaps(rule.caps, ctx, at("caps"));
      rule.multipliers?.forEach((m, j) => {
        // Stryker disable next-line ConditionalExpression: equivalent, other kinds have no from or until, which parse as NaN, and no comparison with NaN is true; the check narrows the type
        if (m.kind === "window" && Date.parse(m.from) >= Date.parse(m.until)) addProblem(ctx, at("multipliers", j, "until"), "must be later than from");
        if (m.kind === "tier" && cur) {
          const tierKeys = cur.tiers?.map((t) => t.key) ?? [];
          for (const tk of Object.keys(m.factors)) {
            if (!tierKeys.includes(tk)) {
              addProblem(ctx, at("multipliers", j, "factors", tk), `must name a tier of currency ${rule.currency} (${tierKeys.join(", ") || "it has none"})`);
            }
          }
        }
      });
    });
    for (const [ck, share] of Object.entries(rv.referral?.shares ?? {})) {
      if (!Object.hasOwn(rv.currencies, ck)) addProblem(ctx, ["referral", "shares", ck], `must name one of the currencies (${known})`);
      if (isDecimalString(share) && dec(share).gt(1)) addProblem(ctx, ["referral", "shares", ck], "must be at most 1");
    }
  });

/** A validated rule version: currencies, rules and referral settings of one campaign at one version. */
export type RuleVersion = z.output<typeof ruleVersionSchema>;
/** A rule version as written by an admin, before defaults (such as `decimals: 2`) are filled in. */
export type RuleVersionInput = z.input<typeof ruleVersionSchema>;
/** One rule: a registered event type mapped to points in a currency. */
export type Rule = RuleVersion["rules"][number];
/** One currency's settings: name, decimals, decay, tiers, caps and budget. */
export type CurrencyConfig = RuleVersion["currencies"][string];
/** A multiplier attached to a rule. */
export type Multiplier = NonNullable<Rule["multipliers"]>[number];
/** A recurring UTC window: days of the week and/or an hour range. */
export type RecurringWindow = z.output<typeof recurringWindowSchema>;
/** A per-user cap for one period. */
export type Cap = z.output<typeof capSchema>;
/** One of the cap periods. */
export type CapPeriod = (typeof CAP_PERIODS)[number];
/** A currency's decay settings. */
export type DecayConfig = NonNullable<CurrencyConfig["decay"]>;
/** One tier of a currency. */
export type Tier = NonNullable<CurrencyConfig["tiers"]>[number];

/** One problem found in a rule version: where it is and what rule it breaks. */
export interface RuleIssue {
  path: string;
  message: string;
}

/** Renders a zod path as `rules[0].base.points`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? String(p) : `.${String(p)}`;
  }
  return out;
}

function describe(issue: z.core.$ZodIssue): RuleIssue {
  const path = formatPath(issue.path);
  let message = issue.message;
  if (issue.code === "invalid_key" && issue.issues[0]) message = `key ${issue.issues[0].message}`;
  return { path, message };
}

/** Renders an issue as one sentence that names the field and the rule. */
export function issueText(issue: RuleIssue): string {
  if (issue.path === "") return issue.message;
  return issue.message.startsWith("must") || issue.message.startsWith("key ") ? `${issue.path} ${issue.message}` : `${issue.path}: ${issue.message}`;
}

/** Validates a rule version and returns every problem as a value, for an admin API that shows them all. */
export function safeParseRuleVersion(input: unknown): { ok: true; value: RuleVersion } | { ok: false; issues: RuleIssue[] } {
  const result = ruleVersionSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.map(describe) };
}

/** Validates a rule version; throws a ValidationError (code `rule-version-invalid`) naming the first bad path. */
export function parseRuleVersion(input: unknown): RuleVersion {
  const result = safeParseRuleVersion(input);
  if (result.ok) return result.value;
  // A failed parse names at least one issue.
  const first = result.issues[0] as RuleIssue;
  const more = result.issues.length > 1 ? ` (and ${result.issues.length - 1} more)` : "";
  throw new ValidationError(`Invalid rule version: ${issueText(first)}${more}`, {
    code: "rule-version-invalid",
    field: first.path,
    details: { issues: result.issues },
  });
}
