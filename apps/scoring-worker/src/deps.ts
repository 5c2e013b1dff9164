// What the worker is built from: the dependency bag main.ts and the tests fill.
import type { Bus } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { Env } from "./env";
import type { WorkerMetrics } from "./metrics";
import type { RecomputeJob } from "./recompute/recompute-job";

/** What the worker is built from; main.ts fills it from the environment, tests from their own services. */
export interface WorkerDeps {
  env: Env;
  logger: Logger;
  db: Database;
  bus: Bus;
  /** Where the loops report batch sizes, apply latency and recompute progress (main.ts sets it). */
  metrics?: WorkerMetrics;
  /** Test hook: runs after each background recompute chunk (lets a test look at the served scores mid-job). */
  afterRecomputeChunk?(job: RecomputeJob): Promise<void>;
}
