/**
 * The running ingest-api deletes expired Idempotency-Key records on its own, once at start and every
 * IDEMPOTENCY_PURGE_INTERVAL_MS, and its timer is cleared when the service stops.
 */
import { Writable } from "node:stream";
import { createLogger } from "@pointwise/logger";
import type { Running } from "@pointwise/runtime";
import { createTestBus, createTestDatabase, freePort, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import { loadEnv } from "../src/env";
import { startIngestApi } from "../src/service";

// Real services: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const EVERY_MS = 200;
const namespace = uniqueName("purge");
const logs: Record<string, unknown>[] = [];
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let service: Running | undefined;

/** Stores a completed record whose key was first used `age` ago (a PostgreSQL interval). */
async function remember(key: string, age: string): Promise<void> {
  await db.query(
    `INSERT INTO idempotency_key (campaign_id, key, fingerprint, event_ids, received_at, status, response, created_at, completed_at)
     VALUES ('purg-0001', $1, 'f', ARRAY[gen_random_uuid()], now() - $2::interval, 'done', '"answer"', now() - $2::interval, now() - $2::interval)`,
    [key, age],
  );
}

async function keys(): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>("SELECT key FROM idempotency_key ORDER BY key");
  return rows.map((r) => r.key);
}

const logged = (msg: string) => logs.filter((line) => line.msg === msg);

beforeAll(async () => {
  db = await createTestDatabase(namespace);
  // The service creates the stream of its namespace; this handle deletes it afterwards.
  bus = await createTestBus(namespace);
});
afterAll(async () => {
  await service?.stop();
  await bus?.drop();
  await db?.drop();
});

it("deletes records older than 24 hours every IDEMPOTENCY_PURGE_INTERVAL_MS while it runs, and keeps younger ones", async () => {
  await remember("expired-1", "25 hours");
  await remember("young", "23 hours 59 minutes");
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split("\n")) if (line) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger({ service: "ingest-api", level: "info", destination });
  const env = loadEnv({
    ...testServiceEnv(namespace),
    PORT: String(await freePort()),
    METRICS: "false",
    IDEMPOTENCY_PURGE_INTERVAL_MS: String(EVERY_MS),
  });
  service = await startIngestApi(env, logger);

  await waitUntil(async () => (await keys()).join() === "young", 5000, "the first purge");
  // A second expired record goes on a later round: the purge repeats, it does not run once.
  await remember("expired-2", "2 days");
  await waitUntil(async () => (await keys()).join() === "young", 5000, "a later purge");
  expect(logged("expired Idempotency-Key records deleted").map((line) => line.deleted)).toEqual([1, 1]);
});

it("clears the timer on shutdown: after stop no purge runs (one would fail against the closed pool and warn)", async () => {
  await service?.stop();
  service = undefined;
  await remember("after-stop", "25 hours");
  await new Promise((resolve) => setTimeout(resolve, 5 * EVERY_MS));
  expect(await keys()).toEqual(["after-stop", "young"]);
  expect(logged("could not delete expired Idempotency-Key records")).toEqual([]);
});

it("purges once at start, long before the first interval has passed", async () => {
  // "after-stop" (25 hours old) is still there from the test before; a 1-hour interval cannot be what removes it.
  await remember("expired-at-restart", "30 hours");
  const logger = createLogger({ service: "ingest-api", level: "silent" });
  const env = loadEnv({ ...testServiceEnv(namespace), PORT: String(await freePort()), METRICS: "false", IDEMPOTENCY_PURGE_INTERVAL_MS: String(60 * 60_000) });
  service = await startIngestApi(env, logger);
  await waitUntil(async () => (await keys()).join() === "young", 5000, "the purge at start");
  expect(await keys()).toEqual(["young"]);
});
