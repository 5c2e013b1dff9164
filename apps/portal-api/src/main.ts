// portal-api process entry: opens its port, reaches PostgreSQL (NATS in the background), loads its signing keys and serves until SIGTERM.
import { createBus } from "@pointwise/bus";
import { loadBadWords } from "@pointwise/config";
import { createDatabase } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { createServiceMetrics } from "@pointwise/metrics";
import { openStartup, runService } from "@pointwise/runtime";
import { createPortalApp } from "./app";
import { loadEnv } from "./env";
import { createTokenKeys } from "./keys";
import { createLogMailer, createSmtpMailer } from "./mailer";
import { createEvmChain } from "./wallet-evm";

const logger = createLogger({ service: "portal-api" });

void runService("portal-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  const keys = createTokenKeys(env.PORTAL_SIGNING_KEYS, {
    issuer: env.PORTAL_JWT_ISSUER,
    audience: env.PORTAL_JWT_AUDIENCE,
    maxLifetimeS: env.PORTAL_ACCESS_TOKEN_TTL_S,
  });
  const badWords = loadBadWords(env.BAD_WORDS_FILE);
  const startup = await openStartup({ name: "portal-api", logger, port: env.PORT, host: env.HOST, timeoutMs: env.STARTUP_TIMEOUT_MS });
  const db = createDatabase({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, applicationName: "portal-api" });
  // NATS only carries score-change announcements to read-api (best effort; its cache window is the
  // bound without them), so portal-api starts and redeems while NATS is away.
  const bus = await createBus({ url: env.NATS_URL, namespace: env.NAMESPACE, name: "portal-api", firstConnect: "background" });
  startup.optional({ nats: { url: env.NATS_URL, connect: () => bus.checkConnection() } });
  try {
    await startup.require({ postgres: { url: env.DATABASE_URL, connect: () => db.checkConnection() } });
  } catch (err) {
    await Promise.all([startup.close(), bus.close(), db.close()]);
    throw err;
  }
  // The chain is asked only when a contract wallet signs in, so it is no start-up dependency.
  const chain = env.PORTAL_EVM_RPC_URL ? createEvmChain(env.PORTAL_EVM_RPC_URL) : null;
  const smtp = env.PORTAL_MAILER === "smtp" ? createSmtpMailer({ url: env.PORTAL_SMTP_URL as string, from: env.PORTAL_MAIL_FROM as string }) : null;
  const metrics = createServiceMetrics({ service: "portal-api", processMetrics: true });
  startup.serve(createPortalApp({ env, logger, db, bus, keys, mailer: smtp ?? createLogMailer(logger), chain, badWords, metrics }));
  logger.info({ url: startup.url, keys: keys.jwks().keys.length }, "portal-api listening");
  if (!smtp) {
    // The log mailer writes codes at info: above it nobody can read them, and e-mail sign-in cannot complete.
    const hidden = !logger.isLevelEnabled("info");
    logger.warn(
      { mailer: "log", log_level: env.LOG_LEVEL },
      hidden
        ? "PORTAL_MAILER=log writes e-mail codes at info, which LOG_LEVEL hides: e-mail sign-in cannot complete; set PORTAL_MAILER=smtp"
        : "PORTAL_MAILER=log: e-mail codes go to this log, not to participants (for development; set PORTAL_MAILER=smtp)",
    );
  }
  return {
    async stop() {
      await startup.close();
      chain?.destroy();
      smtp?.close();
      await bus.close();
      await db.close();
    },
  };
});
