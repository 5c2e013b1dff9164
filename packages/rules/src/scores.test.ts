// Score rows: reachedAt from the latest paid award, tie order by who got there first, competition ranks.
import { ALICE, BOB, CAROL, LOGIN, log, rules, run, scoreRow } from "../test/fixtures";
import { mergeScoreDeltas, rankRows, replayCampaign } from "./index";

const login = rules({
  rules: [{ id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, caps: [{ period: "day", limit: "10" }] }],
});
const row = scoreRow;

describe("score rows", () => {
  it("reachedAt is the latest paid award: 10 xp at 09:00 and next day 10:00; a login capped to 0 at 11:00 does not count", () => {
    const events = log([
      { regEventId: LOGIN, occurredAt: "2025-03-05T09:00:00Z" },
      { regEventId: LOGIN, occurredAt: "2025-03-05T11:00:00Z" },
      { regEventId: LOGIN, occurredAt: "2025-03-06T10:00:00+00:00" },
    ]);
    const result = run(login, events);
    // The 11:00 login is capped to 0 by the 10 xp daily cap, so only 09:00 (day 1) and 10:00 (day 2) raised the total.
    expect(result.entries.map((e) => e.paid)).toEqual(["10", "0", "10"]);
    expect(result.scoreDeltas[0]?.reachedAt).toBe("2025-03-06T10:00:00.000Z");
  });

  it("mergeScoreDeltas keeps the later reachedAt whatever the order the deltas come in (GREATEST)", () => {
    const early = { userId: ALICE, currency: "xp", score: "1", referralScore: "0", lifetime: "1", reachedAt: "2025-03-05T09:00:00.000Z" };
    const late = { ...early, reachedAt: "2025-03-06T09:00:00.000Z" };
    expect(mergeScoreDeltas([], [late, early])).toEqual(mergeScoreDeltas([], [early, late]));
    expect(mergeScoreDeltas([], [late, early])[0]).toMatchObject({ total: "2", reachedAt: "2025-03-06T09:00:00.000Z" });
  });

  it("lists equal totals by who reached them first, then by user id, rows that never grew last, all sharing one competition rank", () => {
    const rows = [row(CAROL, "10", "2025-03-05T09:00:00.000Z"), row(BOB, "10", "2025-03-04T09:00:00.000Z"), row(ALICE, "10", null), row("dave", "20", null)];
    expect(rankRows(rows, "xp").map((r) => [r.rank, r.userId])).toEqual([
      [1, "dave"],
      [2, BOB],
      [2, CAROL],
      [2, ALICE],
    ]);
  });

  it("gives competition ranks 1, 2, 2, 4 for totals 30, 20, 20, 10", () => {
    const rows = [row(ALICE, "20", "2025-03-05T09:00:00.000Z"), row(BOB, "30", null), row(CAROL, "10", null), row("dave", "20", "2025-03-06T09:00:00.000Z")];
    expect(rankRows(rows, "xp").map((r) => [r.rank, r.userId])).toEqual([
      [1, BOB],
      [2, ALICE],
      [2, "dave"],
      [4, CAROL],
    ]);
  });

  it("Bob and Alice both earn 10 xp; Bob earned his first, so a replay ranks him first", () => {
    const events = log([
      { userId: BOB, regEventId: LOGIN, occurredAt: "2025-03-05T09:00:00Z" },
      { userId: ALICE, regEventId: LOGIN, occurredAt: "2025-03-05T10:00:00Z" },
    ]);
    expect(rankRows(replayCampaign(login, events).rows, "xp").map((r) => r.userId)).toEqual([BOB, ALICE]);
  });
});
