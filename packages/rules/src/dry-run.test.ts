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
