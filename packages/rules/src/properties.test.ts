// Properties: any batch split, redelivery or per-user order gives the same result as one full replay.
import fc from "fast-check";
import { logArb, ruleVersionArb, splitsArb, USERS } from "../test/arbitraries";
import { applyInBatches } from "../test/batches";
import { type LedgerEntry, mergeScoreDeltas, needsGlobalOrder, replayCampaign, type ScoreRow } from "./index";

const RUNS = 150;

const byKey = (a: LedgerEntry, b: LedgerEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

describe("properties", () => {
  it("applying a log in any batch split, with state through JSON, equals one full replay", () => {
    const arb = fc.tuple(ruleVersionArb, logArb()).chain(([rv, events]) => fc.tuple(fc.constant(rv), fc.constant(events), splitsArb(events.length)));
    fc.assert(
      fc.property(arb, ([rv, events, cuts]) => {
        const replay = replayCampaign(rv, events);
        const batched = applyInBatches(rv, events, cuts);
        expect(batched.rows).toEqual(replay.rows);
        expect(batched.entries).toEqual(replay.entries);
        expect(batched.users).toEqual(replay.users);
        expect(batched.campaign).toEqual(replay.campaign);
      }),
      { numRuns: RUNS },
    );
  });

  it("redelivered and duplicated events change nothing: batches that re-send applied events equal the replay", () => {
    const arb = fc
      .tuple(ruleVersionArb, logArb())
      .chain(([rv, events]) =>
        fc.tuple(
          fc.constant(rv),
          fc.constant(events),
          splitsArb(events.length),
          fc.array(fc.boolean(), { minLength: events.length, maxLength: events.length }),
        ),
      );
    fc.assert(
      fc.property(arb, ([rv, events, cuts, redeliver]) => {
        const replay = replayCampaign(rv, events);
        const batched = applyInBatches(rv, events, cuts, redeliver);
        expect(batched.rows).toEqual(replay.rows);
        expect(batched.entries).toEqual(replay.entries);
      }),
      { numRuns: RUNS },
    );
  });

  it("without a budget, applying each user's events on their own, users in any order, equals the replay", () => {
    const arb = fc
      .tuple(
        ruleVersionArb.filter((rv) => !needsGlobalOrder(rv)),
        logArb(),
      )
      .chain(([rv, events]) =>
        fc.tuple(
          fc.constant(rv),
          fc.constant(events),
          fc.shuffledSubarray([...USERS], { minLength: USERS.length }),
          fc.array(splitsArb(events.length), { minLength: USERS.length, maxLength: USERS.length }),
        ),
      );
    fc.assert(
      fc.property(arb, ([rv, events, order, cutsPerUser]) => {
        const replay = replayCampaign(rv, events);
        let rows: ScoreRow[] = [];
        const entries: LedgerEntry[] = [];
        order.forEach((user, i) => {
          const own = events.filter((e) => e.userId === user);
          const part = applyInBatches(
            rv,
            own,
            (cutsPerUser[i] ?? []).filter((c) => c < own.length),
          );
          // Only additions reach the rows, so this user's deltas are re-derived from its partial rows.
          rows = mergeScoreDeltas(
            rows,
            part.rows.map((r) => ({
              userId: r.userId,
              currency: r.currency,
              score: r.score,
              referralScore: r.referralScore,
              lifetime: r.lifetime,
              ...(r.userId === user ? { tier: r.tier } : {}),
              reachedAt: r.reachedAt ?? "",
            })),
          );
          entries.push(...part.entries);
        });
        expect(rows).toEqual(replay.rows);
        expect(entries.sort(byKey)).toEqual([...replay.entries].sort(byKey));
      }),
      { numRuns: RUNS },
    );
  });

  it("is deterministic: the same log and rules (even a fresh copy of the rules) give identical results", () => {
    fc.assert(
      fc.property(ruleVersionArb, logArb(), (rv, events) => {
        const snapshot = JSON.stringify(events);
        const a = replayCampaign(rv, events);
        const b = replayCampaign(JSON.parse(JSON.stringify(rv)), events);
        expect(b).toEqual(a);
        expect(JSON.stringify(events)).toBe(snapshot);
      }),
      { numRuns: RUNS },
    );
  });
});
