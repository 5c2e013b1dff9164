// Periodic deletion of expired Idempotency-Key records, stopped cleanly at shutdown.
import type { IdempotencyStore } from "@pointwise/ingest-core";
import type { Logger } from "@pointwise/logger";

/** The running purge; `stop` clears its timer and waits for a round in flight, so none outlives shutdown. */
export interface IdempotencyPurge {
  stop(): Promise<void>;
}

/**
 * Deletes expired Idempotency-Key records once at start and then every `everyMs`, logging how many
 * went; a failed round is logged and retried next time. The round at start means a replica
 * restarted more often than `everyMs` still purges.
 */
export function startIdempotencyPurge(store: IdempotencyStore, options: { everyMs: number; logger: Logger }): IdempotencyPurge {
  const { everyMs, logger } = options;
  let inFlight: Promise<void> | undefined;
  const round = () => {
    // A round still running when the next falls due is not doubled.
    if (inFlight) return;
    inFlight = store
      .purge()
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, "expired Idempotency-Key records deleted");
      })
      .catch((err: unknown) => logger.warn({ err }, "could not delete expired Idempotency-Key records"))
      .finally(() => {
        inFlight = undefined;
      });
  };
  round();
  const timer = setInterval(round, everyMs);
  // Housekeeping alone must never keep the process alive; stop() still clears it on shutdown.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
