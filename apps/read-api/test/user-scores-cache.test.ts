// GET /users/{user_id}/scores under load: timely revocation, shared lookups, failures not remembered.
import { setTimeout as sleep } from "node:timers/promises";
import type { Cache } from "@pointwise/cache";
import { createDatabase, type Database, type Queryable } from "@pointwise/db";
import { freePort, seedApiKey, seedCampaign, seedScore, seedUser, testUrls } from "@pointwise/testkit";
import { get, startReadApi, type TestReadApi } from "./support";

// Short enough to wait out in a test, long enough that every request below finds the key remembered.
const KEY_CACHE_MS = 1000;

let api: TestReadApi;
let pool: Queryable;
let campaign = "";

beforeAll(async () => {
  api = await startReadApi({ API_KEY_CACHE_MS: String(KEY_CACHE_MS), CACHE_TTL_MS: "600000" });
  pool = api.db;
  campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
});
afterAll(async () => {
  await api?.close();
});

/** The real database, counting the queries whose SQL contains a marker and holding each back `delayMs` (a busy database). */
function countingDatabase(counts: Record<string, number>, delayMs: number): Database {
  return new Proxy(api.db, {
    get(target, prop, receiver) {
      if (prop !== "query") return Reflect.get(target, prop, receiver);
      return async (...args: unknown[]) => {
        for (const marker of Object.keys(counts)) if (typeof args[0] === "string" && args[0].includes(marker)) counts[marker] = (counts[marker] ?? 0) + 1;
        await sleep(delayMs);
        return (target.query as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The real cache, counting the one-round-trip reads (GET + PTTL) read-api makes of it directly. */
function countingCache(reads: { multi: number }): Cache {
  return {
    ...api.cache,
    getWithTtl(key) {
      reads.multi += 1;
      return api.cache.getWithTtl(key);
    },
  };
}

describe("GET /users/{user_id}/scores under load", () => {
  it("refuses a revoked key for every request that arrives API_KEY_CACHE_MS after the revocation, even under constant use", async () => {
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: "5" });
    const key = (await seedApiKey(api.db, campaign)).key;
    const answers: { sentAt: number; status: number }[] = [];
    let revokedAt = Number.POSITIVE_INFINITY;
    let stop = false;
    // Five clients read all the time, so the remembered lookup is always in use when it expires.
    const clients = Array.from({ length: 5 }, async () => {
      while (!stop) {
        const sentAt = Date.now();
        const res = await get(`${api.url}/users/${user}/scores`, { "x-api-key": key });
        answers.push({ sentAt, status: res.status });
      }
    });
    await sleep(300);
    await pool.query("UPDATE api_key SET revoked_at = now() WHERE prefix = $1", [key.slice(0, 11)]);
    revokedAt = Date.now();
    await sleep(KEY_CACHE_MS + 700);
    stop = true;
    await Promise.all(clients);

    const before = answers.filter((a) => a.sentAt < revokedAt - 50);
    const late = answers.filter((a) => a.sentAt >= revokedAt + KEY_CACHE_MS);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((a) => a.status === 200)).toBe(true);
    expect(late.length).toBeGreaterThan(0);
    expect(late.map((a) => a.status)).toEqual(late.map(() => 401));
  });

  it("shares one key lookup, one campaign lookup and two cache reads among concurrent requests for a user not yet cached", async () => {
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: "7" });
    const key = (await seedApiKey(api.db, campaign)).key;
    const queries: Record<string, number> = { "FROM api_key": 0, "SELECT campaign_id FROM app_user": 0, "FROM campaign c": 0 };
    const reads = { multi: 0 };
    // Every query takes 100 ms, so all 40 requests arrive while the first one's lookups are running.
    const url = await api.another({ db: countingDatabase(queries, 100), cache: countingCache(reads) });

    const answers = await Promise.all(Array.from({ length: 40 }, () => get(`${url}/users/${user}/scores`, { "x-api-key": key })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(queries["FROM api_key"]).toBe(1);
    // One to authorize, one inside the build.
    expect(queries["SELECT campaign_id FROM app_user"]).toBe(2);
    expect(queries["FROM campaign c"]).toBe(1);
    // One read before the build, one after it to keep a local copy; none per request.
    expect(reads.multi).toBe(2);
  });

  it("looks a failed key lookup up again on the next request instead of remembering the failure", async () => {
    const user = await seedUser(api.db, campaign);
    const key = (await seedApiKey(api.db, campaign)).key;
    // The first key lookup goes to a port nothing listens on (a real refused connection), the rest to PostgreSQL.
    const down = new URL(testUrls.database);
    down.hostname = "127.0.0.1";
    down.port = String(await freePort());
    const unreachable = createDatabase({ url: down.toString(), schema: api.db.schema, max: 1 });
    let firstKeyLookup = true;
    const routed = new Proxy(api.db, {
      get(target, prop, receiver) {
        if (prop !== "query") return Reflect.get(target, prop, receiver);
        return (...args: unknown[]) => {
          const toDown = firstKeyLookup && typeof args[0] === "string" && args[0].includes("FROM api_key");
          if (toDown) firstKeyLookup = false;
          return ((toDown ? unreachable : target).query as (...a: unknown[]) => unknown).apply(toDown ? unreachable : target, args);
        };
      },
    });
    try {
      const url = await api.another({ db: routed });
      const failed = await get(`${url}/users/${user}/scores`, { "x-api-key": key });
      expect([failed.status, failed.body.error.code]).toEqual([503, "database-unavailable"]);
      expect((await get(`${url}/users/${user}/scores`, { "x-api-key": key })).status).toBe(200);
    } finally {
      await unreachable.close().catch(() => undefined);
    }
  });
});
