// Runs a service until SIGTERM or SIGINT, then stops it gracefully and exits with a meaningful code.
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
 */
export async function runService(name: string, logger: Logger, start: () => Promise<Running>): Promise<void> {
  let running: Running;
  try {
    running = await start();
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    // Leave time for the log line to be written.
    setTimeout(() => process.exit(1), 50);
    return;
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
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
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
