// The fixed-point engine gives the same digits and errors as the decimal.js reference, for any input.
import fc from "fast-check";
import { EVENT_TYPES, logArb, ruleVersionArb, START, splitsArb, USERS } from "../test/arbitraries";
import { CAMPAIGN, LOGIN, SWAP } from "../test/fixtures";
import { applyEvents as referenceApply } from "../test/reference/engine";
import {
  type ApplyInput,
  type ApplyResult,
  applyEvents,
  parseRuleVersion,
  type RawEvent,
  type RuleVersion,
  type RuleVersionInput,
  type UserState,
} from "./index";

/*
 * The engine computes with bigint fixed-point numbers; test/reference holds the engine as it was
 * with decimal.js. Both must print the same digits, keep the same state and fail the same way for
 * every input, so the worker's stored data does not depend on which of them wrote it.
 *
 * The reference predates event-time scoring: it writes state format 1 (one period per cap, no
 * cooldown spans) and charged a late event to the period already reached. So the logs here are in
 * event-time order, where both rules agree, and the engine's state is compared in format 1's shape
 * (each cap's latest period, no spans). Late events are checked against replays and brute force in
 * properties.test.ts, late-events.test.ts and cooldown.test.ts.
 */

const mapValues = <T, U>(rec: Record<string, T>, f: (v: T) => U): Record<string, U> => Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, f(v)]));

/** A format-2 user state as format 1 would have held it, for logs in event-time order. */
function asFormat1(state: UserState): unknown {
  return {
    format: 1,
    ruleVersion: state.ruleVersion,
    lastSeq: state.lastSeq,
    currencies: state.currencies,
    rules: mapValues(state.rules, ({ spans: _spans, ...progress }) => progress),
    caps: mapValues(state.caps, (periods) => {
      const period = Object.keys(periods).sort().at(-1) as string;
      return { period, used: periods[period] };
    }),
  };
}

/** The engine's result in the reference's shape: format-1 states, no outsideCampaign list (always empty here). */
function inReferenceShape(result: ApplyResult): unknown {
  const { outsideCampaign, ...rest } = result;
  if (outsideCampaign.length > 0) throw new Error("no campaign window was given, yet events were outside it");
  return { ...rest, users: mapValues(rest.users, asFormat1), campaign: rest.campaign && { ...rest.campaign, format: 1 } };
}

type Outcome = { ok: true; json: string } | { ok: false; error: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, json: JSON.stringify(run()) };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; field?: string; details?: unknown };
    return { ok: false, error: JSON.stringify([e.name, e.code, e.message, e.field, e.details]) };
  }
}

/** Applies the log batch by batch through both engines, states through JSON as the worker stores them; every batch must agree. */
function agree(rules: RuleVersion, events: readonly RawEvent[], cuts: readonly number[], corrupt?: (users: Record<string, unknown>) => void): void {
  let users: Record<string, unknown> = {};
  let campaign: unknown = null;
  let from = 0;
  for (const cut of [...cuts, events.length]) {
    if (cut <= from && events.length > 0) continue;
    const input = { rules, events: events.slice(from, cut), users, campaign } as unknown as ApplyInput;
    from = cut;
    corrupt?.(users);
    // Each engine gets its own copy, so neither can see what the other did to its input.
    const copy = () => JSON.parse(JSON.stringify({ users: input.users, campaign: input.campaign }));
    const want = outcome(() => referenceApply({ ...input, ...copy() }));
    const got = outcome(() => inReferenceShape(applyEvents({ ...input, ...copy() })));
    expect(got).toEqual(want);
    if (!want.ok) return;
    const result = JSON.parse(want.json);
    users = { ...users, ...result.users };
    campaign = result.campaign;
  }
}

// Decimal strings of every shape the schema accepts: leading and trailing zeros, long integer and fraction parts.
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
const wideDecimal = (maxInt: number, maxFrac: number) =>
  fc.tuple(digits(1, maxInt), fc.option(digits(1, maxFrac), { nil: undefined })).map(([i, f]) => (f === undefined ? i : `${i}.${f}`));
const positive = (maxInt: number, maxFrac: number) => wideDecimal(maxInt, maxFrac).filter((s) => /[1-9]/.test(s));
const iso = (hours: number) => new Date(START + hours * 3_600_000).toISOString();

