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
