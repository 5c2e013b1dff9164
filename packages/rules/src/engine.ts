// The scoring engine's one entry point: applies events to user and campaign state, yielding ledger and deltas.
import { ConflictError, ValidationError } from "@pointwise/errors";
import { FIXED_ZERO, type Fixed, fx } from "@pointwise/fixed";
import { own, payAward, type Run, type Scoring, tierIn } from "./award";
import { type CampaignWindow, compileWindow } from "./campaign-window";
import { type Compiled, type CompiledRule, compile, type Factor } from "./compile";
import { addCounted, isBlocked, type Span } from "./cooldown";
import { isDecimalString, MAX_DECIMAL_LENGTH } from "./decimal";
import type { RuleVersion } from "./schema";
import { DeltaBook, type ScoreDelta } from "./scores";
import { type CampaignState, emptyCampaignState, emptyUserState, parseCampaignState, parseUserState, type RuleProgress, type UserState } from "./state";
import { inRecurringWindow, laterTime, parseTime, timeOf } from "./time";
import type { AppliedMultiplier, LedgerEntry, OutsideCampaignEvent, RawEvent, RejectedEvent, SkippedEvent } from "./types";

/** What the worker hands the engine for one batch of one campaign. */
export interface ApplyInput {
  /** The active rule version (treat it as immutable: it is validated once per object). */
  rules: RuleVersion;
  /** Events in log order (seq ascending), of one user or of many. */
  events: readonly RawEvent[];
  /** Prior state of each user in `events`, keyed by userId; a missing user starts empty. */
  users?: Readonly<Record<string, UserState | undefined>>;
  /** Prior campaign state; needed only when needsGlobalOrder(rules) (missing means none consumed yet). */
  campaign?: CampaignState | null;
  /** The campaign's dates; events outside [startsAt, endsAt) earn nothing (missing or null: no limit). */
  campaignWindow?: CampaignWindow | null;
}

/** What one engine call produces; everything the worker writes in its transaction. */
export interface ApplyResult {
  /** Ledger entries in the order they were decided (log order, then rule order). */
  entries: LedgerEntry[];
  /** New state of every user that appears in `events` (unchanged for users whose events were all skipped). */
  users: Record<string, UserState>;
  /** New campaign state when needsGlobalOrder(rules), else null (nothing campaign-wide to store). */
  campaign: CampaignState | null;
  /** Per (user, currency) additions to the score rows, including referrers' referral points. */
  scoreDeltas: ScoreDelta[];
  /** Events already covered by their user's state (repeats): nothing was done for them. */
  skipped: SkippedEvent[];
  /** Events that can never score; their user's lastSeq still moves past them. */
  rejected: RejectedEvent[];
  /** Events whose occurredAt is outside the campaign window: nothing earned, lastSeq moved past them. */
  outsideCampaign: OutsideCampaignEvent[];
}

const ONE = fx("1");

function fail(message: string, field: string, code = "event-invalid"): never {
  throw new ValidationError(message, { field, code });
}

function checkEvent(ev: RawEvent, index: number, campaignId: string): bigint {
  const at = `events[${index}]`;
  for (const f of ["id", "seq", "campaignId", "userId", "regEventId", "identityType", "amount", "occurredAt"] as const) {
    if (typeof ev[f] !== "string") fail(`${at}.${f} must be a string`, `${at}.${f}`);
  }
  if (ev.id === "") fail(`${at}.id must not be empty`, `${at}.id`);
  if (ev.userId === "") fail(`${at}.userId must not be empty`, `${at}.userId`);
  if (ev.referrerId !== undefined && ev.referrerId !== null && (typeof ev.referrerId !== "string" || ev.referrerId === "")) {
    fail(`${at}.referrerId must be a non-empty string or null`, `${at}.referrerId`);
  }
  if (!/^\d{1,30}$/.test(ev.seq)) fail(`${at}.seq must be a non-negative integer string`, `${at}.seq`);
  if (ev.campaignId !== campaignId) {
    fail(`${at}.campaignId must be ${campaignId}, the campaign of the rule version`, `${at}.campaignId`, "campaign-mismatch");
  }
  return BigInt(ev.seq);
}

function loadUser(users: ApplyInput["users"], userId: string, version: number): UserState {
  const stored = own(users, userId);
  if (stored === undefined || stored === null) return emptyUserState({ version });
  const state = parseUserState(stored); // parsing also copies, so the caller's object is never mutated
  if (state.ruleVersion !== version) {
    fail(
      `users.${userId}.ruleVersion is ${state.ruleVersion} but the rules are version ${version}; recompute from the log`,
      `users.${userId}.ruleVersion`,
      "state-rule-version-mismatch",
    );
  }
  return state;
}

