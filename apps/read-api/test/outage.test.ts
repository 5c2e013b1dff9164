// read-api while PostgreSQL or Redis is unreachable: last good responses, 503 for the rest, and recovery.
import { createCache } from "@pointwise/cache";
import { createDatabase, type Database } from "@pointwise/db";
import { createTcpProxy, seedCampaign, seedScore, seedUser, type TcpProxy, testUrls, waitUntil } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { get, startReadApi, type TestReadApi } from "./support";

const SECRET = "outage-test-secret-outage-test-secret-0123";

let api: TestReadApi;
let proxy: TcpProxy;
let proxied: Database;
let url = "";

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "1000", PORTAL_JWT_SECRET: SECRET });
  proxy = await createTcpProxy(testUrls.database);
  await proxy.start();
  proxied = createDatabase({ url: proxy.url, schema: api.db.schema, max: 3 });
  url = await api.another({ db: proxied });
});
afterAll(async () => {
  await proxy?.stop();
  await proxied?.close().catch(() => undefined);
  await api?.close();
});

describe("while PostgreSQL is briefly unreachable", () => {
  it("keeps serving the last good responses, answers 503 for what it never built, and recovers", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const never = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const user = await seedUser(api.db, campaign, { displayName: "Steady" });
    await seedScore(api.db, campaign, user, "xp", { score: "10" });
    const token = jwt.sign({ sub: user, iss: "pointwise-portal", aud: "pointwise-read-api", exp: Math.floor(Date.now() / 1000) + 300 }, SECRET);
    const board = await get(`${url}/leaderboard?campaign_id=${campaign}`);
    const scores = await get(`${url}/users/${user}/scores`, { authorization: `Bearer ${token}` });
    expect([board.status, scores.status]).toEqual([200, 200]);

    await proxy.stop();
    // The fresh copies run out (as they do after CACHE_TTL_MS); only the stale copies remain.
    await api.cache.del(api.cache.key("read", "lb", campaign, "100"), api.cache.key("read", "user", user));

    const staleBoard = await get(`${url}/leaderboard?campaign_id=${campaign}`);
    expect(staleBoard.status).toBe(200);
    expect(staleBoard.text).toBe(board.text);
    const staleScores = await get(`${url}/users/${user}/scores`, { authorization: `Bearer ${token}` });
    expect(staleScores.text).toBe(scores.text);

    const unknown = await get(`${url}/leaderboard?campaign_id=${never}`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 503,
      body: { error: { code: "database-unavailable", message: "database unavailable, try again shortly" } },
    });
    expect((await get(`${url}/readyz`)).status).toBe(503);
    expect((await get(`${url}/healthz`)).status).toBe(200);

    await proxy.start();
    await seedScore(api.db, campaign, user, "xp", { score: "77" });
    let latest = staleBoard;
    await waitUntil(
      async () => {
        latest = await get(`${url}/leaderboard?campaign_id=${campaign}`);
        return latest.status === 200 && latest.body.entries[0].scores.xp.total === 77;
      },
      15_000,
      "a fresh build after PostgreSQL is back",
    );
    expect(Date.parse(latest.body.cached_at)).toBeGreaterThan(Date.parse(board.body.cached_at));
  });
});

describe("while Redis is unreachable", () => {
  it("serves what the process holds, answers 503 cache-unavailable for the rest, and recovers", async () => {
    const held = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const other = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const redisProxy = await createTcpProxy(testUrls.redis);
    await redisProxy.start();
    const cache = await createCache({ url: redisProxy.url, prefix: api.cache.key() });
    // A second client that is closed during the outage, as a stopping service closes its own.
    const stopping = await createCache({ url: redisProxy.url, prefix: api.cache.key() });
    try {
      // A long window, so the process's own copy outlives the outage below.
      const appUrl = await api.another({ cache, env: { ...api.deps.env, CACHE_TTL_MS: 60_000 } });
      const board = await get(`${appUrl}/leaderboard?campaign_id=${held}`);
      expect(board.status).toBe(200);

      await redisProxy.stop();
      const again = await get(`${appUrl}/leaderboard?campaign_id=${held}`);
      expect({ status: again.status, text: again.text }).toEqual({ status: 200, text: board.text });
      const missing = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
      expect({ status: missing.status, code: missing.body.error.code }).toEqual({ status: 503, code: "cache-unavailable" });
      const ready = await get(`${appUrl}/readyz`);
      // Redis is optional for read-api: its loss degrades readiness but does not take the app out of rotation.
      expect({ status: ready.status, state: ready.body.status, redis: ready.body.checks.redis }).toEqual({ status: 200, state: "degraded", redis: false });
      // Closing does not wait for Redis to come back (QUIT would).
      await stopping.close();
      expect(stopping.isOpen()).toBe(false);

      await redisProxy.start();
      await waitUntil(async () => (await get(`${appUrl}/leaderboard?campaign_id=${other}`)).status === 200, 15_000, "Redis to be back");
    } finally {
      // The client quits cleanly only while it can reach Redis.
      await redisProxy.start();
      await cache.close();
      await redisProxy.stop();
    }
  });
});
