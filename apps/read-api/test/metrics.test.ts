// The built read-api's /metrics as an operator scrapes it: cache hits and misses of real leaderboard
// requests, request counts by route template and status, and bypasses while Redis is away.
import { sampleValue } from "@pointwise/metrics";
import {
  type AppProcess,
  createTcpProxy,
  createTestDatabase,
  seedCampaign,
  seedScore,
  seedUser,
  spawnApp,
  type TcpProxy,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

jest.setTimeout(90_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let redis: TcpProxy;
let read: AppProcess | undefined;

beforeAll(async () => {
  const schema = uniqueName("t_rm");
  db = await createTestDatabase(schema);
  redis = await createTcpProxy(testUrls.redis);
  await redis.start();
  read = await spawnApp("read-api", { ...testServiceEnv(schema), REDIS_URL: redis.url, CACHE_TTL_MS: "600000" });
});
afterAll(async () => {
  await read?.stop("SIGKILL");
  await redis?.stop();
  await db?.drop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${read?.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe("read-api /metrics", () => {
  it("counts the first leaderboard request of a key as a miss and the next ones as hits, each request by route and status", async () => {
    const campaign = await seedCampaign(db, { currencies: { xp: "XP" } });
    await seedScore(db, campaign, await seedUser(db, campaign, { displayName: "Ada" }), "xp", { score: "5" });
    const before = await scrape();
    expect(sampleValue(before, "pointwise_read_cache_lookups_total", { outcome: "hit" })).toBe(0);
    expect(sampleValue(before, "pointwise_read_cache_lookups_total", { outcome: "miss" })).toBe(0);

    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${read?.url}/leaderboard?campaign_id=${campaign}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // Another limit is another cached body: one more miss, then a hit.
    for (let i = 0; i < 2; i++) await (await fetch(`${read?.url}/leaderboard?campaign_id=${campaign}&limit=10`)).arrayBuffer();

    const text = await scrape();
    expect(sampleValue(text, "pointwise_read_cache_lookups_total", { outcome: "miss" })).toBe(2);
    expect(sampleValue(text, "pointwise_read_cache_lookups_total", { outcome: "hit" })).toBe(5);
    expect(sampleValue(text, "pointwise_read_cache_lookups_total", { outcome: "bypass" })).toBe(0);
    expect(sampleValue(text, "pointwise_http_requests_total", { method: "GET", route: "/leaderboard", status: "200" })).toBe(7);
    expect(sampleValue(text, "pointwise_http_request_duration_seconds_count", { method: "GET", route: "/leaderboard", status: "200" })).toBe(7);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "redis", optional: "true" })).toBe(1);
  });

  it("while Redis is away answers from PostgreSQL, counted as bypass, and reports itself degraded, not unready", async () => {
    const campaign = await seedCampaign(db, { currencies: { xp: "XP" } });
    await seedScore(db, campaign, await seedUser(db, campaign, { displayName: "Bo" }), "xp", { score: "3" });
    const bypassBefore = sampleValue(await scrape(), "pointwise_read_cache_lookups_total", { outcome: "bypass" }) ?? 0;
    await redis.stop();
    await waitUntil(async () => ((await (await fetch(`${read?.url}/readyz`)).json()) as { status: string }).status === "degraded", 15_000, "read-api degraded");
    expect((await fetch(`${read?.url}/readyz`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetch(`${read?.url}/leaderboard?campaign_id=${campaign}`)).status).toBe(200);
    const text = await scrape();
    expect((sampleValue(text, "pointwise_read_cache_lookups_total", { outcome: "bypass" }) ?? 0) - bypassBefore).toBe(3);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "redis", optional: "true" })).toBe(0);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "postgres", optional: "false" })).toBe(1);
    await redis.start();
  });
});
