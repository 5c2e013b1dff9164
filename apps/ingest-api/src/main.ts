// ingest-api process entry: reads env and runs the service until SIGTERM.
import { createLogger } from "@pointwise/logger";
import { runService } from "@pointwise/runtime";
import { loadEnv } from "./env";
import { startIngestApi } from "./service";

const logger = createLogger({ service: "ingest-api" });

void runService("ingest-api", logger, async () => {
  const env = loadEnv();
  logger.level = env.LOG_LEVEL;
  return startIngestApi(env, logger);
});
