// Per-user caps by rule and currency for each period, and a campaign budget shared in log order.
import { ConflictError } from "@pointwise/errors";
import { applyInBatches } from "../test/batches";
import { ALICE, BOB, CAROL, LOGIN, log, rules, run, SWAP } from "../test/fixtures";
import { applyEvents, needsGlobalOrder, replayCampaign } from "./index";

const login = (extra: object, currencyExtra: object = {}) =>
  rules({
    currencies: { xp: { name: "Experience", ...currencyExtra } },
    rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, ...extra }],
  });
const at = (...times: string[]) => log(times.map((occurredAt) => ({ regEventId: LOGIN, occurredAt })));
const lineage = (result: ReturnType<typeof run>) => result.entries.map((e) => [e.points, e.paid, e.capped, e.cappedBy.join(",")]);

describe("per-user caps", () => {
  it("rule cap 25 xp per day on 10 xp logins: pays 10, 10, 5 (5 capped), 0 (10 capped), then 10 the next UTC day", () => {
    const rv = login({ caps: [{ period: "day", limit: "25" }] });
    const result = run(rv, at("2025-03-05T01:00:00Z", "2025-03-05T02:00:00Z", "2025-03-05T03:00:00Z", "2025-03-05T23:59:59Z", "2025-03-06T00:00:00Z"));
    expect(lineage(result)).toEqual([
      ["10", "10", "0", ""],
      ["10", "10", "0", ""],
      ["10", "5", "5", "rule:login:day"],
      ["10", "0", "10", "rule:login:day"],
      ["10", "10", "0", ""],
    ]);
    expect(result.scoreDeltas[0]?.lifetime).toBe("35");
  });

  it("currency cap 15 xp per week spans rules: login 10 then swap 10 in the same ISO week pays 10 and 5", () => {
    const rv = rules({
      currencies: { xp: { name: "Experience", caps: [{ period: "week", limit: "15" }] } },
      rules: [
        { id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" } },
        { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "10" } },
      ],
    });
    const events = log([
      { regEventId: LOGIN, occurredAt: "2025-03-03T00:00:00Z" },
      { regEventId: SWAP, occurredAt: "2025-03-09T23:59:59Z" },
      { regEventId: SWAP, occurredAt: "2025-03-10T00:00:00Z" },
    ]);
    expect(lineage(run(rv, events))).toEqual([
      ["10", "10", "0", ""],
      ["10", "5", "5", "currency:xp:week"],
      ["10", "10", "0", ""],
    ]);
  });

  it("month cap 20 resets on the first of the month: Feb 28 10+10, Feb 28 capped to 0, Mar 1 10", () => {
    const rv = login({ caps: [{ period: "month", limit: "20" }] });
    const result = run(rv, at("2025-02-01T00:00:00Z", "2025-02-28T00:00:00Z", "2025-02-28T23:59:59Z", "2025-03-01T00:00:00Z"));
    expect(result.entries.map((e) => e.paid)).toEqual(["10", "10", "0", "10"]);
  });

  it("whole-campaign cap 30 never resets: 10, 10, 10, then 0 a year later", () => {
    const rv = login({ caps: [{ period: "campaign", limit: "30" }] });
    const result = run(rv, at("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", "2025-03-01T00:00:00Z", "2026-03-01T00:00:00Z"));
    expect(result.entries.map((e) => e.paid)).toEqual(["10", "10", "10", "0"]);
  });

  it("rule cap 15 and currency cap 12 per day: the second 10 xp login pays 2 (12 - 10), naming both caps that cut it", () => {
    const rv = login({ caps: [{ period: "day", limit: "15" }] }, { caps: [{ period: "day", limit: "12" }] });
    const result = run(rv, at("2025-03-05T01:00:00Z", "2025-03-05T02:00:00Z"));
    expect(lineage(result)).toEqual([
      ["10", "10", "0", ""],
      ["10", "2", "8", "rule:login:day,currency:xp:day"],
    ]);
  });

  it("cap limit 10.555 with 2 decimals pays 10.55 at most: the currency's decimals are never exceeded", () => {
    const rv = login({ caps: [{ period: "day", limit: "10.555" }], base: { kind: "fixed", points: "20" } });
    expect(run(rv, at("2025-03-05T01:00:00Z")).entries[0]).toMatchObject({ points: "20", paid: "10.55", capped: "9.45" });
  });

  it("a late event (occurred the day before the day already reached) is charged to its own day: 10 on Mar 6, then 10 on Mar 5", () => {
    const rv = login({ caps: [{ period: "day", limit: "15" }] });
    const result = run(rv, at("2025-03-06T00:00:05Z", "2025-03-05T23:59:59Z"));
    expect(result.entries.map((e) => e.paid)).toEqual(["10", "10"]);
    expect(Object.values(result.users)[0]?.caps["rule:login:day"]).toEqual({ "2025-03-06": "10", "2025-03-05": "10" });
  });

  it("caps apply to milestones too: a 100 xp milestone under a 30 xp campaign cap pays 30", () => {
    const rv = rules({
      rules: [
        {
          id: "swap",
          regEventId: SWAP,
          currency: "xp",
          milestones: [{ id: "m", metric: "count", level: "1", points: "100" }],
          caps: [{ period: "campaign", limit: "30" }],
        },
      ],
    });
    expect(lineage(run(rv, log([{}])))).toEqual([["100", "30", "70", "rule:swap:campaign"]]);
  });

  it("caps are per user: Alice's capped day leaves Bob's 25 xp untouched", () => {
    const rv = login({ caps: [{ period: "day", limit: "10" }] });
    const events = log([{ regEventId: LOGIN }, { regEventId: LOGIN }, { regEventId: LOGIN, userId: BOB }]);
    expect(run(rv, events).entries.map((e) => [e.userId, e.paid])).toEqual([
      [ALICE, "10"],
      [ALICE, "0"],
      [BOB, "10"],
    ]);
  });
});

