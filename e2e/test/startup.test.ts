/**
 * Every long-running app starts the same way when a dependency is unreachable: it logs what it waits
 * for (URL masked), answers /healthz 200 and /readyz 503 meanwhile, and exits 1 at STARTUP_TIMEOUT_MS
 * with a fatal line naming the dependency; a dependency that comes up during the wait makes the app
 * ready; an optional one only makes it degraded. Built apps as real processes, run concurrently.
 */
import { setTimeout as sleep } from "node:timers/promises";
import {
  type AppName,
  type AppProcess,
  createTcpProxy,
  createTestDatabase,
  dropNamespace,
  freePort,
  postJson,
  seedCampaign,
  seedCampaignWithKey,
  seedScore,
  seedUser,
  spawnApp,
  startNatsServer,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const PASSWORD = "pw-start-Z9q7x";
const DEADLINE_MS = 3000;
const ADMIN_JWT_SECRET = "startup-test-secret-startup-test-secret-0001";

const apps: AppProcess[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop("SIGKILL")));
});

/** The log lines an app wrote so far, parsed. */
function lines(app: AppProcess): Record<string, unknown>[] {
  return app
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function start(name: AppName, env: Record<string, string>): Promise<AppProcess> {
  const app = await spawnApp(name, { ADMIN_JWT_SECRET, ...env }, { waitReady: false });
  apps.push(app);
  return app;
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const exited = (app: AppProcess) =>
  new Promise<number | null>((resolve) => {
    if (app.child.exitCode !== null) resolve(app.child.exitCode);
    else app.child.once("exit", (code) => resolve(code));
  });

/** A URL for `dependency` with a password, on a port where nothing listens. */
async function closedUrl(dependency: "postgres" | "nats" | "redis"): Promise<{ url: string; masked: string }> {
  const port = await freePort();
  if (dependency === "postgres") return { url: `postgres://app:${PASSWORD}@127.0.0.1:${port}/points`, masked: `postgres://app:***@127.0.0.1:${port}/points` };
  if (dependency === "nats") return { url: `nats://bus:${PASSWORD}@127.0.0.1:${port}`, masked: `nats://bus:***@127.0.0.1:${port}` };
  return { url: `redis://default:${PASSWORD}@127.0.0.1:${port}`, masked: `redis://default:***@127.0.0.1:${port}` };
}

const VARIABLE = { postgres: "DATABASE_URL", nats: "NATS_URL", redis: "REDIS_URL" } as const;
// A route of each app that needs its dependencies, answered 503 `starting` while it waits.
const ROUTE: Record<string, string> = {
  "ingest-api": "/api/rest/earn-event",
  "read-api": "/leaderboard?campaign_id=abcd-1234",
  "admin-api": "/api/campaigns",
  "scoring-worker": "/metrics",
};

describe("a required dependency that never answers", () => {
  const cases: [AppName, "postgres" | "nats"][] = [
    ["ingest-api", "postgres"],
    ["ingest-api", "nats"],
    ["read-api", "postgres"],
    ["admin-api", "postgres"],
    ["scoring-worker", "postgres"],
    ["scoring-worker", "nats"],
  ];

  it.concurrent.each(cases)(
    "%s waiting for %s: says so with the URL masked, is alive but not ready, and exits 1 at STARTUP_TIMEOUT_MS naming it",
    async (name, dependency) => {
      const { url, masked } = await closedUrl(dependency);
      const namespace = uniqueName("t_start");
      const app = await start(name, { ...testServiceEnv(namespace), [VARIABLE[dependency]]: url, STARTUP_TIMEOUT_MS: String(DEADLINE_MS) });
      const exit = exited(app);
      const waitingLine = `waiting for ${dependency} at ${masked}`;
      await waitUntil(() => lines(app).some((l) => l.msg === waitingLine), 15_000, `${name} to log "${waitingLine}"`);
      const waitingSince = Date.now();

      expect(await getJson(`${app.url}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
      const ready = await getJson(`${app.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: "starting", waiting: expect.arrayContaining([dependency]) });
      const route = await getJson(`${app.url}${ROUTE[name]}`);
      // ingest's /api/rest/ answers keep the spec's HTTP 200 envelope; every other API answers 503.
      if (name === "ingest-api") {
        expect(route.status).toBe(200);
        expect(route.body).toMatchObject({ data: null, errors: [{ extensions: { code: "starting" } }] });
      } else {
        expect(route.status).toBe(503);
        expect(route.body).toMatchObject({ error: { code: "starting" } });
      }
      expect(JSON.stringify(route.body)).toContain(dependency);

      // Each failed attempt is logged at warn with the wait before the next one.
      await waitUntil(
        () => lines(app).some((l) => l.level === "warn" && l.dependency === dependency && typeof l.next_attempt_in_ms === "number"),
        5000,
        "a retry line",
      );

      const code = await exit;
      const waited = Date.now() - waitingSince;
      expect(code).toBe(1);
      expect(waited).toBeLessThan(DEADLINE_MS + 4000);
      const fatal = lines(app).filter((l) => l.level === "fatal" && l.dependency === dependency);
      expect(fatal.map((l) => [l.url, l.msg])).toEqual([
        [masked, `${dependency} unreachable at ${masked}: giving up after ${DEADLINE_MS} ms (STARTUP_TIMEOUT_MS)`],
      ]);
      expect(app.output()).not.toContain(PASSWORD);
      await dropNamespace(namespace).catch(() => undefined);
    },
  );
});

it.concurrent("an app asked to stop while it waits for a dependency exits 0 at once", async () => {
  const { url, masked } = await closedUrl("postgres");
  const app = await start("admin-api", { ...testServiceEnv("public"), DATABASE_URL: url, STARTUP_TIMEOUT_MS: "60000" });
  await waitUntil(() => lines(app).some((l) => l.msg === `waiting for postgres at ${masked}`), 15_000, "the waiting line");
  const asked = Date.now();
  expect(await app.stop("SIGTERM")).toBe(0);
  expect(Date.now() - asked).toBeLessThan(2000);
  expect(lines(app).some((l) => l.msg === "admin-api stopping before it was ready")).toBe(true);
  expect(lines(app).filter((l) => l.level === "fatal")).toEqual([]);
});

describe("a dependency that comes up during the wait", () => {
  it.concurrent("ingest-api waits for a NATS started late, then becomes ready and accepts an event", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    const db = await createTestDatabase(uniqueName("t_start"));
    try {
      const { key, regEventId } = await seedCampaignWithKey(db);
      const app = await start("ingest-api", { ...testServiceEnv(db.schema, { natsUrl: nats.url }), STARTUP_TIMEOUT_MS: "30000" });
      await waitUntil(() => lines(app).some((l) => l.level === "warn" && l.dependency === "nats"), 15_000, "a failed attempt at NATS");
      // PostgreSQL is up from the start, but on a busy machine its first connection can still be under way.
      await waitUntil(() => lines(app).some((l) => l.msg === "postgres reachable"), 15_000, "PostgreSQL to be reached");
      expect((await getJson(`${app.url}/readyz`)).body).toMatchObject({ status: "starting", waiting: ["nats"] });
      await nats.start();
      await waitUntil(async () => (await getJson(`${app.url}/readyz`)).status === 200, 20_000, "ingest-api to be ready");
      const answer = await postJson(
        `${app.url}/api/rest/earn-event`,
        { account_id: "42", identity_type: "DISCORD_PROVIDER_ID", amount: "1", reg_event_id: regEventId },
        { authorization: `Bearer ${key}` },
      );
      expect(answer.body.data.event_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines(app).some((l) => l.msg === "nats reachable")).toBe(true);
      await app.stop("SIGKILL");
    } finally {
      await nats.destroy();
      await db.drop();
    }
  });

  it.concurrent("read-api waits for PostgreSQL behind a proxy that refuses, then forwards; it becomes ready and serves", async () => {
    const db = await createTestDatabase(uniqueName("t_start"));
    const proxy = await createTcpProxy(testUrls.database);
    try {
      const campaign = await seedCampaign(db, { currencies: { xp: "XP" } });
      await seedScore(db, campaign, await seedUser(db, campaign, { displayName: "Early Bird" }), "xp", { score: "12" });
      const app = await start("read-api", { ...testServiceEnv(db.schema), DATABASE_URL: proxy.url, STARTUP_TIMEOUT_MS: "30000" });
      await waitUntil(() => lines(app).some((l) => l.level === "warn" && l.dependency === "postgres"), 15_000, "a failed attempt at PostgreSQL");
      expect((await getJson(`${app.url}/leaderboard?campaign_id=${campaign}`)).body).toMatchObject({ error: { code: "starting" } });
      await proxy.start();
      await waitUntil(async () => (await getJson(`${app.url}/readyz`)).status === 200, 20_000, "read-api to be ready");
      const board = await getJson(`${app.url}/leaderboard?campaign_id=${campaign}`);
      expect(board.status).toBe(200);
      expect(board.body.entries).toMatchObject([{ rank: 1, scores: { xp: { total: 12 } } }]);
      await app.stop("SIGKILL");
    } finally {
      await proxy.stop();
      await db.drop();
    }
  });

  it.concurrent("read-api serves without Redis (ready, degraded), and reports ready once Redis behind a proxy answers", async () => {
    const db = await createTestDatabase(uniqueName("t_start"));
    const proxy = await createTcpProxy(testUrls.redis);
    try {
      const app = await start("read-api", { ...testServiceEnv(db.schema), REDIS_URL: proxy.url, STARTUP_TIMEOUT_MS: String(DEADLINE_MS) });
      await waitUntil(async () => (await getJson(`${app.url}/readyz`).catch(() => ({ status: 0 }))).status === 200, 15_000, "read-api to be ready");
      expect(await getJson(`${app.url}/readyz`)).toEqual({ status: 200, body: { status: "degraded", checks: { postgres: true, redis: false } } });
      // The first failed check is logged at info; the second, a moment later, warns.
      await waitUntil(async () => lines(app).some((l) => l.level === "warn" && l.dependency === "redis"), 10_000, "read-api to warn about redis");
      // Past the start-up deadline it is still running: an optional dependency has none.
      await sleep(DEADLINE_MS + 500);
      expect(app.child.exitCode).toBeNull();
      await proxy.start();
      await waitUntil(async () => (await getJson(`${app.url}/readyz`)).body.status === "ready", 40_000, "Redis to be reported back");
      expect(await getJson(`${app.url}/readyz`)).toEqual({ status: 200, body: { status: "ready", checks: { postgres: true, redis: true } } });
      await app.stop("SIGKILL");
    } finally {
      await proxy.stop();
      await db.drop();
    }
  });
});

describe("optional dependencies do not hold start-up", () => {
  it.concurrent.each([
    ["ingest-api", "redis", { postgres: true, nats: true, redis: false }],
    ["read-api", "nats", { postgres: true, redis: true }],
    ["admin-api", "nats", { postgres: true }],
  ] as const)("%s with %s unreachable becomes ready, reporting only what it needs", async (name, dependency, checks) => {
    const { url } = await closedUrl(dependency);
    const namespace = uniqueName("t_start");
    const db = await createTestDatabase(namespace);
    try {
      const app = await start(name, { ...testServiceEnv(namespace), [VARIABLE[dependency]]: url, STARTUP_TIMEOUT_MS: String(DEADLINE_MS) });
      await waitUntil(async () => (await getJson(`${app.url}/readyz`).catch(() => ({ status: 0 }))).status === 200, 20_000, `${name} to be ready`);
      const ready = await getJson(`${app.url}/readyz`);
      expect(ready.body.checks).toEqual(checks);
      if (name !== "admin-api") {
        expect(ready.body.status).toBe(name === "ingest-api" ? "degraded" : "ready");
        // The first failed check is logged at info; the second, a moment later, warns.
        await waitUntil(async () => lines(app).some((l) => l.level === "warn" && l.dependency === dependency), 10_000, `${name} to warn about ${dependency}`);
      }
      expect(app.output()).not.toContain(PASSWORD);
      await app.stop("SIGKILL");
    } finally {
      await db.drop();
      await dropNamespace(namespace).catch(() => undefined);
    }
  });
});
