// dryRunDiff: who moves on the leaderboard under another rule version, by decayed totals and per currency.
import { ValidationError } from "@pointwise/errors";
import { ALICE, BOB, BRIDGE, CAROL, LOGIN, log, rules, SWAP } from "../test/fixtures";
import { dryRunDiff, type RuleVersionInput } from "./index";

const swapRule = { id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit" as const, points: "1" } };
const loginRule = (points: string) => ({ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed" as const, points } });
const version = (n: number, extra: Partial<RuleVersionInput>) => rules({ version: n, ...extra });

const events = log([
  { userId: ALICE, regEventId: SWAP, amount: "10" },
  { userId: BOB, regEventId: LOGIN },
  { userId: BOB, regEventId: LOGIN },
  { userId: BOB, regEventId: LOGIN },
  { userId: CAROL, regEventId: SWAP, amount: "1" },
  { userId: CAROL, regEventId: BRIDGE, amount: "1" },
]);
const AT = "2025-04-01T00:00:00Z";

describe("dryRunDiff", () => {
  it("raising logins from 1 to 5 xp: Bob 3 -> 15 xp moves from rank 2 to 1, Alice stays at 10 but drops to 2, Carol unchanged", () => {
    const before = version(1, { rules: [swapRule, loginRule("1")] });
    const after = version(2, { rules: [swapRule, loginRule("5")] });
    const diff = dryRunDiff({ before, after, events, at: AT });
    expect(diff).toEqual({
      currency: "xp",
      at: AT,
      moves: [
        { userId: BOB, rankBefore: 2, rankAfter: 1, rankChange: 1, pointsBefore: "3", pointsAfter: "15", pointsChange: "12" },
        { userId: ALICE, rankBefore: 1, rankAfter: 2, rankChange: -1, pointsBefore: "10", pointsAfter: "10", pointsChange: "0" },
      ],
      unchanged: 1,
      usersBefore: 3,
      usersAfter: 3,
    });
  });

  it("a new bridge rule (2 xp fixed) brings Carol from 1 to 3 xp without changing ranks; dropping logins takes Bob off the board", () => {
    const before = version(1, { rules: [swapRule, loginRule("1")] });
    const after = version(2, { rules: [swapRule, { id: "bridge", regEventId: BRIDGE, currency: "xp", base: { kind: "fixed", points: "2" } }] });
    const diff = dryRunDiff({ before, after, events, at: AT });
    expect(diff.moves).toEqual([
      { userId: CAROL, rankBefore: 3, rankAfter: 2, rankChange: 1, pointsBefore: "1", pointsAfter: "3", pointsChange: "2" },
      { userId: BOB, rankBefore: 2, rankAfter: null, rankChange: null, pointsBefore: "3", pointsAfter: "0", pointsChange: "-3" },
    ]);
    expect(diff.unchanged).toBe(1);
  });

  it("compares decayed totals at `at`: adding a 1-day half-life from the log's day halves 10 xp to 5 one day later", () => {
    const before = version(1, { rules: [swapRule] });
    const after = version(2, {
      currencies: { xp: { name: "Experience", decay: { halfLifeSeconds: 86_400, epoch: "2025-03-05T12:00:00Z" } } },
      rules: [swapRule],
    });
    const diff = dryRunDiff({ before, after, events: events.slice(0, 1), at: "2025-03-06T12:00:00Z" });
    expect(diff.moves).toEqual([{ userId: ALICE, rankBefore: 1, rankAfter: 1, rankChange: 0, pointsBefore: "10", pointsAfter: "5", pointsChange: "-5" }]);
  });

  it("diffs another currency when asked, counting users missing from a version as 0", () => {
    const before = version(1, { rules: [swapRule] });
    const after = version(2, {
      currencies: { xp: { name: "Experience" }, gems: { name: "Gems", decimals: 0 } },
      rules: [swapRule, { id: "gems", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "7" } }],
    });
    const diff = dryRunDiff({ before, after, events, at: AT, currency: "gems" });
    expect(diff.moves.map((m) => [m.userId, m.rankBefore, m.rankAfter, m.pointsAfter])).toEqual([
      // Equal totals share a competition rank, as on the live leaderboard.
      [ALICE, null, 1, "7"],
      [CAROL, null, 1, "7"],
    ]);
  });

  it("orders users who leave the board by their rank before, and users tied on both ranks by user id", () => {
    // Bob's logins come first in the log, so he is seen before Alice; Carol's bridge is the only rule left after.
    const log2 = log([
      { userId: BOB, regEventId: LOGIN },
      { userId: CAROL, regEventId: SWAP, amount: "1" },
      { userId: CAROL, regEventId: BRIDGE, amount: "1" },
      { userId: ALICE, regEventId: SWAP, amount: "10" },
    ]);
    const before = version(1, { rules: [swapRule, loginRule("1")] });
    const after = version(2, { rules: [{ id: "bridge", regEventId: BRIDGE, currency: "xp", base: { kind: "fixed", points: "2" } }] });
    // Before: Alice 10 (rank 1), Bob 1 and Carol 1 (rank 2 each); after: Carol 2 (rank 1), Alice and Bob gone.
    expect(dryRunDiff({ before, after, events: log2, at: AT }).moves.map((m) => [m.userId, m.rankBefore, m.rankAfter])).toEqual([
      [CAROL, 2, 1],
      [ALICE, 1, null],
      [BOB, 2, null],
    ]);
    // A new currency for swaps only: Carol (seen first) and Alice tie at rank 1 after and have no rank before.
    const gems = version(2, {
      currencies: { xp: { name: "Experience" }, gems: { name: "Gems", decimals: 0 } },
      rules: [swapRule, { id: "gems", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "7" } }],
    });
    expect(dryRunDiff({ before, after: gems, events: log2, at: AT, currency: "gems" }).moves.map((m) => m.userId)).toEqual([ALICE, CAROL]);
  });

  it("rejects an `at` that is not a time", () => {
    const rv = version(1, { rules: [swapRule] });
    expect(() => dryRunDiff({ before: rv, after: rv, events, at: "later" })).toThrow(ValidationError);
  });
});

describe("dryRunDiff counts what a recompute serves", () => {
  const DAVE = "dddddddd-0000-4000-8000-000000000004";
  const ERIN = "eeeeeeee-0000-4000-8000-000000000005";
  const perUnit = (points: string) => ({ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "perUnit" as const, points } });
  const adjustment = (userId: string, points: string, createdAt = "2025-03-10T00:00:00Z") => ({
    userId,
    currency: "xp",
    points,
    createdAt: new Date(createdAt),
  });

  it("leaves excluded users off both boards, with the referral shares their events paid and the shares paid to them", () => {
    const referral = { shares: { xp: "0.1" } };
    const before = version(1, { rules: [perUnit("1")], referral });
    const after = version(2, { rules: [perUnit("2")], referral });
    const log2 = log([
      { userId: ALICE, amount: "30" },
      { userId: CAROL, amount: "100", referrerId: BOB },
      { userId: BOB, amount: "20" },
      { userId: DAVE, amount: "50" },
      { userId: ERIN, amount: "10", referrerId: DAVE },
    ]);
    const diff = dryRunDiff({ before, after, events: log2, at: AT, excludedUsers: new Set([CAROL, DAVE]) });
    // Carol's 100 pays Bob no 10% share; Dave (excluded) neither shows nor earns Erin's share.
    // Before: Alice 30, Bob 20, Erin 10; after, 2 per unit: Alice 60, Bob 40, Erin 20.
    expect(diff.moves).toEqual([
      { userId: ALICE, rankBefore: 1, rankAfter: 1, rankChange: 0, pointsBefore: "30", pointsAfter: String(30 * 2), pointsChange: "30" },
      { userId: BOB, rankBefore: 2, rankAfter: 2, rankChange: 0, pointsBefore: "20", pointsAfter: String(20 * 2), pointsChange: "20" },
      { userId: ERIN, rankBefore: 3, rankAfter: 3, rankChange: 0, pointsBefore: "10", pointsAfter: String(10 * 2), pointsChange: "10" },
    ]);
    expect([diff.usersBefore, diff.usersAfter, diff.unchanged]).toEqual([3, 3, 0]);
  });

  it("gives the budget an excluded user's events took to everyone else", () => {
    const before = version(1, { currencies: { xp: { name: "Experience", decimals: 2, budget: "100" } }, rules: [perUnit("1")] });
    const after = version(2, { currencies: { xp: { name: "Experience", decimals: 2, budget: "200" } }, rules: [perUnit("2")] });
    const log2 = log([
      { userId: DAVE, amount: "80" },
      { userId: ALICE, amount: "50" },
      { userId: BOB, amount: "40" },
    ]);
    const diff = dryRunDiff({ before, after, events: log2, at: AT, excludedUsers: new Set([DAVE]) });
    // Without Dave's 80 the budget of 100 covers Alice's 50 and Bob's 40 in full; after, 100 + 80 = 180 <= 200.
    expect(diff.moves.map((m) => [m.userId, m.rankBefore, m.rankAfter, m.pointsBefore, m.pointsAfter])).toEqual([
      [ALICE, 1, 1, "50", String(50 * 2)],
      [BOB, 2, 2, "40", String(40 * 2)],
    ]);
  });

  it("adds adjustments on top of both replays, excluded users' left out, so a grant can decide a rank", () => {
    const before = version(1, { rules: [perUnit("1")] });
    const after = version(2, { rules: [perUnit("2")] });
    const log2 = log([
      { userId: ALICE, amount: "10" },
      { userId: BOB, amount: "13" },
    ]);
    const adjustments = [adjustment(ALICE, "5"), adjustment(CAROL, "7"), adjustment(DAVE, "100")];
    const diff = dryRunDiff({ before, after, events: log2, at: AT, adjustments, excludedUsers: new Set([DAVE]) });
    // Before: Alice 10 + 5 = 15, Bob 13, Carol 7 (a grant only); after: Bob 13 x 2 = 26, Alice 10 x 2 + 5 = 25, Carol 7.
    expect(diff.moves).toEqual([
      { userId: BOB, rankBefore: 2, rankAfter: 1, rankChange: 1, pointsBefore: "13", pointsAfter: String(13 * 2), pointsChange: "13" },
      { userId: ALICE, rankBefore: 1, rankAfter: 2, rankChange: -1, pointsBefore: String(10 + 5), pointsAfter: String(10 * 2 + 5), pointsChange: "10" },
    ]);
    expect([diff.usersBefore, diff.usersAfter, diff.unchanged]).toEqual([3, 3, 1]);
  });

  it("decays an adjustment from when it was made under each version's settings", () => {
    const before = version(1, { rules: [perUnit("1")] });
    const after = version(2, {
      currencies: { xp: { name: "Experience", decimals: 2, decay: { halfLifeSeconds: 86_400, epoch: "2025-03-05T12:00:00Z" } } },
      rules: [perUnit("1")],
    });
    // 8 granted one day after the epoch, compared one day later: one half-life, 8 / 2 = 4 (no decay before).
    const diff = dryRunDiff({ before, after, events: [], at: "2025-03-07T12:00:00Z", adjustments: [adjustment(ALICE, "8", "2025-03-06T12:00:00Z")] });
    expect(diff.moves).toEqual([
      { userId: ALICE, rankBefore: 1, rankAfter: 1, rankChange: 0, pointsBefore: "8", pointsAfter: String(8 / 2), pointsChange: "-4" },
    ]);
  });

  it("shows adjustments in a currency a version does not pay, as the switch serves them", () => {
    const before = version(1, { rules: [perUnit("1")] });
    const after = version(2, {
      currencies: { xp: { name: "Experience", decimals: 2 }, gems: { name: "Gems", decimals: 0 } },
      rules: [perUnit("1"), { id: "gems", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "7" } }],
    });
    const grant = { userId: ALICE, currency: "gems", points: "3", createdAt: new Date("2025-03-10T00:00:00Z") };
    const diff = dryRunDiff({ before, after, events: log([{ userId: ALICE, amount: "1" }]), at: AT, currency: "gems", adjustments: [grant] });
    // Before pays no gems, so only the grant of 3 is served; after, the swap's 7 gems + 3 = 10.
    expect(diff.moves).toEqual([
      { userId: ALICE, rankBefore: 1, rankAfter: 1, rankChange: 0, pointsBefore: "3", pointsAfter: String(7 + 3), pointsChange: "7" },
    ]);
  });

  it("serves nothing before when no version is active, not even adjustments", () => {
    const after = version(1, { rules: [perUnit("1")] });
    const diff = dryRunDiff({ before: null, after, events: log([{ userId: ALICE, amount: "10" }]), at: AT, adjustments: [adjustment(BOB, "3")] });
    expect(diff.moves.map((m) => [m.userId, m.rankBefore, m.rankAfter, m.pointsBefore, m.pointsAfter])).toEqual([
      [ALICE, null, 1, "0", "10"],
      [BOB, null, 2, "0", "3"],
    ]);
    expect(diff.usersBefore).toBe(0);
    expect(() => dryRunDiff({ before: null, after, events: [], at: AT, currency: "gems" })).toThrow(
      "currency must be a currency of either rule version, got gems",
    );
  });
});
