// The leaderboard of a campaign that ranks by balance (total - spent), beside one that ranks by what users earned.
import { leaderboardResponseSchema, userScoresResponseSchema } from "@pointwise/schemas";
import { seedApiKey, seedCampaign, seedScore, seedUser } from "@pointwise/testkit";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;
beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "1000", API_KEY_CACHE_MS: "0" });
});
afterAll(async () => {
  await api?.close();
});

/** Three users: earned 100/80/60, spent 90/0/10, so balances 10/80/50. */
async function seed(ranking: "earned" | "balance") {
  const campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
  await api.db.query("UPDATE campaign SET leaderboard_ranking = $2 WHERE id = $1", [campaign, ranking]);
  const users: string[] = [];
  for (const [earned, spent] of [
    ["100", "90"],
    ["80", "0"],
    ["60", "10"],
  ] as const) {
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: earned, reachedAt: "2026-01-01T00:00:00Z" });
    await api.db.query("UPDATE score SET spent = $3 WHERE campaign_id = $1 AND user_id = $2", [campaign, user, spent]);
    users.push(user);
  }
  return { campaign, users, key: (await seedApiKey(api.db, campaign)).key };
}

describe("leaderboard ranking", () => {
  it("ranks by total when the campaign ranks by what was earned, and shows no balances on the board", async () => {
    const { campaign, users, key } = await seed("earned");
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body);
    expect(board.entries.map((e) => [e.user_id, e.rank, e.scores.xp?.total, e.balances])).toEqual([
      [users[0], 1, 100, undefined],
      [users[1], 2, 80, undefined],
      [users[2], 3, 60, undefined],
    ]);
    const mine = userScoresResponseSchema.parse((await get(`${api.url}/users/${users[0]}/scores`, { "x-api-key": key })).body);
    expect([mine.rank, mine.scores.xp, mine.balances.xp]).toEqual([1, { score: 100, referral_score: 0, total: 100 }, { spent: 90, balance: 10, shortfall: 0 }]);
  });

  it("ranks by balance (total - spent) when the campaign says so, on the board, around a user and in the user's rank", async () => {
    const { campaign, users, key } = await seed("balance");
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body);
    // Balances 80, 50, 10: the second user leads, the first is last although they earned most.
    expect(board.entries.map((e) => [e.user_id, e.rank, e.scores.xp?.total, e.balances?.xp?.balance])).toEqual([
      [users[1], 1, 80, 80],
      [users[2], 2, 60, 50],
      [users[0], 3, 100, 10],
    ]);
    const around = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard/around/${users[2]}?campaign_id=${campaign}&n=1`)).body);
    expect(around.entries.map((e) => [e.user_id, e.rank])).toEqual([
      [users[1], 1],
      [users[2], 2],
      [users[0], 3],
    ]);
    const mine = userScoresResponseSchema.parse((await get(`${api.url}/users/${users[0]}/scores`, { "x-api-key": key })).body);
    expect([mine.rank, mine.balances.xp]).toEqual([3, { spent: 90, balance: 10, shortfall: 0 }]);
  });
});

describe("a user with no points paid", () => {
  /**
   * A (earned 10), C (earned 10, spent 10), D (an adjustment of -3) and B, whose row only carries a spend of 5:
   * nothing earned, the row setSpentScores keeps for a spend a recompute left without points. B reached its
   * value first, so B would lead every tie it were part of.
   */
  async function seedWithSpender(ranking: "earned" | "balance") {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
    await api.db.query("UPDATE campaign SET leaderboard_ranking = $2 WHERE id = $1", [campaign, ranking]);
    const user = async (score: string, spent: string, reachedAt: string) => {
      const id = await seedUser(api.db, campaign);
      await seedScore(api.db, campaign, id, "xp", { score, reachedAt });
      await api.db.query("UPDATE score SET spent = $3 WHERE campaign_id = $1 AND user_id = $2", [campaign, id, spent]);
      return id;
    };
    const b = await user("0", "5", "2025-12-31T00:00:00Z");
    const a = await user("10", "0", "2026-01-01T00:00:00Z");
    const c = await user("10", "10", "2026-01-02T00:00:00Z");
    const d = await user("-3", "0", "2026-01-03T00:00:00Z");
    return { campaign, a, b, c, d, key: (await seedApiKey(api.db, campaign)).key };
  }

  it.each([
    // Totals 10, 10, -3: ranks 1, 1, 3 (B at 0 is not above D).
    [
      "earned",
      (u: Record<string, string>) => [
        [u.a, 1],
        [u.c, 1],
        [u.d, 3],
      ],
    ],
    // Balances 10, 0, 0: ranks 1, 2, 2 (B at 0 would tie with them, first).
    [
      "balance",
      (u: Record<string, string>) => [
        [u.a, 1],
        [u.c, 2],
        [u.d, 2],
      ],
    ],
  ] as const)("is on no %s board, around no one and in no one's rank, while its own scores show the spend", async (ranking, expected) => {
    const u = await seedWithSpender(ranking);
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${u.campaign}`)).body);
    expect(board.entries.map((e) => [e.user_id, e.rank])).toEqual(expected(u));
    const around = await get(`${api.url}/leaderboard/around/${u.b}?campaign_id=${u.campaign}&n=1`);
    expect([around.status, around.body.error.code]).toEqual([404, "user-not-found"]);
    const aroundD = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard/around/${u.d}?campaign_id=${u.campaign}&n=1`)).body);
    expect(aroundD.entries.map((e) => [e.user_id, e.rank])).toEqual(expected(u).slice(1));
    const d = userScoresResponseSchema.parse((await get(`${api.url}/users/${u.d}/scores`, { "x-api-key": u.key })).body);
    expect(d.rank).toBe(expected(u)[2]?.[1]);
    const b = userScoresResponseSchema.parse((await get(`${api.url}/users/${u.b}/scores`, { "x-api-key": u.key })).body);
    // Ranked as a user without points: 1 + the users above 0.
    expect([b.rank, b.scores.xp, b.balances.xp]).toEqual([
      ranking === "earned" ? 3 : 2,
      { score: 0, referral_score: 0, total: 0 },
      { spent: 5, balance: 0, shortfall: 5 },
    ]);
  });
});
