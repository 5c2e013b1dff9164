// The typed bag of dependencies every admin-api handler is built from.
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { ServiceMetrics } from "@pointwise/metrics";
import type { Env } from "./env";
import type { LazyIngest } from "./ingest";

/** Everything admin-api's handlers need; main.ts builds it, tests build the same against real services. */
export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** The default bad-word list (BAD_WORDS_FILE), read once at start; campaigns add their own. */
  badWords: readonly string[];
  /** The ingest pipeline CSV uploads go through (connected to the bus on first use). */
  ingest: LazyIngest;
  /** The app's Prometheus metrics, served on /metrics (main.ts sets it). */
  metrics?: ServiceMetrics;
}