const wideRules: fc.Arbitrary<RuleVersion> = fc
  .record({
    decimals: fc.array(fc.integer({ min: 0, max: 18 }), { minLength: 2, maxLength: 2 }),
    perUnit: fc.boolean(),
    points: positive(6, 20),
    factors: fc.array(wideDecimal(4, 30), { maxLength: 4 }),
    idFactor: wideDecimal(3, 25),
    tierSteps: fc.array(positive(5, 12), { minLength: 1, maxLength: 3 }),
    tierFactor: fc.option(wideDecimal(2, 20), { nil: undefined }),
    capLimit: fc.option(positive(7, 25), { nil: undefined }),
    budget: fc.option(wideDecimal(8, 22), { nil: undefined }),
    decay: fc.option(fc.constantFrom(3600, 86_400), { nil: undefined }),
    share: fc.option(
      fc.oneof(
        fc.constant("1"),
        digits(1, 30).map((d) => `0.${d}1`),
      ),
      { nil: undefined },
    ),
    milestone: fc.option(fc.record({ metric: fc.constantFrom("amount" as const, "count" as const), level: positive(3, 10), points: positive(5, 25) }), {
      nil: undefined,
    }),
    minAmount: fc.option(wideDecimal(2, 30), { nil: undefined }),
  })
  .map((g) => {
    let min = "0";
    const tiers = g.tierSteps.map((step, i) => {
      // Strictly increasing: the previous integer part, a 1, then the step's digits.
      min = i === 0 ? "0" : `${min.split(".")[0]}1${step}`;
      return { key: `t${i}`, name: `T${i}`, minLifetime: min, ...(i > 0 && g.tierFactor ? { multiplier: g.tierFactor } : {}) };
    });
    const input: RuleVersionInput = {
      campaignId: CAMPAIGN,
      version: 1,
      primaryCurrency: "xp",
      currencies: {
        xp: {
          name: "XP",
          decimals: g.decimals[0],
          tiers,
          ...(g.capLimit ? { caps: [{ period: "day" as const, limit: g.capLimit }] } : {}),
          ...(g.decay ? { decay: { halfLifeSeconds: g.decay, epoch: iso(0) } } : {}),
        },
        gems: { name: "Gems", decimals: g.decimals[1], ...(g.budget ? { budget: g.budget } : {}) },
      },
      rules: [
        {
          id: "wide",
          regEventId: SWAP,
          currency: "xp",
          base: { kind: g.perUnit ? "perUnit" : "fixed", points: g.points },
          ...(g.minAmount ? { minAmount: g.minAmount } : {}),
          ...(g.milestone ? { milestones: [{ id: "m", ...g.milestone }] } : {}),
          multipliers: [
            ...g.factors.map((factor) => ({ kind: "constant" as const, factor })),
            { kind: "identityType", factors: { EMAIL: g.idFactor } },
            ...(g.tierFactor ? [{ kind: "tier" as const, factors: { t0: g.tierFactor } }] : []),
          ],
        },
        { id: "gems", regEventId: LOGIN, currency: "gems", base: { kind: "perUnit", points: g.points }, caps: [{ period: "week", limit: "1000.5" }] },
      ],
      ...(g.share ? { referral: { shares: { xp: g.share, gems: g.share } } } : {}),
    };
    return parseRuleVersion(input);
  });

