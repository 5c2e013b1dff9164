import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen, runService } from "@pointwise/runtime";
import { createIngestApp } from "./app";
import { loadEnv } from "./env";

const logger = createLogger({ service: "ingest-api" });

void runService("ingest-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "ingest-api" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, publishTimeoutMs: env.PUBLISH_TIMEOUT_MS, name: "ingest-api" });
  await bus.ensureStreams();
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE });
  const server = await listen(createIngestApp({ env, logger, db, bus, cache }), env.PORT, env.HOST);
  logger.info({ url: `http://${env.HOST}:${env.PORT}` }, "ingest-api listening");
  return {
    async stop() {
      // Requests in flight finish (their publish is awaited) before the bus is drained.
      await closeServer(server);
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
});
