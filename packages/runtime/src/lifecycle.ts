// Runs a service until SIGTERM or SIGINT, then stops it gracefully and exits with a meaningful code.
import { ConfigError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";

/** What a started service gives back: how to stop it. */
export interface Running {
  stop(): Promise<void>;
}

/** How long shutdown may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 15_000;

/**
 * Runs a service until SIGTERM or SIGINT, then stops it (no new work, in-flight work finished or
 * released, connections closed) and exits 0; exits 1 when start or stop fails or stop takes too long.
 * A signal while it is still starting exits 0 at once.
 */
export async function runService(name: string, logger: Logger, start: () => Promise<Running>): Promise<void> {
  let running: Running | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (running === undefined) {
      // Still waiting for dependencies: nothing has been taken on yet, so there is nothing to finish.
      logger.info({ signal }, `${name} stopping before it was ready`);
      setTimeout(() => process.exit(0), 50);
      return;
    }
    logger.info({ signal }, `${name} stopping`);
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, `${name} did not stop in time`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await running.stop();
      logger.info(`${name} stopped`);
      process.exit(0);
    } catch (err) {
      logger.error({ err }, `${name} failed to stop cleanly`);
      process.exit(1);
    }
  };
  // Listened for from the first moment: a service waiting for a dependency stops at once when asked.
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  try {
    running = await start();
  } catch (err) {
    // A bad setting is the operator's to fix and its message names every bad variable: a stack would only bury it.
    if (err instanceof ConfigError) logger.fatal({ code: err.code, error: err.message }, `${name} failed to start: ${err.message}`);
    else logger.fatal({ err }, `${name} failed to start`);
    // Leave time for the log line to be written.
    setTimeout(() => process.exit(1), 50);
  }
}