function loadCampaign(c: Compiled, stored: CampaignState | null | undefined): CampaignState | null {
  if (!c.globalOrder) return null;
  if (stored === undefined || stored === null) return emptyCampaignState(c.rv);
  const state = parseCampaignState(stored);
  if (state.ruleVersion !== c.rv.version) {
    fail(
      `campaign.ruleVersion is ${state.ruleVersion} but the rules are version ${c.rv.version}; recompute from the log`,
      "campaign.ruleVersion",
      "state-rule-version-mismatch",
    );
  }
  return state;
}

function qualifies(cr: CompiledRule, state: UserState, ms: number, amount: Fixed): boolean {
  const rule = cr.rule;
  // Stryker disable next-line ConditionalExpression: equivalent, a comparison with undefined is false; the guard says the bound is optional
  if (cr.activeFrom !== undefined && ms < cr.activeFrom) return false;
  // Stryker disable next-line ConditionalExpression: equivalent, as above
  if (cr.activeUntil !== undefined && ms >= cr.activeUntil) return false;
  if (rule.schedule && !rule.schedule.some((w) => inRecurringWindow(ms, w))) return false;
  if (cr.minAmount && amount.lt(cr.minAmount)) return false;
  // Stryker disable next-line ConditionalExpression: equivalent, a cooldown of undefined ms blocks nothing (comparisons with NaN are false); the guard skips the lookup
  if (cr.cooldownMs !== undefined) {
    const prev = own(state.rules, rule.id);
    if (prev && isBlocked(spansOf(prev), ms, cr.cooldownMs)) return false;
  }
  return true;
}

/** The spans of a cooldown rule's counted times; a state upgraded from format 1 knows only the last one. */
function spansOf(progress: RuleProgress): Span[] {
  if (progress.spans !== undefined) return progress.spans;
  if (progress.lastAt === null) return [];
  const last = timeOf(progress.lastAt);
  return [[last, last]];
}

/** The multipliers that apply to a base award, with their factors; they combine by multiplying. */
function multipliersFor(cr: CompiledRule, ev: RawEvent, ms: number, tier: string | null): { factors: Factor[]; applied: AppliedMultiplier[] } {
  const factors: Factor[] = [];
  const applied: AppliedMultiplier[] = [];
  for (const m of cr.multipliers) {
    let factor: Factor | undefined;
    switch (m.kind) {
      case "constant":
        factor = m.factor;
        break;
      case "window":
        if (ms >= m.from && ms < m.until) factor = m.factor;
        break;
      case "recurring":
        if (inRecurringWindow(ms, m.window)) factor = m.factor;
        break;
      case "tier":
        // Stryker disable next-line ConditionalExpression: equivalent, no factor is keyed by null
        if (tier !== null) factor = m.factors.get(tier);
        break;
      case "identityType":
        factor = m.factors.get(ev.identityType);
        break;
    }
    if (factor !== undefined) {
      factors.push(factor);
      applied.push({ kind: m.kind, factor: factor.text, source: m.source });
    }
  }
  // Stryker disable next-line ConditionalExpression: equivalent, no tier has the key null
  if (tier !== null) {
    const level = cr.currency.tiers.find((t) => t.key === tier);
    if (level?.multiplier !== undefined) {
      factors.push(level.multiplier);
      applied.push({ kind: "tierLevel", factor: level.multiplier.text, source: level.source });
    }
  }
  return { factors, applied };
}

const NO_FACTORS: { factors: Factor[]; applied: AppliedMultiplier[] } = { factors: [], applied: [] };

function scoreEvent(run: Run, c: Compiled, state: UserState, at: Scoring): void {
  const rules = c.byEvent.get(at.ev.regEventId) ?? c.byEvent.get(at.ev.regEventId.toLowerCase());
  if (rules === undefined) return;
  for (const cr of rules) {
    if (!qualifies(cr, state, at.ms, at.amount)) continue;
    const rule = cr.rule;
    const prev = own(state.rules, rule.id);
    const count = prev ? fx(prev.count).add(ONE) : ONE;
    const total = prev ? fx(prev.amount).add(at.amount) : FIXED_ZERO.add(at.amount);
    const progress: RuleProgress = {
      count: count.toString(),
      amount: total.toString(),
      // lastAt is the latest counted time: a late event does not move it back.
      lastAt: prev?.lastAt ? laterTime(prev.lastAt, at.iso, at.ms) : at.iso,
      milestones: prev ? [...prev.milestones] : [],
    };
    if (cr.cooldownMs !== undefined) {
      const spans = prev ? spansOf(prev) : [];
      addCounted(spans, at.ms, cr.cooldownMs);
      progress.spans = spans;
    }
    state.rules[rule.id] = progress;
    if (cr.base) {
      const basePoints = cr.base.perUnit ? cr.base.points.mul(at.amount) : cr.base.points;
      // Stryker disable next-line ConditionalExpression: equivalent, without multipliers or tiers multipliersFor finds none; the shortcut saves its work
      const m = cr.multipliers.length === 0 && cr.currency.tiers.length === 0 ? NO_FACTORS : multipliersFor(cr, at.ev, at.ms, tierIn(state, cr.currency));
      // Stryker disable next-line ConditionalExpression: equivalent, NO_FACTORS.applied is empty; a fresh list keeps the shared one out of the ledger
      payAward(run, state, { kind: "base", at, cr, milestoneId: null, basePoints, factors: m.factors, multipliers: m === NO_FACTORS ? [] : m.applied });
    }
    // Milestones are fixed bonuses: they are not multiplied, and the paid list makes each one pay once.
    for (const m of cr.milestones) {
      if (progress.milestones.includes(m.id)) continue;
      if ((m.metric === "count" ? count : total).lt(m.level)) continue;
      progress.milestones.push(m.id);
      payAward(run, state, { kind: "milestone", at, cr, milestoneId: m.id, basePoints: m.points, factors: [], multipliers: [] });
    }
  }
}

