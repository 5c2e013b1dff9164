import net from "node:net";
import { createDatabase, type Database } from "@pointwise/db";
import { freePort, testUrls, waitUntil } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { createCampaign, createUser, get, setScore, startReadApi, type TestReadApi } from "./support";

const SECRET = "outage-test-secret-outage-test-secret-0123";

/** A TCP proxy in front of PostgreSQL that the test can cut and restore, so the shared server is never touched. */
async function startProxy(target: URL) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  return {
    port,
    async start() {
      server = net.createServer((client) => {
        track(client);
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        track(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("close", end);
        upstream.on("close", end);
      });
      await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    },
    async stop() {
      const s = server;
      if (!s) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

let api: TestReadApi;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let proxied: Database;
let url = "";

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "1000", PORTAL_JWT_SECRET: SECRET });
  const target = new URL(testUrls.database);
  proxy = await startProxy(target);
  await proxy.start();
  const viaProxy = new URL(testUrls.database);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  proxied = createDatabase({ url: viaProxy.toString(), schema: api.db.schema, max: 3 });
  url = await api.another({ db: proxied });
});
afterAll(async () => {
  await proxy?.stop();
  await proxied?.close().catch(() => undefined);
  await api?.close();
});

describe("while PostgreSQL is briefly unreachable", () => {
  it("keeps serving the last good responses, answers 503 for what it never built, and recovers", async () => {
    const pool = api.db.pool;
    const campaign = await createCampaign(pool, { currencies: { xp: "XP" } });
    const never = await createCampaign(pool, { currencies: { xp: "XP" } });
    const user = await createUser(pool, campaign, { displayName: "Steady" });
    await setScore(pool, campaign, user, "xp", { score: "10" });
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
    await setScore(pool, campaign, user, "xp", { score: "77" });
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
