// fast-check generators for the engine's property tests: random rule versions, campaign logs and batch splits.
import fc from "fast-check";
import { type CampaignWindow, parseRuleVersion, type RawEvent, type RuleVersion, type RuleVersionInput } from "../src/index";
import { CAMPAIGN, LOGIN, SWAP } from "./fixtures";

/** A third event type no rule uses, plus the ones rules use. */
export const EVENT_TYPES = [SWAP, LOGIN, "44444444-4444-4444-8444-444444444444"] as const;
/** The users random logs are made of. */
export const USERS = ["u1", "u2", "u3", "u4"] as const;
/** Where random logs start; also the decay epoch. */
export const START = Date.parse("2025-03-01T00:00:00Z");

function plain(n: number, places: number): string {
  const s = (n / 10 ** places).toFixed(places);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}
const dec = (max: number, places: number) => fc.integer({ min: 1, max: max * 10 ** places }).map((n) => plain(n, places));
const factor = fc.constantFrom("0", "0.5", "1", "1.25", "1.5", "2", "3", "1.1", "0.9", "2.5");
const cap = (periods: readonly ("day" | "week" | "month" | "campaign")[]) =>
  fc.uniqueArray(fc.constantFrom(...periods), { maxLength: 2 }).chain((ps) => fc.tuple(...ps.map((p) => dec(60, 1).map((limit) => ({ period: p, limit })))));
const iso = (offsetHours: number) => new Date(START + offsetHours * 3_600_000).toISOString();

const window = fc
  .record(
    {
      days: fc.uniqueArray(fc.constantFrom("mon", "tue", "wed", "thu", "fri", "sat", "sun" as const), { minLength: 1, maxLength: 4 }),
      hours: fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 1, max: 24 }))
        .filter(([a, b]) => a !== b)
        .map(([from, to]) => ({ from, to })),
    },
    { requiredKeys: [] },
  )
  .filter((w) => w.days !== undefined || w.hours !== undefined);

const multiplier = fc.oneof(
  factor.map((f) => ({ kind: "constant" as const, factor: f })),
  fc
    .tuple(factor, fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 200 }))
    .map(([f, a, len]) => ({ kind: "window" as const, factor: f, from: iso(a), until: iso(a + len) })),
  fc.tuple(factor, window).map(([f, w]) => ({ kind: "recurring" as const, factor: f, window: w })),
  fc.record({ EVM_ADDRESS: factor, EMAIL: factor }, { requiredKeys: [] }).map((factors) => ({ kind: "identityType" as const, factors })),
  fc.record({ silver: factor, gold: factor }, { requiredKeys: [] }).map((factors) => ({ kind: "tier" as const, factors })),
);

const milestone = fc.record({
  metric: fc.constantFrom("amount" as const, "count" as const),
  level: dec(30, 1),
  points: dec(20, 1),
});

/** Present one time in `1 + absentWeight` (undefined otherwise), so restrictive features do not starve the log. */
function sometimes<T>(arb: fc.Arbitrary<T>, absentWeight = 3): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary: arb, weight: 1 });
}

/** Every rule gets a cooldown and a cap (as often as not they are absent otherwise). */
const limited = <T>(arb: fc.Arbitrary<T>, always: boolean, absentWeight?: number) => (always ? arb : sometimes(arb, absentWeight));

