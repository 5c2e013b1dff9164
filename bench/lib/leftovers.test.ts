import { randomBytes } from "node:crypto";
import { testUrls, uniqueName } from "@pointwise/testkit";
import { connect, type JetStreamManager, type NatsConnection } from "nats";
import pg from "pg";
import { createClient, type RedisClientType } from "redis";
import { holdRunLock, removeLeftovers } from "./leftovers";

// Each test names its fixtures with a prefix of its own, so it never touches a real run's bench_*.
let pool: pg.Pool;
let nats: NatsConnection;
let jsm: JetStreamManager;
let redis: RedisClientType;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: testUrls.database, max: 4 });
  nats = await connect({ servers: testUrls.nats });
  jsm = await nats.jetstreamManager();
  redis = createClient({ url: testUrls.redis });
  await redis.connect();
});

afterAll(async () => {
  await pool.end();
  await nats.close();
  await redis.quit();
});

const hex10 = () => randomBytes(5).toString("hex");
const schemaExists = async (name: string) => (await pool.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [name])).rowCount === 1;
const streamExists = (name: string) =>
  jsm.streams.info(name).then(
    () => true,
    () => false,
  );

async function leave(namespace: string): Promise<void> {
  await pool.query(`CREATE SCHEMA "${namespace}"`);
  await pool.query(`CREATE TABLE "${namespace}".t (id int)`);
  await jsm.streams.add({ name: `${namespace.toUpperCase()}_EVENTS`, subjects: [`${namespace}.events.>`] });
  await redis.set(`${namespace}:lb:1`, "x");
  await redis.set(`${namespace}:user:2`, "y");
}

describe("removeLeftovers", () => {
  it("removes the schemas, streams and keys named like a run's fixtures and nothing else", async () => {
    const prefix = uniqueName("lo");
    const gone = [`${prefix}_${hex10()}`, `${prefix}_${hex10()}`];
    const kept = [`${prefix}_${hex10()}x`, `${prefix}x_${hex10()}`];
    for (const n of [...gone, ...kept]) await leave(n);
    try {
      const removed = await removeLeftovers({ pool, nats, redis, prefix });

      expect(removed.schemas.sort()).toEqual([...gone].sort());
      expect(removed.streams.sort()).toEqual(gone.map((n) => `${n.toUpperCase()}_EVENTS`).sort());
      expect(removed.keys).toBe(4);
      for (const n of gone) {
        expect(await schemaExists(n)).toBe(false);
        expect(await streamExists(`${n.toUpperCase()}_EVENTS`)).toBe(false);
        expect(await redis.exists([`${n}:lb:1`, `${n}:user:2`])).toBe(0);
      }
      for (const n of kept) {
        expect(await schemaExists(n)).toBe(true);
        expect(await streamExists(`${n.toUpperCase()}_EVENTS`)).toBe(true);
        expect(await redis.exists([`${n}:lb:1`, `${n}:user:2`])).toBe(2);
      }
    } finally {
      for (const n of kept) {
        await pool.query(`DROP SCHEMA IF EXISTS "${n}" CASCADE`);
        await jsm.streams.delete(`${n.toUpperCase()}_EVENTS`).catch(() => undefined);
        await redis.del([`${n}:lb:1`, `${n}:user:2`]);
      }
    }
  });

  it("removes nothing and says so when no run was interrupted", async () => {
    expect(await removeLeftovers({ pool, nats, redis, prefix: uniqueName("lo") })).toEqual({ schemas: [], streams: [], keys: 0 });
  });
});

describe("holdRunLock", () => {
  it("refuses a second run while the first holds the lock, and lets the next in once it is released", async () => {
    const first = await holdRunLock(pool);
    await expect(holdRunLock(pool)).rejects.toThrow("another `npm run bench` is running against this database");
    await first.release();
    const next = await holdRunLock(pool);
    await next.release();
  });
});
