// Checks a submitted rule document against the engine schema and the campaign's currencies and event types.
import { type DecayConfig, decayRangeEnd, MAX_HALF_LIVES, type RuleIssue, type RuleVersion, safeParseRuleVersion } from "@pointwise/rules";

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
  /** The campaign's starts_at, or null when it has none. */
  startsAt: Date | null;
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
  // JSON.parse keeps a "__proto__" key as an own key, but the schema's records assign theirs, so it would vanish
  // from the stored document without a word instead of being refused as the unknown key it is.
  const prototypeKeys = protoKeyIssues(input, "");
  const parsed = safeParseRuleVersion({ ...input, campaignId: ctx.campaignId, version: ctx.version });
  if (prototypeKeys.length > 0) return { ok: false, issues: [...prototypeKeys, ...(parsed.ok ? [] : parsed.issues), ...campaignIssues(input, ctx)] };
  // A document the schema refuses is still checked against the campaign as far as its parts have their shapes, so
  // one answer lists every problem.
  if (!parsed.ok) return { ok: false, issues: [...parsed.issues, ...campaignIssues(input, ctx)] };
  const doc = parsed.value;
  const issues = [...campaignIssues(doc, ctx), ...decayEpochIssues(doc, ctx)];
  return issues.length > 0 ? { ok: false, issues } : { ok: true, document: doc };
}

/** Every "__proto__" key of a JSON value, with its path. */
function protoKeyIssues(value: unknown, path: string): RuleIssue[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => protoKeyIssues(v, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const at = path ? `${path}.${key}` : key;
    if (key === "__proto__") return [{ path: at, message: "is not an allowed key" }];
    return protoKeyIssues((value as Record<string, unknown>)[key], at);
  });
}

/**
 * What only the campaign knows, of a document parsed or not (parts of another shape are the schema's to refuse): its
 * currencies are the campaign's, its primary currency is the campaign's, and each rule's regEventId is a registered,
 * not retired event type of the campaign.
 */
function campaignIssues(doc: { currencies?: unknown; primaryCurrency?: unknown; rules?: unknown }, ctx: RuleContext): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const known = Object.keys(ctx.currencies).join(", ");
  if (typeof doc.currencies === "object" && doc.currencies !== null && !Array.isArray(doc.currencies)) {
    for (const key of Object.keys(doc.currencies)) {
      if (!Object.hasOwn(ctx.currencies, key)) issues.push({ path: `currencies.${key}`, message: `must be a currency of the campaign (${known})` });
    }
  }
  if (typeof doc.primaryCurrency === "string" && doc.primaryCurrency !== ctx.primaryCurrency) {
    issues.push({ path: "primaryCurrency", message: `must be the campaign's primary currency (${ctx.primaryCurrency})` });
  }
  const types = new Map(ctx.eventTypes.map((t) => [t.id.toLowerCase(), t]));
  const rules: unknown[] = Array.isArray(doc.rules) ? doc.rules : [];
  rules.forEach((rule, i) => {
    const regEventId = (rule as { regEventId?: unknown } | null)?.regEventId;
    if (typeof regEventId !== "string") return;
    const type = types.get(regEventId.toLowerCase());
    if (!type) issues.push({ path: `rules[${i}].regEventId`, message: "must be the reg_event_id of an event type registered in this campaign" });
    else if (type.retired) issues.push({ path: `rules[${i}].regEventId`, message: `must not name a retired event type (${type.name})` });
  });
  return issues;
}

/** The decay epochs of a rule version that cannot work for the campaign at `ctx.now` (see epochIssues); checked at save and at activation. */
export function decayEpochIssues(doc: RuleVersion, ctx: Pick<RuleContext, "startsAt" | "endsAt" | "now">): RuleIssue[] {
  return Object.entries(doc.currencies).flatMap(([key, currency]) => (currency.decay ? epochIssues(`currencies.${key}.decay.epoch`, currency.decay, ctx) : []));
}

/** How many half-lives an epoch may lie after the first awards: before it they are stored 2^-n smaller, losing digits. */
const MAX_EPOCH_LEAD_HALF_LIVES = 30;

/**
 * Where a decaying currency's epoch may lie. It scores fewer than MAX_HALF_LIVES + 1 half-lives after the
 * epoch, so the range must reach the events that can come now (up to the present, or the campaign's
 * ends_at when that has passed); a campaign that outlives it later waits for a version with a later
 * epoch. And it may lie at most MAX_EPOCH_LEAD_HALF_LIVES after the first awards (the present, or a
 * later starts_at), since a read before the epoch multiplies what was cut off when they were stored.
 */
function epochIssues(path: string, decay: DecayConfig, ctx: Pick<RuleContext, "startsAt" | "endsAt" | "now">): RuleIssue[] {
  const halfLifeMs = decay.halfLifeSeconds * 1000;
  const epoch = Date.parse(decay.epoch);
  const now = ctx.now.getTime();
  const ended = ctx.endsAt !== null && ctx.endsAt.getTime() < now;
  const reach = ended ? (ctx.endsAt as Date).getTime() : now;
  const first = Math.max(now, ctx.startsAt?.getTime() ?? now);
  const iso = (ms: number) => new Date(ms).toISOString();
  const each = `half-lives of ${decay.halfLifeSeconds} s`;
  if (decayRangeEnd(decay).getTime() < reach)
    return [
      {
        path,
        message: `must be at or after ${iso(reach - (MAX_HALF_LIVES + 1) * halfLifeMs)}: points decay over fewer than ${MAX_HALF_LIVES + 1} ${each} from the epoch, and events come until ${ended ? `the campaign's ends_at (${iso(reach)})` : `now (${iso(reach)})`}`,
      },
    ];
  if (epoch > first + MAX_EPOCH_LEAD_HALF_LIVES * halfLifeMs)
    return [
      {
        path,
        message: `must be at or before ${iso(first + MAX_EPOCH_LEAD_HALF_LIVES * halfLifeMs)}: at most ${MAX_EPOCH_LEAD_HALF_LIVES} ${each} after the first awards (${ctx.startsAt && ctx.startsAt.getTime() > now ? "the campaign's starts_at" : "now"}), which are stored scaled down by the half-lives to the epoch`,
      },
    ];
  return [];
}

/** Renders an issue as one sentence naming the field, e.g. `document.rules[0].base.points must be greater than 0`. */
export function issueSentence(issue: RuleIssue): string {
  const path = issue.path ? `document.${issue.path}` : "document";
  return /^(must|key )/.test(issue.message) ? `${path} ${issue.message}` : `${path}: ${issue.message}`;
}
