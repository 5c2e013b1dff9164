// ingest-api's periodic housekeeping: expired Idempotency-Key records deleted, interrupted CSV imports marked failed; stopped cleanly at shutdown.
import type { Database } from "@pointwise/db";
import { failInterruptedCsvImports, type IdempotencyStore } from "@pointwise/ingest-core";
import type { Logger } from "@pointwise/logger";

/** How often the CSV imports of every service are checked for one whose process stopped (ms). */
const INTERRUPTED_IMPORT_CHECK_MS = 60_000;

/** The running housekeeping; `stop` clears its timers and waits for rounds in flight, so none outlives shutdown. */
export interface Housekeeping {
  stop(): Promise<void>;
}

/**
 * Runs `round` once at start and then every `everyMs`. A round still running when the next falls due
 * is not doubled; the round logs its own failure and is tried again next time. The round at start
 * means a replica restarted more often than `everyMs` still does the work.
 */
function every(everyMs: number, round: () => Promise<void>): Housekeeping {
  let inFlight: Promise<void> | undefined;
  const run = () => {
    if (inFlight) return;
    inFlight = round().finally(() => {
      inFlight = undefined;
    });
  };
  run();
  const timer = setInterval(run, everyMs);
  // Housekeeping alone must never keep the process alive; stop() still clears it on shutdown.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

/**
 * Deletes expired Idempotency-Key records every `purgeEveryMs`, and marks CSV imports that no process
 * has heard from for 2 minutes as failed (`import-interrupted`) every INTERRUPTED_IMPORT_CHECK_MS;
 * both once at start too, each logging what it did.
 */
export function startHousekeeping(deps: { db: Database; idempotency: IdempotencyStore; logger: Logger }, options: { purgeEveryMs: number }): Housekeeping {
  const { db, idempotency, logger } = deps;
  const purge = every(options.purgeEveryMs, () =>
    idempotency
      .purge()
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, "expired Idempotency-Key records deleted");
      })
      .catch((err: unknown) => logger.warn({ err }, "could not delete expired Idempotency-Key records")),
  );
  const imports = every(INTERRUPTED_IMPORT_CHECK_MS, () =>
    failInterruptedCsvImports(db)
      .then((ids) => {
        if (ids.length > 0) logger.warn({ import_ids: ids }, "csv imports whose service stopped mid-import marked failed");
      })
      .catch((err: unknown) => logger.warn({ err }, "could not check for interrupted csv imports")),
  );
  return {
    async stop() {
      await Promise.all([purge.stop(), imports.stop()]);
    },
  };
}
