// combineScoreDeltas: exact sums, later tier and latest reachedAt, and deltas of many calls equal those of one.
import fc from "fast-check";
import { logArb, ruleVersionArb, splitsArb } from "../test/arbitraries";
import { ALICE, BOB, CAROL } from "../test/fixtures";
import { applyEvents, type CampaignState, combineScoreDeltas, type ScoreDelta, type UserState } from "./index";

describe("combineScoreDeltas", () => {
  it("adds amounts exactly, keeps the later given tier and the latest reachedAt, and sorts by user then currency", () => {
    const a: ScoreDelta = {
      userId: BOB,
      currency: "xp",
      score: "0.1",
      referralScore: "0",
      lifetime: "0.1",
      tier: "silver",
      reachedAt: "2025-03-05T10:00:00.000Z",
    };
    const b: ScoreDelta = { userId: BOB, currency: "xp", score: "0.2", referralScore: "1.05", lifetime: "0.2", reachedAt: "2025-03-05T09:00:00.000Z" };
    const c: ScoreDelta = { userId: ALICE, currency: "gems", score: "3", referralScore: "0", lifetime: "3", tier: null, reachedAt: "2025-03-05T08:00:00.000Z" };
    expect(combineScoreDeltas([[a], [b, c]])).toEqual([
      c,
      { userId: BOB, currency: "xp", score: "0.3", referralScore: "1.05", lifetime: "0.3", tier: "silver", reachedAt: "2025-03-05T10:00:00.000Z" },
    ]);
    const d: ScoreDelta = { userId: CAROL, currency: "xp", score: "1", referralScore: "0", lifetime: "1", tier: "gold", reachedAt: "2025-03-05T08:00:00.000Z" };
    expect(combineScoreDeltas([[{ ...d, tier: "silver" }], [d]])[0]).toMatchObject({ score: "2", tier: "gold" });
  });

  it("the deltas of a log applied in any number of calls combine to the deltas of one call over the whole log", () => {
    fc.assert(
      fc.property(
        ruleVersionArb,
        logArb().chain((events) => fc.tuple(fc.constant(events), splitsArb(events.length))),
        (rules, [events, cuts]) => {
          const whole = applyEvents({ rules, events }).scoreDeltas;
          const lists: ScoreDelta[][] = [];
          let users: Record<string, UserState> = {};
          let campaign: CampaignState | null = null;
          let from = 0;
          for (const cut of [...cuts, events.length]) {
            const r = applyEvents({ rules, events: events.slice(from, cut), users, campaign });
            users = { ...users, ...r.users };
            campaign = r.campaign;
            lists.push(r.scoreDeltas);
            from = cut;
          }
          expect(combineScoreDeltas(lists)).toEqual(whole);
        },
      ),
      { numRuns: 200 },
    );
  });
});
