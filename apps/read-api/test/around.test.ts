// GET /leaderboard/around/{user_id}: each user's window of the full board, and the same 404 for hidden users.
import { leaderboardResponseSchema } from "@pointwise/schemas";
import { seedCampaign, seedScore, seedUser } from "@pointwise/testkit";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;

beforeAll(async () => {
  api = await startReadApi();
});
afterAll(async () => {
  await api?.close();
});

describe("GET /leaderboard/around/{user_id}", () => {
  it("answers each user's window of the full board: n entries above and below with the board's ranks", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP", gems: "Gems" }, primary: "xp" });
    const base = Date.parse("2025-05-01T00:00:00Z");
    for (let i = 0; i < 40; i++) {
      const id = await seedUser(api.db, campaign);
      // Few distinct totals and reach times: long runs of ties that windows start and end inside.
      await seedScore(api.db, campaign, id, "xp", { score: String((i * 11) % 7), reachedAt: new Date(base + ((i * 3) % 5) * 1000).toISOString() });
    }
    const board = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=1000`)).body);
    expect(board.entries).toHaveLength(40);
    for (const n of [0, 2, 50]) {
      const windows = await Promise.all(board.entries.map((e) => get(`${api.url}/leaderboard/around/${e.user_id}?campaign_id=${campaign}&n=${n}`)));
      windows.forEach((res, i) => {
        expect(res.status).toBe(200);
        const around = leaderboardResponseSchema.parse(res.body);
        expect(around.entries).toEqual(board.entries.slice(Math.max(0, i - n), i + n + 1));
        expect(around.currency_names).toEqual(board.currency_names);
      });
    }
  });

  it("defaults n to 5 and treats the user id case-insensitively", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await seedUser(api.db, campaign);
      await seedScore(api.db, campaign, id, "xp", { score: String(100 - i) });
      ids.push(id);
    }
    const res = await get(`${api.url}/leaderboard/around/${ids[10]?.toUpperCase()}?campaign_id=${campaign}`);
    expect(res.body.entries.map((e: { user_id: string }) => e.user_id)).toEqual(ids.slice(5, 16));
    expect(res.body.entries.map((e: { rank: number }) => e.rank)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it("answers 404 user-not-found alike for an unknown user, a user without points and a user of another campaign", async () => {
    const campaign = await seedCampaign(api.db);
    const other = await seedCampaign(api.db);
    const idle = await seedUser(api.db, campaign);
    const elsewhere = await seedUser(api.db, other);
    await seedScore(api.db, other, elsewhere, "xp", { score: "5" });
    for (const id of [idle, elsewhere, "0b5e4c1a-0000-4000-8000-000000000000"]) {
      const res = await get(`${api.url}/leaderboard/around/${id}?campaign_id=${campaign}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: "user-not-found", message: `user ${id} is not on the leaderboard of campaign ${campaign}` } },
      });
    }
  });

  it("answers 400 for a malformed user id, campaign id or n, and 404 for an unknown campaign", async () => {
    const campaign = await seedCampaign(api.db);
    const id = "0b5e4c1a-0000-4000-8000-000000000000";
    expect((await get(`${api.url}/leaderboard/around/nope?campaign_id=${campaign}`)).body.error.code).toBe("invalid-user-id");
    // Not valid percent-encoding: express cannot decode the parameter, which is still a malformed user id.
    for (const bad of ["%ZZ", "%E0%A4%A"]) {
      const res = await get(`${api.url}/leaderboard/around/${bad}?campaign_id=${campaign}`);
      expect({ bad, status: res.status, body: res.body }).toEqual({
        bad,
        status: 400,
        body: { error: { code: "invalid-user-id", message: "user_id must be a uuid" } },
      });
    }
    expect((await get(`${api.url}/leaderboard/around/${id}`)).body.error.code).toBe("missing-campaign-id");
    expect((await get(`${api.url}/leaderboard/around/${id}?campaign_id=Nope`)).body.error.code).toBe("invalid-campaign-id");
    const badN = await get(`${api.url}/leaderboard/around/${id}?campaign_id=${campaign}&n=101`);
    expect({ status: badN.status, body: badN.body }).toEqual({
      status: 400,
      body: { error: { code: "invalid-n", message: "n must be a whole number from 0 to 100" } },
    });
    const unknown = await get(`${api.url}/leaderboard/around/${id}?campaign_id=zzzz-0000`);
    expect({ status: unknown.status, code: unknown.body.error.code }).toEqual({ status: 404, code: "campaign-not-found" });
  });
});
