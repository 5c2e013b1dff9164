// Score deltas and rows: sorted by user then currency, tiers replaced only when given, reached_at the latest, competition ranks.
import { fx } from "@pointwise/fixed";
import { scoreRow } from "../test/fixtures";
import { combineScoreDeltas, DeltaBook, mergeScoreDeltas, rankRows, type ScoreDelta } from "./scores";

const delta = (userId: string, currency: string, score: string, extra: Partial<ScoreDelta> = {}): ScoreDelta => ({
  userId,
  currency,
  score,
  referralScore: "0",
  lifetime: score,
  reachedAt: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const row = scoreRow;
const T1 = "2026-01-01T00:00:01.000Z";
const T2 = "2026-01-01T00:00:02.000Z";
const T3 = "2026-01-01T00:00:03.000Z";

describe("DeltaBook", () => {
  it("lists one delta per user and currency, ordered by user then currency, with the latest time points were paid", () => {
    const book = new DeltaBook();
    book.own("bob", "xp", fx("1"), fx("2"), null, T2);
    book.own("alice", "xp", fx("1"), fx("1"), "gold", T3);
    book.referral("alice", "gems", fx("0.5"), T1);
    book.own("alice", "xp", fx("2"), fx("2"), "silver", T1);
    book.referral("bob", "xp", fx("3"), T1);
    expect(book.list()).toEqual([
      { userId: "alice", currency: "gems", score: "0", referralScore: "0.5", lifetime: "0", reachedAt: T1 },
      { userId: "alice", currency: "xp", score: "3", referralScore: "0", lifetime: "3", tier: "silver", reachedAt: T3 },
      { userId: "bob", currency: "xp", score: "2", referralScore: "3", lifetime: "1", tier: null, reachedAt: T2 },
    ]);
  });
});

describe("DeltaBook tiers", () => {
  it("leaves tier out of a delta that only received referral points, so the stored tier is kept", () => {
    const book = new DeltaBook();
    book.referral("alice", "xp", fx("1"), T1);
    const [only] = book.list();
    expect(only && Object.hasOwn(only, "tier")).toBe(false);
  });
});

describe("combineScoreDeltas", () => {
  it("keeps the latest reachedAt even when a later list carries an earlier one", () => {
    const combined = combineScoreDeltas([[delta("alice", "xp", "1", { reachedAt: T3 })], [delta("alice", "xp", "1", { reachedAt: T1 })]]);
    expect(combined.map((d) => d.reachedAt)).toEqual([T3]);
  });

  it("gives a single list back as it is, and no rows for no lists", () => {
    const list = [delta("bob", "xp", "1"), delta("alice", "xp", "2")];
    expect(combineScoreDeltas([list])).toEqual(list);
    expect(combineScoreDeltas([])).toEqual([]);
  });

  it("adds the amounts of several lists, keeps the later tier only where one is given and the latest reachedAt, sorted by user then currency", () => {
    const combined = combineScoreDeltas([
      [delta("bob", "xp", "1.5", { tier: "gold", reachedAt: T2 }), delta("alice", "xp", "1")],
      [delta("bob", "xp", "0.25", { referralScore: "1", reachedAt: T1 }), delta("alice", "gems", "4", { tier: null })],
      [delta("bob", "xp", "0.25", { tier: "platinum", reachedAt: T3 }), delta("alice", "gems", "1", { reachedAt: T1 })],
    ]);
    expect(combined).toEqual([
      delta("alice", "gems", "5", { lifetime: "5", tier: null, reachedAt: T1 }),
      delta("alice", "xp", "1"),
      delta("bob", "xp", "2", { referralScore: "1", lifetime: "2", tier: "platinum", reachedAt: T3 }),
    ]);
  });
});

describe("mergeScoreDeltas", () => {
  it("adds deltas to rows (total = score + referral), keeps the tier unless one is given, and keeps the later reachedAt", () => {
    const rows = [{ ...row("bob", "5", T2), tier: "gold" }, row("alice", "1", T3)];
    const merged = mergeScoreDeltas(rows, [
      delta("bob", "xp", "1", { referralScore: "0.5", reachedAt: T1 }),
      delta("alice", "xp", "2", { tier: "silver", reachedAt: T3 }),
      delta("carol", "gems", "3", { reachedAt: T1 }),
      delta("alice", "gems", "1", { tier: null }),
    ]);
    expect(merged).toEqual([
      { userId: "alice", currency: "gems", score: "1", referralScore: "0", total: "1", lifetime: "1", tier: null, reachedAt: "2026-01-01T00:00:00.000Z" },
      { userId: "alice", currency: "xp", score: "3", referralScore: "0", total: "3", lifetime: "3", tier: "silver", reachedAt: T3 },
      { userId: "bob", currency: "xp", score: "6", referralScore: "0.5", total: "6.5", lifetime: "6", tier: "gold", reachedAt: T2 },
      { userId: "carol", currency: "gems", score: "3", referralScore: "0", total: "3", lifetime: "3", tier: null, reachedAt: T1 },
    ]);
  });
});

describe("rankRows", () => {
  it("orders equal totals reached at the same time by user id whatever order they come in", () => {
    const ids = ["d", "b", "e", "a", "c"];
    for (const order of [ids, [...ids].reverse(), ["c", "a", "e", "b", "d"]]) {
      expect(
        rankRows(
          order.map((id) => row(id, "1", T1)),
          "xp",
        ).map((r) => r.userId),
      ).toEqual(["a", "b", "c", "d", "e"]);
    }
  });

  it("sorts deltas by currency within a user whatever order they were collected in", () => {
    for (const currencies of [
      ["xp", "gems", "coins"],
      ["coins", "xp", "gems"],
      ["gems", "coins", "xp"],
    ]) {
      const book = new DeltaBook();
      for (const c of currencies) book.referral("alice", c, fx("1"), T1);
      expect(book.list().map((d) => d.currency)).toEqual(["coins", "gems", "xp"]);
    }
  });

  it("orders by total descending, then who got there first (never-grown last), then user id, with competition ranks", () => {
    const ranked = rankRows(
      [
        row("dave", "5", null),
        row("carol", "5", T1),
        row("erin", "2", T1),
        row("bob", "9", T3),
        row("alice", "5", T1),
        row("zed", "5", T2),
        row("x", "100", T1, "gems"),
      ],
      "xp",
    );
    // 9; then four rows at 5: T1 (alice, carol by id), T2 (zed), never (dave) share rank 2; then 2 at rank 6.
    expect(ranked.map((r) => [r.userId, r.rank])).toEqual([
      ["bob", 1],
      ["alice", 2],
      ["carol", 2],
      ["zed", 2],
      ["dave", 2],
      ["erin", 6],
    ]);
  });

  it("puts the never-grown row last among equal totals whichever side the sort meets it on", () => {
    expect(rankRows([row("a", "1", null), row("b", "1", T1)], "xp").map((r) => r.userId)).toEqual(["b", "a"]);
    expect(rankRows([row("b", "1", T1), row("a", "1", null)], "xp").map((r) => r.userId)).toEqual(["b", "a"]);
    expect(rankRows([row("b", "1", T2), row("a", "1", T1)], "xp").map((r) => r.userId)).toEqual(["a", "b"]);
  });

  it("ranks rows with equal totals and times by user id, and a first row alone at rank 1", () => {
    expect(rankRows([row("b", "3", T1), row("a", "3", T1), row("c", "1", T1)], "xp").map((r) => [r.userId, r.rank])).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 3],
    ]);
    expect(rankRows([row("a", "0", null)], "xp").map((r) => r.rank)).toEqual([1]);
  });
});
