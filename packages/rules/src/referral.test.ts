// Referral bonuses worked out by hand: one level deep, outside lifetime and tiers, within caps and budget.
import { ValidationError } from "@pointwise/errors";
import { ALICE, BOB, CAROL, log, rules, run, SWAP } from "../test/fixtures";
import { applyEvents, replayCampaign } from "./index";

const referral = (currencyExtra: object = {}, ruleExtra: object = {}) =>
  rules({
    currencies: { xp: { name: "Experience", ...currencyExtra }, gems: { name: "Gems", decimals: 0 } },
    rules: [
      { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "1" }, ...ruleExtra },
      { id: "swap-gems", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "3" } },
    ],
    referral: { shares: { xp: "0.1" } },
  });
const bob = (amount: string, extra: object = {}) => ({ userId: BOB, referrerId: ALICE, amount, ...extra });
// The fixtures' default receive time, normalised as the engine writes it.
const AT = "2025-03-05T12:00:00.000Z";
const referralEntries = (result: ReturnType<typeof run>) => result.entries.filter((e) => e.kind === "referral");

describe("referral bonuses", () => {
  it("share 0.1: Bob earns 100 xp, his referrer Alice earns 10 xp of referral_score and nothing in gems", () => {
    const result = run(referral(), log([bob("100")]));
    const ref = referralEntries(result);
    expect(ref).toEqual([
      expect.objectContaining({ userId: ALICE, sourceUserId: BOB, currency: "xp", basePoints: "100", points: "10", paid: "10", ruleId: "swap" }),
    ]);
    expect(ref[0]?.multipliers).toEqual([{ kind: "referralShare", factor: "0.1", source: "referral.shares.xp" }]);
    expect(ref[0]?.key).toBe(`${ref[0]?.eventId}/swap/base/referral`);
    expect(result.scoreDeltas).toEqual([
      { userId: ALICE, currency: "xp", score: "0", referralScore: "10", lifetime: "0", reachedAt: AT },
      { userId: BOB, currency: "gems", score: "3", referralScore: "0", lifetime: "3", tier: null, reachedAt: AT },
      { userId: BOB, currency: "xp", score: "100", referralScore: "0", lifetime: "100", tier: null, reachedAt: AT },
    ]);
  });

  it("total = score + referral_score: Alice's own 50 xp plus 10 xp from Bob's 100 gives total 60, lifetime 50", () => {
    const { rows } = replayCampaign(referral(), log([{ userId: ALICE, amount: "50" }, bob("100")]));
    expect(rows.find((r) => r.userId === ALICE && r.currency === "xp")).toEqual({
      userId: ALICE,
      currency: "xp",
      score: "50",
      referralScore: "10",
      total: "60",
      lifetime: "50",
      tier: null,
      reachedAt: AT,
    });
  });

  it("uses the referrer recorded on each event: Bob's 100 xp logged before the link earns Alice nothing, after it 10", () => {
    const result = run(referral(), log([{ userId: BOB, amount: "100" }, bob("100"), bob("100", { referrerId: null })]));
    expect(referralEntries(result).map((e) => e.seq)).toEqual(["2"]);
  });

  it("referral points never count to the referrer's lifetime, tier (gold at 5.5) or cap (5/day): Alice 5 own + 1 referral stays bronze", () => {
    const rv = referral(
      {
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "gold", name: "Gold", minLifetime: "5.5" },
        ],
      },
      { caps: [{ period: "day", limit: "5" }] },
    );
    const events = log([bob("5"), { userId: CAROL, referrerId: ALICE, amount: "5" }, { userId: ALICE, amount: "5" }]);
    const result = run(rv, events);
    // Bob's and Carol's 5 xp each give Alice 0.5; her own 5 xp is still paid in full under her 5 xp cap.
    expect(result.entries.filter((e) => e.userId === ALICE && e.currency === "xp").map((e) => [e.kind, e.paid])).toEqual([
      ["referral", "0.5"],
      ["referral", "0.5"],
      ["base", "5"],
    ]);
    expect(result.users[ALICE]?.currencies.xp).toEqual({ lifetime: "5", tier: "bronze" });
    const { rows } = replayCampaign(rv, events);
    expect(rows.find((r) => r.userId === ALICE && r.currency === "xp")).toMatchObject({ lifetime: "5", referralScore: "1", total: "6", tier: "bronze" });
  });

  it("is one level deep: Bob (referred by Alice) earns 100, Alice (referred by Carol) earns 20: Carol gets 2, not 10% of Alice's 10", () => {
    const result = run(referral(), log([bob("100"), { userId: ALICE, referrerId: CAROL, amount: "20" }]));
    expect(referralEntries(result).map((e) => [e.userId, e.sourceUserId, e.paid])).toEqual([
      [ALICE, BOB, "10"],
      [CAROL, ALICE, "2"],
    ]);
  });

  it("ignores a user who names themself as referrer", () => {
    expect(referralEntries(run(referral(), log([bob("100", { referrerId: BOB })])))).toEqual([]);
  });

  it("pays the share of milestone bonuses too: Bob's 1000 xp milestone gives Alice 100", () => {
    const rv = referral({}, { base: undefined, milestones: [{ id: "first", metric: "count", level: "1", points: "1000" }] });
    const ref = referralEntries(run(rv, log([bob("1")])));
    expect(ref.map((e) => [e.milestoneId, e.paid, e.key.endsWith("/swap/milestone/first/referral")])).toEqual([["first", "100", true]]);
  });

  it("pays the share of what the referee was actually paid: Bob's 100 xp capped to 30 gives Alice 3", () => {
    const rv = referral({}, { caps: [{ period: "day", limit: "30" }] });
    expect(referralEntries(run(rv, log([bob("100")]))).map((e) => e.paid)).toEqual(["3"]);
  });

  it("a share that rounds to nothing writes no entry: 10% of 0.05 xp at 2 decimals is 0.005 -> 0", () => {
    expect(referralEntries(run(referral(), log([bob("0.05")])))).toEqual([]);
  });

  it("referral points come out of the campaign budget: budget 105, Bob 100 paid, Alice's 10 capped to 5", () => {
    const result = run(referral({ budget: "105" }), log([bob("100")]));
    expect(result.entries.filter((e) => e.currency === "xp").map((e) => [e.kind, e.paid, e.capped, e.cappedBy.join(",")])).toEqual([
      ["base", "100", "0", ""],
      ["referral", "5", "5", "budget:xp"],
    ]);
    expect(result.campaign?.budgetUsed.xp).toBe("105");
  });

  it("referral points decay like the referee's: 10 xp earned one half-life after the epoch is stored as 20", () => {
    const rv = referral({ decay: { halfLifeSeconds: 86_400, epoch: "2025-03-04T12:00:00Z" } });
    const result = run(rv, log([bob("100", { occurredAt: "2025-03-05T12:00:00Z" })]));
    expect(result.scoreDeltas.find((d) => d.userId === ALICE)).toMatchObject({ referralScore: "20" });
  });

  it("rejects an empty referrerId with event-invalid naming events[0].referrerId", () => {
    const attempt = () => applyEvents({ rules: referral(), events: log([bob("1", { referrerId: "" })]) });
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow("events[0].referrerId must be a non-empty string or null");
  });
});
