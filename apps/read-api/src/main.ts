// read-api process entry: wires PostgreSQL, Redis and NATS invalidation, serves until SIGTERM.
import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen, runService } from "@pointwise/runtime";
import { createReadApp, createReadResponses } from "./app";
import { loadBadWords } from "./bad-words";
import { loadEnv } from "./env";
import { subscribeInvalidations } from "./invalidation";

const logger = createLogger({ service: "read-api" });

void runService("read-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const badWords = loadBadWords(env.BAD_WORDS_FILE);
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "read-api" });
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE, connectInBackground: true });
  const deps = { env, logger, db, cache, badWords };
  const responses = createReadResponses(deps);
  // NATS only speeds up invalidation, so read-api starts and serves without it (see invalidation.ts).
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, name: "read-api", connectInBackground: true });
  const invalidations = subscribeInvalidations({ bus, responses, logger });
  const server = await listen(createReadApp(deps, responses), env.PORT, env.HOST);
  logger.info({ url: `http://${env.HOST}:${env.PORT}`, bad_words: badWords.length }, "read-api listening");
  return {
    async stop() {
      await closeServer(server);
      await invalidations.close();
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
});
