// read-api while PostgreSQL or Redis is unreachable: last good responses or answers from PostgreSQL
// without the cache (X-Cache: bypass), 503 for what neither can give, and recovery.
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
  it("serves what the process holds, answers the rest from PostgreSQL marked X-Cache: bypass, and caches again once Redis is back", async () => {
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
      expect(again.headers.get("x-cache")).toBeNull();
      // Not in the process: built from PostgreSQL for this request, and said so.
      const user = await seedUser(api.db, other, { displayName: "Bypassed" });
      await seedScore(api.db, other, user, "xp", { score: "12" });
      const before = Date.now();
      const missing = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
      expect({ status: missing.status, cache: missing.headers.get("x-cache") }).toEqual({ status: 200, cache: "bypass" });
      expect(missing.body.entries.map((e: { user_id: string; scores: { xp: { total: number } } }) => [e.user_id, e.scores.xp.total])).toEqual([[user, 12]]);
      // cached_at of a bypass answer is when it was built: now.
      expect(Date.parse(missing.body.cached_at)).toBeGreaterThanOrEqual(before - 5);
      // Every request goes to PostgreSQL meanwhile, so a new score shows at once.
      await seedScore(api.db, other, user, "xp", { score: "13" });
      const next = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
      expect({ status: next.status, cache: next.headers.get("x-cache"), total: next.body.entries[0].scores.xp.total }).toEqual({
        status: 200,
        cache: "bypass",
        total: 13,
      });
      // An unknown campaign is still a 404, not an outage.
      const unknown = await get(`${appUrl}/leaderboard?campaign_id=zz99-9999`);
      expect({ status: unknown.status, code: unknown.body.error.code, cache: unknown.headers.get("x-cache") }).toMatchObject({ status: 404 });
      const ready = await get(`${appUrl}/readyz`);
      // Redis is optional for read-api: its loss degrades readiness but does not take the app out of rotation.
      expect({ status: ready.status, state: ready.body.status, redis: ready.body.checks.redis }).toEqual({ status: 200, state: "degraded", redis: false });
      // Closing does not wait for Redis to come back (QUIT would).
      await stopping.close();
      expect(stopping.isOpen()).toBe(false);

      await redisProxy.start();
      await waitUntil(
        async () => {
          const res = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
          return res.status === 200 && res.headers.get("x-cache") === null;
        },
        15_000,
        "answers from the cache once Redis is back",
      );
      // Cached again: the same bytes (and cached_at) until the window ends, though the score changed.
      const cached = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
      await seedScore(api.db, other, user, "xp", { score: "14" });
      const later = await get(`${appUrl}/leaderboard?campaign_id=${other}`);
      expect({ text: later.text, cache: later.headers.get("x-cache") }).toEqual({ text: cached.text, cache: null });
    } finally {
      // The client quits cleanly only while it can reach Redis.
      await redisProxy.start();
      await cache.close();
      await redisProxy.stop();
    }
  });
});
