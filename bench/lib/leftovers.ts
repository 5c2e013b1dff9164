// What an interrupted `npm run bench` leaves behind, and the lock that makes removing it safe. Every
// benchmark works in its own PostgreSQL schema, JetStream stream and Redis key prefix, all named
// `bench_<10 hex digits>` (bench/lib/fixture.ts), and drops them when it ends; a run stopped by
// Ctrl-C or a kill never gets there, and its stream alone can hold 200,000 events. The next run
// removes them, after taking a lock that only one run at a time can hold, so it never removes the
// schema or stream of a run still in progress. The lock lives in the bench database: two runs
// pointed at different databases (BENCH_DATABASE_URL) but one NATS and Redis are not kept apart.
import { busNames } from "@pointwise/bus";
import { connect, type NatsConnection } from "nats";
import pg, { type Pool } from "pg";
import { createClient, type RedisClientType } from "redis";

/** What removeLeftovers removed. */
export interface Removed {
  schemas: string[];
  streams: string[];
  keys: number;
}

/** The services a bench run uses; `prefix` is the fixtures' name prefix ("bench"). */
export interface LeftoverDeps {
  pool: Pool;
  nats: NatsConnection;
  redis: RedisClientType;
  prefix?: string;
}

const LOCK = "pointwise-bench-run";

/**
 * Removes the schemas, JetStream streams and Redis keys of earlier bench runs that did not end.
 * Call it only while holding the run lock (beginRun): a live run's fixtures look the same.
 */
export async function removeLeftovers({ pool, nats, redis, prefix = "bench" }: LeftoverDeps): Promise<Removed> {
  const name = new RegExp(`^${prefix}_[0-9a-f]{10}$`);
  const { rows } = await pool.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)", [`${prefix}_`]);
  const schemas = rows.map((r) => r.nspname).filter((s) => name.test(s));
  for (const s of schemas) await pool.query(`DROP SCHEMA "${s}" CASCADE`);

  const jsm = await nats.jetstreamManager();
  const streams: string[] = [];
  for await (const info of jsm.streams.list()) {
    const stream = info.config.name;
    // The stream's namespace, if it is one: lowercase its name without the bus's suffix, and keep it
    // only if the bus names that namespace's stream exactly so.
    const namespace = stream.replace(/_EVENTS$/, "").toLowerCase();
    if (name.test(namespace) && busNames(namespace).eventsStream === stream) streams.push(stream);
  }
  for (const s of streams) await jsm.streams.delete(s);

  let keys = 0;
  const doomed: string[] = [];
  for await (const key of redis.scanIterator({ MATCH: `${prefix}_*`, COUNT: 1000 })) {
    if (name.test(key.split(":")[0] ?? "")) doomed.push(key);
  }
  for (let i = 0; i < doomed.length; i += 1000) keys += await redis.unlink(doomed.slice(i, i + 1000));
  return { schemas, streams, keys };
}

/**
 * What bench/run.mjs does before its first benchmark: takes the lock of a bench run on the bench database, held on
 * one connection until `release` (or the end of the process), and removes what interrupted runs left behind. When
 * another run holds the lock it calls `onWait` once and waits for that run to end: two runs on one machine would
 * measure each other, and the second would remove the first's schemas.
 */
export async function beginRun(
  urls: { database: string; nats: string; redis: string },
  onWait: () => void = () => undefined,
): Promise<{ removed: Removed; release(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: urls.database, max: 2 });
  const client = await pool.connect();
  const release = async () => {
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [LOCK]).catch(() => undefined);
    client.release();
    await pool.end();
  };
  try {
    const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [LOCK]);
    if (!rows[0]?.ok) {
      onWait();
      await client.query("SELECT pg_advisory_lock(hashtext($1))", [LOCK]);
    }
    const nats = await connect({ servers: urls.nats });
    const redis: RedisClientType = createClient({ url: urls.redis });
    try {
      await redis.connect();
      return { removed: await removeLeftovers({ pool, nats, redis }), release };
    } finally {
      await nats.close();
      if (redis.isOpen) await redis.quit();
    }
  } catch (err) {
    await release();
    throw err;
  }
}