const wideLog: fc.Arbitrary<RawEvent[]> = fc
  .array(
    fc.record({
      user: fc.constantFrom(...USERS),
      referrer: fc.option(fc.constantFrom(...USERS), { nil: undefined }),
      type: fc.constantFrom(...EVENT_TYPES, SWAP.toUpperCase()),
      amount: fc.oneof({ arbitrary: wideDecimal(30, 40), weight: 8 }, { arbitrary: fc.constantFrom("-1", "1e5", "", "1.", " 1", "9".repeat(101)), weight: 1 }),
      identityType: fc.constantFrom("EVM_ADDRESS", "EMAIL"),
      hours: fc.integer({ min: 0, max: 24 * 20 }),
      offset: fc.constantFrom("Z", "+02:00", "-05:30", "bad"),
      repeat: fc.boolean(),
    }),
    { maxLength: 30 },
  )
  .map((drawn) => {
    const out: RawEvent[] = [];
    // In event-time order (see the note at the top): the wall-clock hours plus what each offset adds.
    const shift: Record<string, number> = { Z: 0, "+02:00": -2, "-05:30": 5.5, bad: 0 };
    const steps = [...drawn].sort((a, b) => a.hours + (shift[a.offset] ?? 0) - (b.hours + (shift[b.offset] ?? 0)));
    steps.forEach((s, i) => {
      const at = new Date(START + s.hours * 3_600_000);
      const occurredAt = s.offset === "Z" ? at.toISOString() : s.offset === "bad" ? "not a time" : at.toISOString().replace("Z", s.offset);
      const ev: RawEvent = {
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`,
        seq: i % 3 === 0 ? `00${i + 1}` : String(i + 1),
        campaignId: CAMPAIGN,
        userId: s.user,
        regEventId: s.type,
        identityType: s.identityType,
        amount: s.amount,
        occurredAt,
        ...(s.referrer ? { referrerId: s.referrer } : {}),
      };
      out.push(ev);
      // A repeat of the same event (same seq and id) is a delivery the engine must skip.
      if (s.repeat) out.push({ ...ev });
    });
    return out;
  });

describe("the fixed-point engine equals the decimal.js engine", () => {
  it("on random rule versions and logs, applied in random batches", () => {
    fc.assert(
      fc.property(
        ruleVersionArb,
        logArb({ skew: false }).chain((events) => fc.tuple(fc.constant(events), splitsArb(events.length))),
        (rules, [events, cuts]) => agree(rules, events, cuts),
      ),
      { numRuns: 300 },
    );
  });

  it("on long decimals in every setting and amount, odd times and seqs, repeats and invalid amounts", () => {
    fc.assert(
      fc.property(
        wideRules,
        wideLog.chain((events) => fc.tuple(fc.constant(events), splitsArb(events.length))),
        (rules, [events, cuts]) => agree(rules, events, cuts),
      ),
      { numRuns: 300 },
    );
  });

  it("on stored states that are not valid, failing with the same error", () => {
    const corruptions: ((s: Record<string, unknown>) => void)[] = [
      (s) => Object.assign(s, { lastSeq: "x" }),
      (s) => Object.assign(s, { extra: 1 }),
      (s) => Object.assign(s, { ruleVersion: 1.5 }),
      (s) => Object.assign(s, { caps: { "currency:xp:day": { period: "2025-03-01", used: "-1" } } }),
      (s) => Object.assign(s, { rules: { r1: { count: "1", amount: "1", lastAt: null, milestones: [1] } } }),
      (s) => Object.assign(s, { currencies: { xp: { lifetime: "1", tier: 3 } } }),
      (s) => Object.assign(s, { currencies: [] }),
      (s) => delete s.caps,
    ];
    fc.assert(
      fc.property(ruleVersionArb, logArb({ skew: false, maxLength: 12 }), fc.integer({ min: 0, max: corruptions.length - 1 }), (rules, events, which) => {
        agree(rules, events, [Math.floor(events.length / 2)], (users) => {
          for (const state of Object.values(users)) corruptions[which]?.(state as Record<string, unknown>);
        });
      }),
      { numRuns: 100 },
    );
  });

  it("on products of more than 2000 significant digits, rounded as decimal.js rounds them", () => {
    // 99-digit factors, so the product's integer part alone is far longer than 2000 digits.
    const factors = [`${"9".repeat(98)}7`, `${"9".repeat(60)}.${"3".repeat(38)}1`];
    const rules = parseRuleVersion({
      campaignId: CAMPAIGN,
      version: 1,
      primaryCurrency: "xp",
      currencies: { xp: { name: "XP", decimals: 18, decay: { halfLifeSeconds: 3600, epoch: iso(0) } } },
      rules: [
        {
          id: "long",
          regEventId: SWAP,
          currency: "xp",
          base: { kind: "perUnit", points: `${"9".repeat(50)}.${"3".repeat(49)}` },
          multipliers: Array.from({ length: 25 }, (_, i) => ({ kind: "constant" as const, factor: factors[i % 2] as string })),
        },
      ],
      referral: { shares: { xp: `0.${"9".repeat(98)}` } },
    });
    const events: RawEvent[] = [1, 2, 3].map((i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      seq: String(i),
      campaignId: CAMPAIGN,
      userId: "u1",
      referrerId: "u2",
      regEventId: SWAP,
      identityType: "EVM_ADDRESS",
      amount: `${"8".repeat(40)}.${"1".repeat(40)}`,
      occurredAt: iso(i * 1000),
    }));
    agree(rules, events, [1]);
    // The case is only worth having if the product really is that long: an integer of over 2000
    // digits whose digits beyond the 2000th were rounded away.
    const points = applyEvents({ rules, events }).entries[0]?.points ?? "";
    expect(points).toMatch(/^\d+$/);
    expect(points.length).toBeGreaterThan(2050);
    expect(points.slice(2000)).toMatch(/^0+$/);
  });
});
