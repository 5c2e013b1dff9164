// Checks a submitted rule document against the engine schema and the campaign's currencies and event types.
import { decayRangeEnd, MAX_HALF_LIVES, type RuleIssue, type RuleVersion, safeParseRuleVersion } from "@pointwise/rules";

/** What a rule version is checked against besides the engine's own schema. */
export interface RuleContext {
  campaignId: string;
  /** The version number the document will be stored as (assigned by the server). */
  version: number;
  /** The campaign's currencies, key -> display name. */
  currencies: Record<string, string>;
  primaryCurrency: string;
  /** The campaign's event types; retired ones cannot be given new rules. */
  eventTypes: readonly { id: string; name: string; retired: boolean }[];
  /** The campaign's ends_at (exclusive), or null when it runs on. */
  endsAt: Date | null;
  /** The time of the check. */
  now: Date;
}

/** The outcome of checking a rule document: the stored form, or every problem found. */
export type RuleCheck = { ok: true; document: RuleVersion } | { ok: false; issues: RuleIssue[] };

/**
 * Checks a rule document the way it will be stored: the engine's schema (strict, every issue with its
 * path), then what only the campaign knows: its currencies, its primary currency and its registered,
 * not retired event types. `campaignId` and `version` are assigned by the server, so whatever the
 * document says there is replaced (a document copied from an older version stays usable).
 */
export function checkRuleDocument(input: unknown, ctx: RuleContext): RuleCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { ok: false, issues: [{ path: "", message: "must be a JSON object" }] };
  const parsed = safeParseRuleVersion({ ...input, campaignId: ctx.campaignId, version: ctx.version });
  if (!parsed.ok) return parsed;
  const doc = parsed.value;
  const issues: RuleIssue[] = [];
  const known = Object.keys(ctx.currencies).join(", ");
  for (const key of Object.keys(doc.currencies)) {
    if (!Object.hasOwn(ctx.currencies, key)) issues.push({ path: `currencies.${key}`, message: `must be a currency of the campaign (${known})` });
  }
  if (doc.primaryCurrency !== ctx.primaryCurrency) {
    issues.push({ path: "primaryCurrency", message: `must be the campaign's primary currency (${ctx.primaryCurrency})` });
  }
  // A decaying currency scores at most MAX_HALF_LIVES half-lives after its epoch: the version must reach the
  // campaign's end (or, without one, the present), else its events would wait for the next version.
  for (const [key, currency] of Object.entries(doc.currencies)) {
    if (!currency.decay) continue;
    const end = decayRangeEnd(currency.decay);
    const until = ctx.endsAt ?? ctx.now;
    if (end.getTime() < until.getTime())
      issues.push({
        path: `currencies.${key}.decay.epoch`,
        message: `must be later: ${MAX_HALF_LIVES} half-lives of ${currency.decay.halfLifeSeconds} s from it end at ${end.toISOString()}, before ${ctx.endsAt ? `the campaign's ends_at (${ctx.endsAt.toISOString()})` : "now"}`,
      });
  }
  const types = new Map(ctx.eventTypes.map((t) => [t.id.toLowerCase(), t]));
  doc.rules.forEach((rule, i) => {
    const type = types.get(rule.regEventId.toLowerCase());
    if (!type) issues.push({ path: `rules[${i}].regEventId`, message: "must be the reg_event_id of an event type registered in this campaign" });
    else if (type.retired) issues.push({ path: `rules[${i}].regEventId`, message: `must not name a retired event type (${type.name})` });
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, document: doc };
}

/** Renders an issue as one sentence naming the field, e.g. `document.rules[0].base.points must be greater than 0`. */
export function issueSentence(issue: RuleIssue): string {
  const path = issue.path ? `document.${issue.path}` : "document";
  return /^(must|key )/.test(issue.message) ? `${path} ${issue.message}` : `${path}: ${issue.message}`;
}

/** An empty rule version with the same currencies: what a campaign without active rules pays (nothing). */
export function emptyRuleVersion(like: RuleVersion): RuleVersion {
  return { campaignId: like.campaignId, version: like.version, primaryCurrency: like.primaryCurrency, currencies: like.currencies, rules: [] };
}
