// Invariants over random logs: caps and budgets never exceeded, paid + capped = points, milestones paid once.
import Decimal from "decimal.js";
import fc from "fast-check";
import { campaignWindowArb, logArb, ruleVersionArb, splitsArb, timeLimitedRuleVersionArb } from "../test/arbitraries";
import { applyEvents, type LedgerEntry, type RawEvent, type RuleVersion, replayCampaign, type UserState } from "./index";

const RUNS = 150;

// Period keys computed here independently of the engine's periodKey.
function periodOf(period: string, iso: string): string {
  const ms = Date.parse(iso);
  const days = Math.floor(ms / 86_400_000);
  switch (period) {
    case "day":
      return String(days);
    case "week":
      // 1970-01-01 was a Thursday, three days after a Monday.
      return String(days - ((days + 3) % 7));
    case "month": {
      const d = new Date(ms);
      return `${d.getUTCFullYear()}-${d.getUTCMonth()}`;
    }
    default:
      return "all";
  }
}

function sums(entries: readonly LedgerEntry[], keyOf: (e: LedgerEntry) => string | undefined): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const e of entries) {
    const k = keyOf(e);
    if (k !== undefined) out.set(k, (out.get(k) ?? new Decimal(0)).add(e.paid));
  }
  return out;
}

function checkCaps(rv: RuleVersion, entries: readonly LedgerEntry[]): void {
  const own = entries.filter((e) => e.kind !== "referral");
  for (const rule of rv.rules) {
    for (const cap of rule.caps ?? []) {
      const used = sums(own, (e) => (e.ruleId === rule.id ? `${e.userId}|${periodOf(cap.period, e.occurredAt)}` : undefined));
      for (const total of used.values()) expect(total.lte(cap.limit)).toBe(true);
    }
  }
  for (const [key, currency] of Object.entries(rv.currencies)) {
    for (const cap of currency.caps ?? []) {
      const used = sums(own, (e) => (e.currency === key ? `${e.userId}|${periodOf(cap.period, e.occurredAt)}` : undefined));
      for (const total of used.values()) expect(total.lte(cap.limit)).toBe(true);
    }
    if (currency.budget !== undefined) {
      const spent = sums(entries, (e) => (e.currency === key ? key : undefined)).get(key) ?? new Decimal(0);
      expect(spent.lte(currency.budget)).toBe(true);
    }
  }
}

function checkEntry(rv: RuleVersion, e: LedgerEntry): void {
  const paid = new Decimal(e.paid);
  expect(paid.isNegative()).toBe(false);
  expect(paid.add(e.capped).eq(e.points)).toBe(true);
  expect(paid.decimalPlaces()).toBeLessThanOrEqual(rv.currencies[e.currency]?.decimals ?? -1);
  expect(e.cappedBy.length > 0).toBe(!new Decimal(e.capped).isZero());
}

describe("invariants", () => {
  it("caps and budgets are never exceeded, per user and period (receive times in order)", () => {
    fc.assert(
      fc.property(ruleVersionArb, logArb({ skew: false }), (rv, events) => {
        const { entries } = replayCampaign(rv, events);
        checkCaps(rv, entries);
        for (const e of entries) checkEntry(rv, e);
      }),
      { numRuns: RUNS },
    );
  });

  it("with late events, caps hold per period of event time, cooldown rules count events at least the cooldown apart, nothing is paid outside the campaign window", () => {
    fc.assert(
      fc.property(fc.oneof(ruleVersionArb, timeLimitedRuleVersionArb), logArb({ skew: true, late: true }), campaignWindowArb, (rv, events, window) => {
        const { entries, outsideCampaign } = replayCampaign(rv, events, window);
        checkCaps(rv, entries);
        for (const e of entries) checkEntry(rv, e);
        // Base entries belong to counted events; any two of one rule and user must be a cooldown apart.
        for (const rule of rv.rules) {
          if (rule.cooldownSeconds === undefined) continue;
          const times = new Map<string, number[]>();
          for (const e of entries) {
            if (e.kind !== "base" || e.ruleId !== rule.id) continue;
            const list = times.get(e.userId) ?? [];
            list.push(Date.parse(e.occurredAt));
            times.set(e.userId, list);
          }
          for (const list of times.values()) {
            const sorted = [...list].sort((a, b) => a - b);
            for (let i = 1; i < sorted.length; i++)
              expect((sorted[i] as number) - (sorted[i - 1] as number)).toBeGreaterThanOrEqual(rule.cooldownSeconds * 1000);
          }
        }
        const from = window?.startsAt ? Date.parse(window.startsAt) : Number.NEGATIVE_INFINITY;
        const until = window?.endsAt ? Date.parse(window.endsAt) : Number.POSITIVE_INFINITY;
        for (const e of entries) expect(Date.parse(e.occurredAt) >= from && Date.parse(e.occurredAt) < until).toBe(true);
        const outside = events.filter((e) => Date.parse(e.occurredAt) < from || Date.parse(e.occurredAt) >= until).map((e) => e.seq);
        expect(outsideCampaign.map((o) => o.seq)).toEqual(outside);
      }),
      { numRuns: RUNS },
    );
  });

  it("a campaign budget is never exceeded even with clock skew, and each entry's paid + capped = points", () => {
    fc.assert(
      fc.property(ruleVersionArb, logArb({ skew: true }), (rv, events) => {
        const { entries } = replayCampaign(rv, events);
        for (const [key, currency] of Object.entries(rv.currencies)) {
          if (currency.budget === undefined) continue;
          const spent = sums(entries, (e) => (e.currency === key ? key : undefined)).get(key) ?? new Decimal(0);
          expect(spent.lte(currency.budget)).toBe(true);
        }
        for (const e of entries) checkEntry(rv, e);
      }),
      { numRuns: RUNS },
    );
  });

  it("each milestone is paid at most once per user, across batches and redeliveries, and only once its level is reached", () => {
    const arb = fc.tuple(ruleVersionArb, logArb()).chain(([rv, events]) => fc.tuple(fc.constant(rv), fc.constant(events), splitsArb(events.length)));
    fc.assert(
      fc.property(arb, ([rv, events, cuts]) => {
        let users: Record<string, UserState> = {};
        let campaign = null;
        const entries: LedgerEntry[] = [];
        let from = 0;
        for (const cut of [...cuts, events.length]) {
          // Every batch re-sends the whole log so far: only the new part may pay.
          const batch: RawEvent[] = events.slice(0, cut);
          const r = applyEvents({ rules: rv, events: batch, users, campaign });
          users = { ...users, ...r.users };
          campaign = r.campaign;
          entries.push(...r.entries);
          expect(r.skipped).toHaveLength(from);
          from = cut;
        }
        const milestones = entries.filter((e) => e.kind === "milestone");
        const keys = milestones.map((e) => `${e.userId}|${e.ruleId}|${e.milestoneId}`);
        expect(new Set(keys).size).toBe(keys.length);
        for (const m of milestones) {
          const rule = rv.rules.find((r) => r.id === m.ruleId);
          const level = rule?.milestones?.find((x) => x.id === m.milestoneId);
          const reached = users[m.userId]?.rules[m.ruleId];
          if (!level || !reached) throw new Error("milestone entry without its rule or progress");
          expect(new Decimal(level.metric === "count" ? reached.count : reached.amount).gte(level.level)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
