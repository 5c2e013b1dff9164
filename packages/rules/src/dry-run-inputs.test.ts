// Dry runs: refused inputs with their field and message, shown totals rounded to the currency's places, and the order of moves.
import { ALICE, BOB, log, rules, SWAP } from "../test/fixtures";
import { decayedScores, dryRunDiff } from "./dry-run";
import type { ScoreRow } from "./scores";

const swapRule = (points: string, currency = "xp") => ({ id: "swap", regEventId: SWAP, currency, base: { kind: "perUnit" as const, points } });
const AT = "2025-04-01T00:00:00Z";
const caught = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err;
  }
  return "no error";
};

describe("dry run inputs", () => {
  const rv = rules({ rules: [swapRule("1")] });

  it("refuses an `at` that is not a time, naming the field", () => {
    expect(caught(() => dryRunDiff({ before: rv, after: rv, events: [], at: "later" }))).toMatchObject({
      message: "at must be an ISO 8601 time",
      field: "at",
    });
  });

  it("refuses a currency of neither version, naming it, and accepts one of either version", () => {
    expect(caught(() => dryRunDiff({ before: rv, after: rv, events: [], at: AT, currency: "gems" }))).toMatchObject({
      message: "currency must be a currency of either rule version, got gems",
      field: "currency",
    });
    const withGems = rules({ currencies: { xp: { name: "Experience", decimals: 2 }, gems: { name: "Gems" } }, rules: [swapRule("1", "gems")] });
    const events = log([{ userId: ALICE, amount: "2" }]);
    // gems only after: Alice is new on the gems board with 2.
    expect(dryRunDiff({ before: rv, after: withGems, events, at: AT, currency: "gems" }).moves).toEqual([
      { userId: ALICE, rankBefore: null, rankAfter: 1, rankChange: null, pointsBefore: "0", pointsAfter: "2", pointsChange: "2" },
    ]);
    // gems only before: Alice drops off it.
    expect(dryRunDiff({ before: withGems, after: rv, events, at: AT, currency: "gems" }).moves).toEqual([
      { userId: ALICE, rankBefore: 1, rankAfter: null, rankChange: null, pointsBefore: "2", pointsAfter: "0", pointsChange: "-2" },
    ]);
  });

  it("orders users who drop off by their old rank, then by user id", () => {
    const events = log([
      { userId: BOB, amount: "5" },
      { userId: ALICE, amount: "5" },
      { userId: "cccccccc-0000-4000-8000-000000000003", amount: "9" },
    ]);
    const gone = rules({ currencies: { gems: { name: "Gems" } }, primaryCurrency: "gems", rules: [] });
    const moves = dryRunDiff({ before: rv, after: gone, events, at: AT, currency: "xp" }).moves;
    // 9 at rank 1, then Alice and Bob tied at 5 (rank 2), by id.
    expect(moves.map((m) => [m.userId, m.rankBefore])).toEqual([
      ["cccccccc-0000-4000-8000-000000000003", 1],
      [ALICE, 2],
      [BOB, 2],
    ]);
  });
});

describe("decayedScores", () => {
  const stored: ScoreRow = { userId: ALICE, currency: "xp", score: "1.005", referralScore: "0.015", total: "1.02", lifetime: "1", tier: null, reachedAt: null };

  it("decays by the factor at `at` and rounds half to even to the currency's decimals", () => {
    // One half-life after the epoch: 1.01 / 2 = 0.505 -> 0.50 and 0.03 / 2 = 0.015 -> 0.02 (ties, to even); total 0.52.
    const decaying = rules({ currencies: { xp: { name: "Experience", decimals: 2, decay: { halfLifeSeconds: 86_400, epoch: "2025-03-31T00:00:00Z" } } } });
    expect(decayedScores({ ...stored, score: "1.01", referralScore: "0.03" }, decaying, AT)).toEqual({ score: "0.5", referralScore: "0.02", total: "0.52" });
  });

  it("shows a row of a currency the rules do not have undecayed and unrounded", () => {
    expect(decayedScores({ ...stored, currency: "gems" }, rules({}), AT)).toEqual({ score: "1.005", referralScore: "0.015", total: "1.02" });
  });
});
