// Starts ingest-api (connections, HTTP server, idempotency purge) and returns how to stop it.
import { createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import { closeServer, listen, type Running } from "@pointwise/runtime";
import { collectDefaultMetrics } from "prom-client";
import { buildIngestApp } from "./app";
import type { Env } from "./env";
import { startIdempotencyPurge } from "./purge";

/**
 * Starts ingest-api as main.ts runs it (connections, HTTP server, Idempotency-Key purge) and
 * returns how to stop it; tests call it in-process to check what the running service does.
 */
export async function startIngestApi(env: Env, logger: Logger): Promise<Running> {
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "ingest-api" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, publishTimeoutMs: env.PUBLISH_TIMEOUT_MS, name: "ingest-api" });
  await bus.ensureStreams();
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE });
  const { app, ctx } = buildIngestApp({ env, logger, db, bus, cache });
  if (env.METRICS) collectDefaultMetrics({ register: ctx.metrics.registry });
  const purge = startIdempotencyPurge(ctx.pipeline.idempotency, { everyMs: env.IDEMPOTENCY_PURGE_INTERVAL_MS, logger });
  const server = await listen(app, env.PORT, env.HOST);
  logger.info({ url: `http://${env.HOST}:${env.PORT}` }, "ingest-api listening");
  return {
    async stop() {
      await purge.stop();
      // Requests in flight finish (their publish is awaited) before the bus is drained.
      await closeServer(server);
      await ctx.pipeline.close();
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
}
