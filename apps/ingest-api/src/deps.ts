// The typed bag of dependencies every ingest-api handler is built from.
import type { Bus } from "@pointwise/bus";
import type { Cache } from "@pointwise/cache";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { Env } from "./env";

/** Everything ingest-api's handlers need; main.ts builds it, tests build the same against real services. */
export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  bus: Bus;
  cache: Cache;
}
