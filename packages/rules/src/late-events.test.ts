// Late events worked out by hand: a backfill of an older week interleaved with today's live events.
import { applyInBatches } from "../test/batches";
import { ALICE, BOB, LOGIN, log, rules, run, SWAP } from "../test/fixtures";
import { applyEvents, mergeScoreDeltas, replayCampaign } from "./index";

/*
 * Today is Wednesday 2025-03-12. The backfill brings events of the week of Monday 2025-03-03
 * (Saturday 03-08 and Sunday 03-09 are the weekend) and of this morning, in the log between live ones.
 * swap: 1 xp per unit, x2 on weekends, at most 25 xp per UTC day. login: 10 xp, 1 h cooldown.
 */
const campaign = rules({
  rules: [
    {
      id: "swap",
      regEventId: SWAP,
      currency: "xp",
      base: { kind: "perUnit", points: "1" },
      multipliers: [{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }],
      caps: [{ period: "day", limit: "25" }],
    },
    { id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, cooldownSeconds: 3600 },
  ],
});

const swap = (occurredAt: string, amount: string) => ({ regEventId: SWAP, occurredAt, amount });
const login = (occurredAt: string) => ({ regEventId: LOGIN, occurredAt });

const events = log([
  swap("2025-03-12T09:00:00Z", "20"), // 1 live: today, 20 of 25
  swap("2025-03-08T10:00:00Z", "10"), // 2 backfill, Saturday: 10 x 2 = 20 of that Saturday's 25
  swap("2025-03-12T09:30:00Z", "10"), // 3 live: today has 5 left
  swap("2025-03-08T11:00:00Z", "10"), // 4 backfill, Saturday: 20 more, 5 left that day
  swap("2025-03-07T15:00:00Z", "30"), // 5 backfill, Friday: 30, capped to 25
  swap("2025-03-09T23:59:59Z", "5"), //  6 backfill, Sunday: 5 x 2 = 10
  login("2025-03-12T10:00:00Z"), //      7 live: counts
  login("2025-03-08T10:00:00Z"), //      8 backfill, days from any counted login: counts
  login("2025-03-08T09:30:00Z"), //      9 backfill, 30 min before a counted one: blocked
  login("2025-03-08T10:30:00Z"), //     10 backfill, 30 min after a counted one: blocked
  login("2025-03-08T11:00:00Z"), //     11 backfill, exactly 1 h after: counts
  login("2025-03-12T10:59:59.999Z"), // 12 live, 1 ms short of 1 h after 10:00: blocked
  login("2025-03-12T09:00:00Z"), //     13 backfill, exactly 1 h before 10:00: counts
  login("2025-03-12T08:30:00Z"), //     14 backfill, 30 min before 09:00: blocked
]);

describe("a backfilled week interleaved with today's live events", () => {
  // Run in beforeAll, not while jest collects the tests: an engine that throws then fails these tests
  // instead of the whole file failing to load.
  let result: ReturnType<typeof run>;
  beforeAll(() => {
    result = run(campaign, events);
  });
  const bySeq = (seq: string) => result.entries.find((e) => e.seq === seq);

  it("caps each swap by the day it occurred on: today 20 + 5, Saturday 20 + 5, Friday 25, Sunday 10", () => {
    expect(result.entries.filter((e) => e.ruleId === "swap").map((e) => [e.seq, e.points, e.paid, e.capped, e.cappedBy.join(",")])).toEqual([
      ["1", "20", "20", "0", ""],
      ["2", "20", "20", "0", ""],
      ["3", "10", "5", "5", "rule:swap:day"],
      ["4", "20", "5", "15", "rule:swap:day"],
      ["5", "30", "25", "5", "rule:swap:day"],
      ["6", "10", "10", "0", ""],
    ]);
    expect(result.users[ALICE]?.caps["rule:swap:day"]).toEqual({ "2025-03-12": "25", "2025-03-08": "25", "2025-03-07": "25", "2025-03-09": "10" });
  });

  it("applies the weekend multiplier by event time: the Saturday and Sunday swaps x2, today's (a Wednesday) not", () => {
    const weekend = [{ kind: "recurring", factor: "2", source: "rules.swap.multipliers[0]" }];
    expect(["1", "2", "3", "4", "5", "6"].map((seq) => bySeq(seq)?.multipliers)).toEqual([[], weekend, [], weekend, [], weekend]);
  });

  it("counts logins by event time: far from counted ones yes, less than 1 h before or after one no, exactly 1 h apart yes", () => {
    expect(result.entries.filter((e) => e.ruleId === "login").map((e) => [e.seq, e.paid])).toEqual([
      ["7", "10"],
      ["8", "10"],
      ["11", "10"],
      ["13", "10"],
    ]);
    // Counted: 03-08 10:00 and 11:00 (1 h apart, under 2 h: one span), 03-12 09:00 and 10:00 (another).
    expect(result.users[ALICE]?.rules.login).toEqual({
      count: "4",
      amount: "4",
      lastAt: "2025-03-12T10:00:00.000Z",
      milestones: [],
      spans: [
        [Date.parse("2025-03-08T10:00:00Z"), Date.parse("2025-03-08T11:00:00Z")],
        [Date.parse("2025-03-12T09:00:00Z"), Date.parse("2025-03-12T10:00:00Z")],
      ],
    });
  });

  it("keeps lastAt at the latest counted time: the Sunday swap applied after today's does not move it back", () => {
    expect(result.users[ALICE]?.rules.swap?.lastAt).toBe("2025-03-12T09:30:00.000Z");
  });

  it("pays 20 + 20 + 5 + 5 + 25 + 10 + 4 x 10 = 125 xp, and the row's reachedAt is the latest paid event time, today 10:00", () => {
    expect(result.scoreDeltas).toEqual([
      { userId: ALICE, currency: "xp", score: "125", referralScore: "0", lifetime: "125", tier: null, reachedAt: "2025-03-12T10:00:00.000Z" },
    ]);
  });

  it("never changes the stored state it is given: a frozen state whose spans and cap periods late events extend", () => {
    const deepFreeze = <T>(value: T): T => {
      if (value && typeof value === "object") for (const v of Object.values(value)) deepFreeze(v);
      return Object.freeze(value);
    };
    // After 2 the swaps add to the frozen day periods; after 8 the logins extend the frozen spans.
    for (const cut of [2, 8]) {
      const prior = deepFreeze(JSON.parse(JSON.stringify(run(campaign, events.slice(0, cut)).users)));
      const rest = applyEvents({ rules: campaign, events: events.slice(cut), users: prior });
      expect(rest.users[ALICE]).toEqual(result.users[ALICE]);
    }
  });

  it("gives the same entries, rows and state whether applied in one batch, event by event, or split after every backfilled event", () => {
    const replay = replayCampaign(campaign, events);
    const everyEvent = events.slice(1).map((_, i) => i + 1);
    for (const cuts of [everyEvent, [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11], [6], [3, 9, 13]]) {
      const batched = applyInBatches(campaign, events, cuts);
      expect(batched.entries).toEqual(replay.entries);
      expect(batched.rows).toEqual(replay.rows);
      expect(batched.users).toEqual(replay.users);
    }
  });
});