function rule(id: string, currency: "xp" | "gems", timeLimited: boolean) {
  return fc
    .record({
      regEventId: fc.constantFrom(SWAP, LOGIN),
      base: sometimes(fc.record({ kind: fc.constantFrom("perUnit" as const, "fixed" as const), points: dec(5, 2) }), 1),
      minAmount: sometimes(dec(3, 1)),
      milestones: fc.array(milestone, { maxLength: 2 }).map((ms) => ms.map((m, i) => ({ id: `m${i}`, ...m }))),
      multipliers: fc.array(multiplier, { maxLength: 3 }),
      active: sometimes(fc.tuple(fc.integer({ min: -50, max: 100 }), fc.integer({ min: 24, max: 800 }))),
      schedule: sometimes(fc.array(window, { minLength: 1, maxLength: 2 })),
      cooldownSeconds: limited(fc.integer({ min: 60, max: 20_000 }), timeLimited),
      caps: limited(
        cap(["day", "week", "month", "campaign"]).filter((caps) => !timeLimited || caps.some((c) => c.period !== "campaign")),
        timeLimited,
        1,
      ),
    })
    .map(({ active, base, milestones, ...r }) => {
      const out: Record<string, unknown> = { id, currency, regEventId: r.regEventId, milestones, multipliers: r.multipliers };
      // A rule needs a base or a milestone; fall back to a fixed base when neither was drawn.
      out.base = base ?? (milestones.length === 0 ? { kind: "fixed", points: "1" } : undefined);
      for (const k of ["minAmount", "schedule", "cooldownSeconds", "caps"] as const) if (r[k] !== undefined) out[k] = r[k];
      if (active) Object.assign(out, { activeFrom: iso(active[0]), activeUntil: iso(active[0] + active[1]) });
      if (out.base === undefined) delete out.base;
      return out as RuleVersionInput["rules"][number];
    });
}

/** Random rule versions that use every rule kind, alone and combined. */
export const ruleVersionArb: fc.Arbitrary<RuleVersion> = ruleVersionsArb(false);

/** Random rule versions whose every rule has a cooldown and a cap by day, week or month: where late events matter most. */
export const timeLimitedRuleVersionArb: fc.Arbitrary<RuleVersion> = ruleVersionsArb(true);

function ruleVersionsArb(timeLimited: boolean): fc.Arbitrary<RuleVersion> {
  return fc
    .record(
      {
        xpDecimals: fc.integer({ min: 0, max: 3 }),
        decay: fc.constantFrom(3600, 86_400, 604_800).map((halfLifeSeconds) => ({ halfLifeSeconds, epoch: iso(0) })),
        xpCaps: cap(["day", "week", "campaign"]),
        budget: dec(200, 1),
        rules: fc
          .tuple(rule("r1", "xp", timeLimited), rule("r2", "xp", timeLimited), rule("r3", "gems", timeLimited))
          .chain((rs) => fc.subarray(rs, { minLength: 1 })),
        referral: fc.record({ xp: fc.constantFrom("0.1", "0.5", "1"), gems: fc.constantFrom("0.25") }, { requiredKeys: [] }),
      },
      { requiredKeys: ["xpDecimals", "rules", "referral"] },
    )
    .map((g) => {
      const input: RuleVersionInput = {
        campaignId: CAMPAIGN,
        version: 1,
        primaryCurrency: "xp",
        currencies: {
          xp: {
            name: "Experience",
            decimals: g.xpDecimals,
            ...(g.decay ? { decay: g.decay } : {}),
            ...(g.xpCaps ? { caps: g.xpCaps } : {}),
            ...(g.budget ? { budget: g.budget } : {}),
            tiers: [
              { key: "bronze", name: "Bronze", minLifetime: "0" },
              { key: "silver", name: "Silver", minLifetime: "10", multiplier: "1.5" },
              { key: "gold", name: "Gold", minLifetime: "40", multiplier: "2" },
            ],
          },
          gems: { name: "Gems", decimals: 0 },
        },
        // Tier multipliers only make sense in xp, the currency with tiers.
        rules: g.rules.map((r) => (r.currency === "gems" ? { ...r, multipliers: r.multipliers?.filter((m) => m.kind !== "tier") } : r)),
        ...(g.referral ? { referral: { shares: g.referral } } : {}),
      };
      return parseRuleVersion(input);
    });
}

