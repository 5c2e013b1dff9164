// Starts ingest-api (port first, then its dependencies, then the app and its housekeeping) and returns how to stop it.
import { type Bus, createBus } from "@pointwise/bus";
import { createCache } from "@pointwise/cache";
import { createDatabase } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import { openStartup, type Running } from "@pointwise/runtime";
import { collectDefaultMetrics } from "prom-client";
import { buildIngestApp } from "./app";
import type { Env } from "./env";
import { startHousekeeping } from "./housekeeping";

/**
 * Starts ingest-api as main.ts runs it and returns how to stop it; tests call it in-process to check
 * what the running service does. The port answers /healthz and /readyz at once; PostgreSQL (keys,
 * event types, Idempotency-Key records) and NATS (where events go) are required and waited for up to
 * STARTUP_TIMEOUT_MS; Redis only holds the rate limit, which is not enforced while Redis is away, so
 * it is optional: connected in the background.
 */
export async function startIngestApi(env: Env, logger: Logger): Promise<Running> {
  const startup = await openStartup({
    name: "ingest-api",
    logger,
    port: env.PORT,
    host: env.HOST,
    timeoutMs: env.STARTUP_TIMEOUT_MS,
    // The spec fixes every /api/rest/ answer at HTTP 200 with the data/errors envelope, even this one.
    answerWhileStarting(req, res, message) {
      if (!(req.url ?? "").startsWith("/api/rest/")) return false;
      const body = JSON.stringify({ data: null, errors: [{ message, extensions: { code: "starting" } }] });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "retry-after": "1" });
      res.end(body);
      return true;
    },
  });
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "ingest-api" });
  const cache = await createCache({ url: env.REDIS_URL, prefix: env.NAMESPACE, firstConnect: "background" });
  startup.optional({ redis: { url: env.REDIS_URL, connect: () => cache.checkConnection() } });
  let bus: Bus;
  try {
    ({ nats: bus } = await startup.require({
      postgres: { url: env.DATABASE_URL, connect: () => db.checkConnection() },
      nats: {
        url: env.NATS_URL,
        connect: () =>
          createBus({
            url: env.NATS_URL,
            namespace: env.NAMESPACE,
            publishTimeoutMs: env.PUBLISH_TIMEOUT_MS,
            name: "ingest-api",
            firstConnect: "once",
            ...(env.STREAM_REPLICAS === undefined ? {} : { streamReplicas: env.STREAM_REPLICAS }),
          }),
      },
    }));
  } catch (err) {
    await Promise.all([startup.close(), cache.close(), db.close()]);
    throw err;
  }
  await bus.ensureStreams();
  const { app, ctx } = buildIngestApp({ env, logger, db, bus, cache });
  if (env.METRICS) collectDefaultMetrics({ register: ctx.metrics.registry });
  const housekeeping = startHousekeeping({ db, idempotency: ctx.pipeline.idempotency, logger }, { purgeEveryMs: env.IDEMPOTENCY_PURGE_INTERVAL_MS });
  startup.serve(app);
  logger.info({ url: startup.url }, "ingest-api listening");
  return {
    async stop() {
      await housekeeping.stop();
      // Requests in flight finish (their publish is awaited) before the bus is drained.
      await startup.close();
      await ctx.pipeline.close();
      await bus.close();
      await cache.close();
      await db.close();
    },
  };
}
