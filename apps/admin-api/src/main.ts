// admin-api process entry: opens its port, reaches PostgreSQL, seeds the first operator, wires deps and serves until SIGTERM.

import { loadBadWords } from "@pointwise/config";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { openStartup, runService } from "@pointwise/runtime";
import { createAdminApp } from "./app";
import { loadEnv } from "./env";
import { lazyIngest } from "./ingest";
import { ensureFirstOperator } from "./operators";

const logger = createLogger({ service: "admin-api" });

void runService("admin-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  // Read before the port opens: a missing or empty list stops the start naming BAD_WORDS_FILE.
  const badWords = loadBadWords(env.BAD_WORDS_FILE);
  const startup = await openStartup({ name: "admin-api", logger, port: env.PORT, host: env.HOST, timeoutMs: env.STARTUP_TIMEOUT_MS });
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "admin-api" });
  try {
    await startup.require({ postgres: { url: env.DATABASE_URL, connect: () => db.checkConnection() } });
  } catch (err) {
    await Promise.all([startup.close(), db.close()]);
    throw err;
  }
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const { created, passwordReset } = await ensureFirstOperator(db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD, env.ADMIN_PROJECT_NAME);
    if (created) logger.info({ email: env.ADMIN_EMAIL }, "first operator created");
    if (passwordReset) logger.warn({ email: env.ADMIN_EMAIL }, "first operator's password reset to ADMIN_PASSWORD");
  }
  // NATS is reached only when a CSV upload first needs it (see ingest.ts), so it is no start-up dependency;
  // Redis is not used by admin-api.
  const ingest = lazyIngest({ url: env.NATS_URL, namespace: env.NAMESPACE, db, logger, streamReplicas: env.STREAM_REPLICAS });
  const metrics = createServiceMetrics({ service: "admin-api", processMetrics: true });
  startup.serve(createAdminApp({ env, logger, db, badWords, ingest, metrics }));
  logger.info({ url: startup.url }, "admin-api listening");
  return {
    async stop() {
      // Uploads in flight finish (their publishes are awaited) before the bus is closed.
      await startup.close();
      await ingest.close();
      await db.close();
    },
  };
});
