// The scoring worker process: opens its health and metrics port, reaches PostgreSQL and NATS, starts the worker, stops on SIGTERM.
import { createBus } from "@pointwise/bus";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { createHttpApp, finishHttpApp, openStartup, runService } from "@pointwise/runtime";
import type { WorkerDeps } from "./deps";
import { loadEnv } from "./env";
import { createWorkerMetrics } from "./metrics";
import { startWorker } from "./worker";

const logger = createLogger({ service: "scoring-worker" });

void runService("scoring-worker", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const startup = await openStartup({ name: "scoring-worker", logger, port: env.PORT, host: env.HOST, timeoutMs: env.STARTUP_TIMEOUT_MS });
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "scoring-worker" });
  let deps: WorkerDeps;
  try {
    const { nats: bus } = await startup.require({
      postgres: { url: env.DATABASE_URL, connect: () => db.checkConnection() },
      nats: {
        url: env.NATS_URL,
        connect: () =>
          createBus({
            url: env.NATS_URL,
            namespace: env.NAMESPACE,
            name: "scoring-worker",
            firstConnect: "once",
            ...(env.STREAM_REPLICAS === undefined ? {} : { streamReplicas: env.STREAM_REPLICAS }),
          }),
      },
    });
    deps = { env, logger, db, bus };
  } catch (err) {
    await Promise.all([startup.close(), db.close()]);
    throw err;
  }
  const { bus } = deps;
  const metrics = createServiceMetrics({ service: "scoring-worker", processMetrics: true });
  const worker = await startWorker({ ...deps, metrics: createWorkerMetrics(metrics, bus, env.CONSUMER_NAME) });
  const health = createHttpApp({
    logger,
    metrics,
    readiness: [
      { name: "postgres", check: () => db.ping() },
      { name: "nats", check: () => bus.ping() },
    ],
  });
  startup.serve(finishHttpApp(health, logger));
  logger.info({ consumer: env.CONSUMER_NAME, stream: bus.names.eventsStream }, "scoring-worker consuming");
  return {
    async stop() {
      await worker.stop();
      await startup.close();
      await bus.close();
      await db.close();
    },
  };
});
