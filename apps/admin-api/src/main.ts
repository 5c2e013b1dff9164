// admin-api process entry: reads env, seeds the first operator, wires deps and serves until SIGTERM.
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen, runService } from "@pointwise/runtime";
import { createAdminApp } from "./app";
import { loadEnv } from "./env";
import { lazyIngest } from "./ingest";
import { ensureFirstOperator } from "./operators";

const logger = createLogger({ service: "admin-api" });

void runService("admin-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "admin-api" });
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const { created, passwordReset } = await ensureFirstOperator(db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD, env.ADMIN_PROJECT_NAME);
    if (created) logger.info({ email: env.ADMIN_EMAIL }, "first operator created");
    if (passwordReset) logger.warn({ email: env.ADMIN_EMAIL }, "first operator's password reset to ADMIN_PASSWORD");
  }
  const ingest = lazyIngest({ url: env.NATS_URL, namespace: env.NAMESPACE, db, logger });
  const server = await listen(createAdminApp({ env, logger, db, ingest }), env.PORT, env.HOST);
  logger.info({ url: `http://${env.HOST}:${env.PORT}` }, "admin-api listening");
  return {
    async stop() {
      // Uploads in flight finish (their publishes are awaited) before the bus is closed.
      await closeServer(server);
      await ingest.close();
      await db.close();
    },
  };
});
