import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen, runService } from "@pointwise/runtime";
import { collectDefaultMetrics } from "prom-client";
import { buildIngestApp } from "./app";
import { loadEnv } from "./env";

const logger = createLogger({ service: "ingest-api" });
/** Expired Idempotency-Key records are deleted this often. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

void runService("ingest-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "ingest-api" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, publishTimeoutMs: env.PUBLISH_TIMEOUT_MS, name: "ingest-api" });
  await bus.ensureStreams();
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE });
  const { app, ctx } = buildIngestApp({ env, logger, db, bus, cache });
  if (env.METRICS) collectDefaultMetrics({ register: ctx.metrics.registry });
  const purge = setInterval(() => {
    ctx.pipeline.idempotency
      .purge()
      .then((deleted) => deleted > 0 && logger.info({ deleted }, "expired Idempotency-Key records deleted"))
      .catch((err: unknown) => logger.warn({ err }, "could not delete expired Idempotency-Key records"));
  }, PURGE_EVERY_MS);
  purge.unref();
  const server = await listen(app, env.PORT, env.HOST);
  logger.info({ url: `http://${env.HOST}:${env.PORT}` }, "ingest-api listening");
  return {
    async stop() {
      clearInterval(purge);
      // Requests in flight finish (their publish is awaited) before the bus is drained.
      await closeServer(server);
      await ctx.pipeline.close();
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
});
