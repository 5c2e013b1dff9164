// Properties: any batch split, redelivery or per-user order gives the same result as one full replay.
import fc from "fast-check";
import { campaignWindowArb, logArb, ruleVersionArb, splitsArb, timeLimitedRuleVersionArb, USERS } from "../test/arbitraries";
import { applyInBatches } from "../test/batches";
import { applyEvents, type LedgerEntry, mergeScoreDeltas, needsGlobalOrder, parseRuleVersion, replayCampaign, type ScoreRow } from "./index";

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

  it("with late events (backfills, ties, times either side of counted ones) and a campaign window, any batch split equals the replay", () => {
    const arb = fc
      .tuple(fc.oneof(ruleVersionArb, timeLimitedRuleVersionArb), logArb({ skew: true, late: true }), campaignWindowArb)
      .chain(([rv, events, window]) =>
        fc.tuple(
          fc.constant(rv),
          fc.constant(events),
          fc.constant(window),
          splitsArb(events.length),
          fc.array(fc.boolean(), { minLength: events.length, maxLength: events.length }),
        ),
      );
    fc.assert(
      fc.property(arb, ([rv, events, window, cuts, redeliver]) => {
        const replay = replayCampaign(rv, events, window);
        const batched = applyInBatches(rv, events, cuts, redeliver, { campaignWindow: window });
        expect(batched.rows).toEqual(replay.rows);
        expect(batched.entries).toEqual(replay.entries);
        expect(batched.users).toEqual(replay.users);
        expect(batched.campaign).toEqual(replay.campaign);
        expect(batched.outsideCampaign).toEqual(replay.outsideCampaign);
      }),
      { numRuns: RUNS },
    );
  });

  it("with late events and no budget, each user's events applied on their own equal the replay", () => {
    const arb = fc
      .tuple(
        fc.oneof(ruleVersionArb, timeLimitedRuleVersionArb).filter((rv) => !needsGlobalOrder(rv)),
        logArb({ skew: false, late: true }),
        campaignWindowArb,
      )
      .chain(([rv, events, window]) => fc.tuple(fc.constant(rv), fc.constant(events), fc.constant(window), splitsArb(events.length)));
    fc.assert(
      fc.property(arb, ([rv, events, window, cuts]) => {
        const replay = replayCampaign(rv, events, window);
        for (const user of USERS) {
          const own = events.filter((e) => e.userId === user);
          const alone = applyInBatches(
            rv,
            own,
            cuts.filter((c) => c < own.length),
            [],
            { campaignWindow: window },
          );
          expect(alone.users[user]).toEqual(replay.users[user]);
          expect(alone.entries.filter((e) => e.sourceUserId === user)).toEqual(replay.entries.filter((e) => e.sourceUserId === user));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("across a rule change: version 2 recomputed from the log up to S, then applied in batches, equals replaying the whole log under version 2", () => {
    const version2 = fc.oneof(ruleVersionArb, timeLimitedRuleVersionArb).map((rv) => parseRuleVersion({ ...rv, version: 2 }));
    const arb = fc
      .tuple(ruleVersionArb, version2, logArb({ skew: true, late: true }), campaignWindowArb)
      .chain(([v1, v2, events, window]) =>
        fc.tuple(
          fc.constant(v1),
          fc.constant(v2),
          fc.constant(events),
          fc.constant(window),
          fc.integer({ min: 0, max: events.length }),
          splitsArb(events.length),
          splitsArb(events.length),
        ),
      );
    fc.assert(
      fc.property(arb, ([v1, v2, events, window, at, cutsBefore, cutsAfter]) => {
        const head = events.slice(0, at);
        const tail = events.slice(at);
        // Live under version 1 up to S: its states cannot be carried into version 2.
        const live = applyInBatches(v1, head, cutsBefore, [], { campaignWindow: window });
        const someUser = tail.find((e) => Object.hasOwn(live.users, e.userId));
        if (someUser) {
          expect(() => applyEvents({ rules: v2, events: [someUser], users: live.users, campaign: live.campaign })).toThrow(/recompute from the log/);
        }
        // The recompute: version 2 over the log up to S in chunks, then the events after S as they come.
        const recomputed = applyInBatches(v2, head, cutsBefore, [], { campaignWindow: window });
        const caughtUp = applyInBatches(
          v2,
          tail,
          cutsAfter.filter((c) => c < tail.length),
          [],
          { campaignWindow: window, after: recomputed },
        );
        const replay = replayCampaign(v2, events, window);
        expect(caughtUp.rows).toEqual(replay.rows);
        expect(caughtUp.entries).toEqual(replay.entries);
        expect(caughtUp.users).toEqual(replay.users);
        expect(caughtUp.campaign).toEqual(replay.campaign);
      }),
      { numRuns: RUNS },
    );
  });
});
