// read-api process entry: opens its port, reaches PostgreSQL (Redis and NATS in the background), serves until SIGTERM.
import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { loadBadWords } from "@pointwise/config";
import { createDatabase, routeReads } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { maskUrl, openStartup, runService } from "@pointwise/runtime";
import { createReadApp, createReadResponses } from "./app";
import { loadEnv } from "./env";
import { subscribeInvalidations } from "./invalidation";
import { replicaMetrics } from "./metrics";

const logger = createLogger({ service: "read-api" });

void runService("read-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const badWords = loadBadWords(env.BAD_WORDS_FILE);
  const startup = await openStartup({ name: "read-api", logger, port: env.PORT, host: env.HOST, timeoutMs: env.STARTUP_TIMEOUT_MS });
  const primary = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "read-api" });
  // read-api only reads: with a replica configured, reads go there while it keeps within READ_REPLICA_MAX_LAG_MS.
  const routing =
    env.DATABASE_READ_URL === undefined
      ? undefined
      : routeReads({
          primary,
          replica: createDatabase({ url: env.DATABASE_READ_URL, schema: env.DATABASE_SCHEMA, applicationName: "read-api" }),
          maxLagMs: env.READ_REPLICA_MAX_LAG_MS,
          checkEveryMs: env.READ_REPLICA_CHECK_MS,
          logger,
          replicaUrl: maskUrl(env.DATABASE_READ_URL),
        });
  const db = routing?.db ?? primary;
  // Redis is the response cache and NATS only speeds up its invalidation: read-api serves without
  // either, so both connect in the background; PostgreSQL holds the answers and is waited for.
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE, firstConnect: "background" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, name: "read-api", firstConnect: "background" });
  startup.optional({
    redis: { url: env.REDIS_URL, connect: () => cache.checkConnection() },
    nats: { url: env.NATS_URL, connect: () => bus.checkConnection() },
  });
  try {
    await startup.require({ postgres: { url: env.DATABASE_URL, connect: () => primary.checkConnection() } });
  } catch (err) {
    await Promise.all([startup.close(), bus.close(), cache.close(), db.close()]);
    throw err;
  }
  const metrics = createServiceMetrics({ service: "read-api", processMetrics: true });
  if (routing) replicaMetrics(metrics, routing);
  const deps = { env, logger, db, cache, badWords, metrics };
  const responses = createReadResponses(deps);
  const invalidations = subscribeInvalidations({ bus, responses, logger });
  startup.serve(createReadApp(deps, responses));
  logger.info({ url: startup.url, bad_words: badWords.length, read_replica: routing !== undefined }, "read-api listening");
  return {
    async stop() {
      await startup.close();
      await invalidations.close();
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
});