describe("late events and the rest of the rules", () => {
  it("a week cap charges a backfilled swap to its own ISO week: 30 this week and 30 in the week of 03-03 under a 40 xp weekly cap", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", caps: [{ period: "week", limit: "40" }] } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const result = run(rv, log([swap("2025-03-12T09:00:00Z", "30"), swap("2025-03-09T23:59:59Z", "30"), swap("2025-03-10T00:00:00Z", "30")]));
    // Sunday 03-09 belongs to the week of Monday 03-03; Monday 03-10 to this week, which has 10 left.
    expect(result.entries.map((e) => e.paid)).toEqual(["30", "30", "10"]);
    expect(result.users[ALICE]?.caps["currency:xp:week"]).toEqual({ "2025-03-10": "40", "2025-03-03": "30" });
  });

  it("decay scales a late award by its own time: 10 xp a day before the epoch is stored as 5, 10 xp a day after as 20", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", decay: { halfLifeSeconds: 86_400, epoch: "2025-03-05T00:00:00Z" } } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const result = run(rv, log([swap("2025-03-06T00:00:00Z", "10"), swap("2025-03-04T00:00:00Z", "10")]));
    expect(result.entries.map((e) => [e.paid, e.scaledPaid])).toEqual([
      ["10", "20"],
      ["10", "5"],
    ]);
  });

  it("milestones progress in log order: a 2-swap milestone is crossed by the backfilled swap and carries that swap's time", () => {
    const rv = rules({
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", milestones: [{ id: "two", metric: "count", level: "2", points: "50" }] }],
    });
    const result = run(rv, log([swap("2025-03-12T09:00:00Z", "1"), swap("2025-03-08T10:00:00Z", "1")]));
    expect(result.entries.map((e) => [e.seq, e.kind, e.paid, e.occurredAt])).toEqual([["2", "milestone", "50", "2025-03-08T10:00:00Z"]]);
  });

  it("a tier multiplier is the tier held when the event is applied: a backfilled swap after reaching silver is paid x2", () => {
    const rv = rules({
      currencies: {
        xp: {
          name: "Experience",
          tiers: [
            { key: "bronze", name: "Bronze", minLifetime: "0" },
            { key: "silver", name: "Silver", minLifetime: "20", multiplier: "2" },
          ],
        },
      },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const result = run(rv, log([swap("2025-03-12T09:00:00Z", "20"), swap("2025-03-08T10:00:00Z", "5")]));
    expect(result.entries.map((e) => [e.paid, e.multipliers.map((m) => m.source).join(",")])).toEqual([
      ["20", ""],
      ["10", "currencies.xp.tiers.silver"],
    ]);
  });

  it("the budget is consumed in log order, not time order: Alice's live 20 first, then Bob's older backfilled 20 gets the last 10", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", budget: "30" } },
      rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const result = run(rv, log([swap("2025-03-12T09:00:00Z", "20"), { ...swap("2025-03-01T09:00:00Z", "20"), userId: BOB }]));
    expect(result.entries.map((e) => [e.userId, e.paid, e.cappedBy.join(",")])).toEqual([
      [ALICE, "20", ""],
      [BOB, "10", "budget:xp"],
    ]);
  });

  it("a late event paid in a later batch does not move the row's reachedAt back: today 09:00 stays, though the delta says 03-08", () => {
    const rv = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }] });
    const twoEvents = log([swap("2025-03-12T09:00:00Z", "1"), swap("2025-03-08T10:00:00Z", "2")]);
    const first = run(rv, twoEvents.slice(0, 1));
    const late = run(rv, twoEvents.slice(1));
    expect(late.scoreDeltas[0]?.reachedAt).toBe("2025-03-08T10:00:00.000Z");
    const rows = mergeScoreDeltas(mergeScoreDeltas([], first.scoreDeltas), late.scoreDeltas);
    expect(rows).toEqual([expect.objectContaining({ total: "3", reachedAt: "2025-03-12T09:00:00.000Z" })]);
    expect(rows).toEqual(replayCampaign(rv, twoEvents).rows);
  });
});