describe("campaign budget", () => {
  const budget = rules({
    currencies: { xp: { name: "Experience", budget: "100" } },
    rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" } }],
  });

  it("budget 100 xp shared in log order: Alice 60 paid, Bob 60 gets 40 (20 capped), Carol 5 gets 0", () => {
    const events = log([
      { userId: ALICE, amount: "60" },
      { userId: BOB, amount: "60" },
      { userId: CAROL, amount: "5" },
    ]);
    const result = run(budget, events);
    expect(result.entries.map((e) => [e.userId, e.paid, e.capped, e.cappedBy.join(",")])).toEqual([
      [ALICE, "60", "0", ""],
      [BOB, "40", "20", "budget:xp"],
      [CAROL, "0", "5", "budget:xp"],
    ]);
    expect(result.campaign).toMatchObject({ lastSeq: "3", budgetUsed: { xp: "100" } });
  });

  it("a budget makes the rule version need global order; without one the campaign state is null", () => {
    expect(needsGlobalOrder(budget)).toBe(true);
    const free = rules({ rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points: "1" } }] });
    expect(needsGlobalOrder(free)).toBe(false);
    expect(run(free, log([{}])).campaign).toBeNull();
  });

  it("carries budget use across batches through the campaign state: 70 then 70 pays 70 then 30", () => {
    const first = applyEvents({ rules: budget, events: log([{ amount: "70" }]) });
    const second = applyEvents({ rules: budget, events: log([{ userId: BOB, amount: "70" }], 2), campaign: first.campaign });
    expect(second.entries[0]).toMatchObject({ paid: "30", capped: "40" });
  });

  it("refuses an event older than the campaign's last applied seq with ordering-violation", () => {
    const first = applyEvents({ rules: budget, events: log([{ amount: "1" }], 5) });
    const late = () => applyEvents({ rules: budget, events: log([{ userId: BOB, amount: "1" }], 3), campaign: first.campaign });
    expect(late).toThrow(ConflictError);
    expect(late).toThrow(/a budgeted campaign must be applied in global log order/);
  });
});

