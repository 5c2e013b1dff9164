// The scoring worker process: builds its dependencies, starts the worker and its health endpoints, stops on SIGTERM.
import { createBus } from "@pointwise/bus";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, createHttpApp, finishHttpApp, listen, runService } from "@pointwise/runtime";
import type { WorkerDeps } from "./deps";
import { loadEnv } from "./env";
import { startWorker } from "./worker";

const logger = createLogger({ service: "scoring-worker" });

void runService("scoring-worker", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "scoring-worker" });
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, name: "scoring-worker" });
  const deps: WorkerDeps = { env, logger, db, bus };
  const worker = await startWorker(deps);
  const health = createHttpApp({
    logger,
    readiness: [
      { name: "postgres", check: () => db.ping() },
      { name: "nats", check: () => bus.ping() },
    ],
  });
  const server = await listen(finishHttpApp(health, logger), env.PORT, env.HOST);
  logger.info({ consumer: env.CONSUMER_NAME, stream: bus.names.eventsStream }, "scoring-worker consuming");
  return {
    async stop() {
      await worker.stop();
      await closeServer(server);
      await bus.close();
      await db.close();
    },
  };
});
