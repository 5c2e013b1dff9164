// The typed bag of dependencies every read-api handler is built from.
import type { Cache } from "@pointwise/cache";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { ServiceMetrics } from "@pointwise/metrics";
import type { Env } from "./env";

/** Everything read-api's handlers need; main.ts builds it, tests build the same against real services. */
export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  cache: Cache;
  /** The default bad-word list (BAD_WORDS_FILE), read once at start. */
  badWords: readonly string[];
  /** The app's Prometheus metrics, served on /metrics (main.ts always sets it). */
  metrics?: ServiceMetrics;
}