describe("a fully capped award (paid 0) still counts as the rule's event", () => {
  // docs/rules.md, Caps and budgets: a cap limits what is paid, never what the user did.
  const capped = (extra: object, currencyExtra: object = {}) =>
    rules({
      currencies: { xp: { name: "Experience", ...currencyExtra } },
      rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, caps: [{ period: "day", limit: "20" }], ...extra }],
      referral: { shares: { xp: "0.5" } },
    });
  const kinds = (result: ReturnType<typeof run>) => result.entries.map((e) => [e.seq, e.kind, e.paid, e.capped]);

  // Three logins on a 20 xp day (the third capped to 0), then one the next day.
  const fourLogins = at("2025-03-05T01:00:00Z", "2025-03-05T02:00:00Z", "2025-03-05T03:00:00Z", "2025-03-06T00:00:00Z");
  const milestoneLater = capped({ milestones: [{ id: "four-logins", metric: "count", level: "4", points: "5" }] });

  it("advances milestone progress: the third login of a 20 xp day is capped to 0, yet the fourth (next day) reaches the 4-login milestone", () => {
    const result = run(milestoneLater, fourLogins);
    expect(kinds(result)).toEqual([
      ["1", "base", "10", "0"],
      ["2", "base", "10", "0"],
      ["3", "base", "0", "10"],
      ["4", "base", "10", "0"],
      ["4", "milestone", "5", "0"],
    ]);
    expect(result.users[ALICE]?.rules.login).toMatchObject({ count: "4", milestones: ["four-logins"] });
  });

  const milestoneOnCapped = capped({ milestones: [{ id: "three-logins", metric: "count", level: "3", points: "50" }] });

  it("a milestone reached on a capped day is written capped to 0 and counts as paid: it is not paid again when the cap resets", () => {
    const result = run(milestoneOnCapped, fourLogins);
    expect(kinds(result)).toEqual([
      ["1", "base", "10", "0"],
      ["2", "base", "10", "0"],
      ["3", "base", "0", "10"],
      ["3", "milestone", "0", "50"],
      ["4", "base", "10", "0"],
    ]);
    expect(result.entries[3]).toMatchObject({ milestoneId: "three-logins", points: "50", cappedBy: ["rule:login:day"] });
    expect(result.users[ALICE]?.rules.login).toMatchObject({ count: "4", milestones: ["three-logins"] });
  });

  const cooldown = capped({ cooldownSeconds: 3600, caps: [{ period: "day", limit: "10" }] });
  const cooldownLog = at("2025-03-05T10:00:00Z", "2025-03-05T11:00:00Z", "2025-03-05T11:30:00Z", "2025-03-05T12:00:00Z", "2025-03-06T00:00:00Z");

  it("restarts the cooldown: with 1 h cooldown and a 10 xp day, the capped 11:00 login makes 11:30 too early and 12:00 count (capped)", () => {
    const result = run(cooldown, cooldownLog);
    // 11:30 is inside the cooldown started by the capped 11:00 login, so it leaves no entry at all.
    expect(kinds(result)).toEqual([
      ["1", "base", "10", "0"],
      ["2", "base", "0", "10"],
      ["4", "base", "0", "10"],
      ["5", "base", "10", "0"],
    ]);
    expect(result.users[ALICE]?.rules.login).toMatchObject({ count: "4", lastAt: "2025-03-06T00:00:00.000Z" });
  });

  const currencyCapped = capped(
    { caps: [], milestones: [{ id: "two-logins", metric: "count", level: "2", points: "5" }], cooldownSeconds: 60 },
    { caps: [{ period: "day", limit: "10" }] },
  );
  const currencyCappedLog = log([
    { regEventId: LOGIN, occurredAt: "2025-03-05T10:00:00Z", userId: BOB, referrerId: ALICE },
    { regEventId: LOGIN, occurredAt: "2025-03-05T10:00:30Z", userId: BOB, referrerId: ALICE },
    { regEventId: LOGIN, occurredAt: "2025-03-05T10:01:00Z", userId: BOB, referrerId: ALICE },
  ]);

  it("under a currency cap the same holds (progress, milestone, cooldown), and a capped award gives the referrer nothing", () => {
    const result = run(currencyCapped, currencyCappedLog);
    // 10:00:30 is inside the 60 s cooldown of 10:00; 10:01 counts (second login) but the day's 10 xp are gone.
    expect(result.entries.map((e) => [e.seq, e.userId, e.kind, e.paid, e.cappedBy.join(",")])).toEqual([
      ["1", BOB, "base", "10", ""],
      ["1", ALICE, "referral", "5", ""],
      ["3", BOB, "base", "0", "currency:xp:day"],
      ["3", BOB, "milestone", "0", "currency:xp:day"],
    ]);
    expect(result.users[BOB]?.rules.login).toMatchObject({ count: "2", lastAt: "2025-03-05T10:01:00.000Z", milestones: ["two-logins"] });
    expect(result.users[BOB]?.currencies.xp).toEqual({ lifetime: "10", tier: null });
    expect(result.users[BOB]?.caps["currency:xp:day"]).toEqual({ "2025-03-05": "10" });
    expect(result.scoreDeltas.map((d) => [d.userId, d.score, d.referralScore, d.lifetime])).toEqual([
      [ALICE, "0", "5", "0"],
      [BOB, "10", "0", "10"],
    ]);
  });

  it.each([
    ["milestone progress", milestoneLater, fourLogins],
    ["a milestone capped to 0", milestoneOnCapped, fourLogins],
    ["the cooldown", cooldown, cooldownLog],
    ["a currency cap with a referrer", currencyCapped, currencyCappedLog],
  ])("%s: applying the log in every possible batch split equals one full replay", (_name, rv, events) => {
    const replay = replayCampaign(rv, events);
    // Every subset of the n - 1 gaps between events is one way to cut the log into batches.
    for (let mask = 0; mask < 2 ** (events.length - 1); mask++) {
      const cuts = events.slice(1).flatMap((_, i) => ((mask >> i) & 1 ? [i + 1] : []));
      const batched = applyInBatches(rv, events, cuts);
      expect(batched.entries).toEqual(replay.entries);
      expect(batched.rows).toEqual(replay.rows);
      expect(batched.users).toEqual(replay.users);
    }
  });
});
