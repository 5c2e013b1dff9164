// read-api process entry: opens its port, reaches PostgreSQL (Redis and NATS in the background), serves until SIGTERM.
import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { openStartup, runService } from "@pointwise/runtime";
import { createReadApp, createReadResponses } from "./app";
import { loadBadWords } from "./bad-words";
import { loadEnv } from "./env";
import { subscribeInvalidations } from "./invalidation";

const logger = createLogger({ service: "read-api" });

void runService("read-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const badWords = loadBadWords(env.BAD_WORDS_FILE);
  const startup = await openStartup({ name: "read-api", logger, port: env.PORT, host: env.HOST, timeoutMs: env.STARTUP_TIMEOUT_MS });
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "read-api" });
  // Redis is the response cache and NATS only speeds up its invalidation: read-api serves without
  // either, so both connect in the background; PostgreSQL holds the answers and is waited for.
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE, firstConnect: "background" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, name: "read-api", firstConnect: "background" });
  startup.optional({
    redis: { url: env.REDIS_URL, connect: () => cache.checkConnection() },
    nats: { url: env.NATS_URL, connect: () => bus.checkConnection() },
  });
  try {
    await startup.require({ postgres: { url: env.DATABASE_URL, connect: () => db.checkConnection() } });
  } catch (err) {
    await Promise.all([startup.close(), bus.close(), cache.close(), db.close()]);
    throw err;
  }
  const deps = { env, logger, db, cache, badWords };
  const responses = createReadResponses(deps);
  const invalidations = subscribeInvalidations({ bus, responses, logger });
  startup.serve(createReadApp(deps, responses));
  logger.info({ url: startup.url, bad_words: badWords.length }, "read-api listening");
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
