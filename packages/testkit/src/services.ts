// Isolated test handles on the real PostgreSQL, Redis and NATS: own schema, key prefix and stream.
import { randomBytes } from "node:crypto";
import { type Bus, createBus } from "@pointwise/bus";
import { type Cache, createCache } from "@pointwise/cache";
import { createDatabase, type Database, dropSchema, migrate } from "@pointwise/db";
import type { RawEventMessage, ScoresChanged } from "@pointwise/schemas";
import { waitUntil } from "./processes";

/** Where the real services of the test run are (npm test sets these; the defaults fit this machine). */
export const testUrls = {
  database: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pointwise_test",
  redis: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  nats: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
};

/**
 * The settings every service shares (DATABASE_URL, DATABASE_SCHEMA, REDIS_URL, NATS_URL, NAMESPACE),
 * pointed at the test run's services, one schema and one namespace (the schema's name by default).
 */
export function testServiceEnv(schema: string, options: { namespace?: string; natsUrl?: string } = {}): Record<string, string> {
  return {
    DATABASE_URL: testUrls.database,
    DATABASE_SCHEMA: schema,
    REDIS_URL: testUrls.redis,
    NATS_URL: options.natsUrl ?? testUrls.nats,
    NAMESPACE: options.namespace ?? schema,
  };
}

/** A fresh lowercase identifier for a schema, namespace or key prefix: `<prefix>_<random>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString("hex")}`.toLowerCase();
}

/** An isolated, migrated schema in the test database. */
export async function createTestDatabase(schema: string = uniqueName("t")): Promise<Database & { drop(): Promise<void> }> {
  const db = createDatabase({ url: testUrls.database, schema, max: 5 });
  await migrate(db);
  return Object.assign(db, {
    async drop() {
      await dropSchema(db);
      await db.close();
    },
  });
}

/** A bus in its own namespace (own stream and subjects); `drop` deletes the stream. */
export async function createTestBus(namespace: string = uniqueName("t"), url: string = testUrls.nats): Promise<Bus & { drop(): Promise<void> }> {
  const bus = await createBus({ url, namespace, publishTimeoutMs: 2000 });
  await bus.ensureStreams();
  return Object.assign(bus, {
    async drop() {
      await bus.deleteStreams().catch(() => undefined);
      await bus.close();
    },
  });
}

/**
 * Announces `change` on a namespace, again and again, until `acted` says a reader acted on it. A reader
 * (read-api) subscribes a moment after it reports ready, and a change announced before that is lost
 * (best effort), so a test that needs the subscription up waits for it this way.
 */
export async function announceUntil(namespace: string, change: Omit<ScoresChanged, "at">, acted: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const bus = await createTestBus(namespace);
  try {
    await waitUntil(
      async () => {
        bus.publishScoresChanged({ ...change, at: new Date().toISOString() });
        return acted();
      },
      timeoutMs,
      "a reader to act on score changes",
    );
  } finally {
    await bus.close();
  }
}

/** A cache under its own key prefix (on `url`, the test run's Redis by default); `drop` deletes every key under it. */
export async function createTestCache(prefix: string = uniqueName("t"), url: string = testUrls.redis): Promise<Cache & { drop(): Promise<void> }> {
  const cache = await createCache({ url, prefix });
  return Object.assign(cache, {
    async drop() {
      await cache.delTree(cache.key());
      await cache.close();
    },
  });
}

/**
 * Deletes what a namespace's apps leave on the shared NATS and Redis: its JetStream stream and every
 * Redis key under its prefix. Dropping a test's schema does not reach these.
 */
export async function dropNamespace(namespace: string): Promise<void> {
  const bus = await createBus({ url: testUrls.nats, namespace });
  try {
    await bus.deleteStreams().catch(() => undefined);
  } finally {
    await bus.close();
  }
  await (await createTestCache(namespace)).drop();
}

/** Every message of a bus's events stream, in order, parsed as raw events. */
export async function streamMessages(bus: Bus): Promise<RawEventMessage[]> {
  return (await bus.storedEvents()).map((m) => m.json<RawEventMessage>());
}