/** How a random log places its events in time. */
export interface LogOptions {
  /** Receive-time skew of up to 2 minutes behind the clock. */
  skew: boolean;
  maxLength?: number;
  /**
   * Late events: about a third of the events occurred earlier than the clock, up to three weeks
   * back (a backfill interleaved with live traffic), or at or within an hour of an earlier event's time.
   */
  late?: boolean;
}

const LATE = fc.oneof(
  { arbitrary: fc.constant({ kind: "now" as const }), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 21 * 86_400 }).map((seconds) => ({ kind: "back" as const, seconds })), weight: 1 },
  { arbitrary: fc.nat().map((pick) => ({ kind: "tie" as const, pick, seconds: 0 })), weight: 1 },
  {
    arbitrary: fc.tuple(fc.nat(), fc.integer({ min: -3600, max: 3600 })).map(([pick, seconds]) => ({ kind: "tie" as const, pick, seconds })),
    weight: 1,
  },
);

/**
 * Random campaign logs: seq 1..n, mostly increasing event times (a little skew, or late events,
 * when asked), and referral links that start part-way through the log (events from that position
 * on carry the referrer).
 */
export function logArb(options: LogOptions = { skew: true }): fc.Arbitrary<RawEvent[]> {
  const step = fc.record({
    user: fc.constantFrom(...USERS),
    type: fc.constantFrom(...EVENT_TYPES),
    amount: fc.oneof(dec(20, 2), fc.constant("0"), fc.constant("1")),
    identityType: fc.constantFrom("EVM_ADDRESS", "EMAIL", "X_PROVIDER_ID"),
    advanceSeconds: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 3 * 86_400 })),
    skewSeconds: options.skew ? fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 120 })) : fc.constant(0),
    late: options.late ? LATE : fc.constant({ kind: "now" as const }),
  });
  const link = fc.record({ referee: fc.constantFrom(...USERS), referrer: fc.constantFrom(...USERS), from: fc.integer({ min: 0, max: 15 }) });
  const steps = fc.array(step, { maxLength: options.maxLength ?? 40, size: "medium" });
  return fc.tuple(steps, fc.array(link, { maxLength: 5 })).map(([list, links]) => {
    let clock = START;
    const times: number[] = [];
    return list.map((s, i) => {
      clock += s.advanceSeconds * 1000;
      let at = clock - s.skewSeconds * 1000;
      if (s.late.kind === "back") at = clock - s.late.seconds * 1000;
      // At (or near) the time of an earlier event: ties, and times either side of one already counted.
      if (s.late.kind === "tie" && times.length > 0) at = (times[s.late.pick % times.length] as number) + s.late.seconds * 1000;
      times.push(at);
      const referrer = links.find((l) => l.referee === s.user && i >= l.from)?.referrer;
      return {
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`,
        seq: String(i + 1),
        campaignId: CAMPAIGN,
        userId: s.user,
        regEventId: s.type,
        identityType: s.identityType,
        amount: s.amount,
        occurredAt: new Date(at).toISOString(),
        ...(referrer === undefined ? {} : { referrerId: referrer }),
      };
    });
  });
}

/**
 * Random campaign windows around the logs above (starting from three weeks before START to ten
 * days after it, up to 90 days long): open or closed on either side, or (a third of the time) none.
 */
export const campaignWindowArb: fc.Arbitrary<CampaignWindow | undefined> = fc.option(
  fc
    .tuple(fc.option(fc.integer({ min: -21 * 24, max: 10 * 24 }), { nil: null }), fc.option(fc.integer({ min: 1, max: 90 * 24 }), { nil: null }))
    .map(([start, length]) => ({
      startsAt: start === null ? null : iso(start),
      endsAt: length === null ? null : iso((start ?? 0) + length),
    })),
  { nil: undefined, freq: 2 },
);

/** Cut points that split a list of length n into consecutive non-empty batches. */
export function splitsArb(n: number): fc.Arbitrary<number[]> {
  return fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: Math.max(0, n - 1) })
    .map((cuts) => cuts.filter((c) => c < n).sort((a, b) => a - b));
}