/**
 * Applies events to prior state: the engine's one entry point for the worker. Pure and
 * deterministic; inputs are never mutated. Events whose seq is at or below their user's
 * `lastSeq` are skipped, so applying a batch twice changes nothing.
 *
 * Throws ValidationError for a structurally broken event or state, and ConflictError
 * `ordering-violation` when a budgeted campaign's events arrive out of global log order.
 */
export function applyEvents(input: ApplyInput): ApplyResult {
  const c = compile(input.rules);
  const window = compileWindow(input.campaignWindow);
  const run: Run = {
    ruleVersion: c.rv.version,
    campaign: loadCampaign(c, input.campaign),
    entries: [],
    book: new DeltaBook(),
  };
  const users = new Map<string, UserState>();
  const skipped: SkippedEvent[] = [];
  const rejected: RejectedEvent[] = [];
  const outsideCampaign: OutsideCampaignEvent[] = [];
  let prev: { seq: bigint; id: string } | undefined;

  input.events.forEach((raw, index) => {
    const seq = checkEvent(raw, index, c.rv.campaignId);
    if (prev && (seq < prev.seq || (seq === prev.seq && raw.id !== prev.id))) {
      fail(`events[${index}].seq ${raw.seq} must be greater than the previous event's seq ${prev.seq}`, `events[${index}].seq`, "events-out-of-order");
    }
    prev = { seq, id: raw.id };
    const ev: RawEvent = { ...raw, seq: seq.toString() };
    let state = users.get(ev.userId);
    if (!state) {
      state = loadUser(input.users, ev.userId, c.rv.version);
      users.set(ev.userId, state);
    }
    if (state.lastSeq !== null && seq <= BigInt(state.lastSeq)) {
      skipped.push({ eventId: ev.id, seq: ev.seq, userId: ev.userId, reason: "already-applied" });
      return;
    }
    const campaign = run.campaign;
    if (campaign && campaign.lastSeq !== null && seq <= BigInt(campaign.lastSeq)) {
      throw new ConflictError(
        "ordering-violation",
        `events[${index}].seq ${ev.seq} is not after the campaign's last applied seq ${campaign.lastSeq}; a budgeted campaign must be applied in global log order`,
        { details: { eventId: ev.id, seq: ev.seq, campaignLastSeq: campaign.lastSeq } },
      );
    }
    state.lastSeq = ev.seq;
    if (campaign) campaign.lastSeq = ev.seq;

    const base = { eventId: ev.id, seq: ev.seq, userId: ev.userId };
    if (!isDecimalString(ev.amount)) {
      const message = `amount must be a non-negative decimal string of at most ${MAX_DECIMAL_LENGTH} characters, got "${ev.amount.slice(0, 40)}"`;
      rejected.push({ ...base, code: "amount-invalid", message });
      return;
    }
    const ms = parseTime(ev.occurredAt);
    if (ms === undefined) {
      rejected.push({ ...base, code: "occurred-at-invalid", message: `occurredAt must be an ISO 8601 time, got "${ev.occurredAt.slice(0, 40)}"` });
      return;
    }
    if (window && (ms < window.from || ms >= window.until)) {
      outsideCampaign.push(base);
      return;
    }
    scoreEvent(run, c, state, { ev, ms, iso: new Date(ms).toISOString(), amount: fx(ev.amount) });
  });

  return {
    entries: run.entries,
    users: Object.fromEntries(users),
    campaign: run.campaign,
    scoreDeltas: run.book.list(),
    skipped,
    rejected,
    outsideCampaign,
  };
}
