import type { IdempotencyStore } from "@pointwise/ingest-core";
import type { Logger } from "@pointwise/logger";

/** The running purge timer; `stop` clears it so no purge starts after shutdown began. */
export interface IdempotencyPurge {
  stop(): void;
}

/** Deletes expired Idempotency-Key records every `everyMs`, logging how many went; a failed round is logged and retried next time. */
export function startIdempotencyPurge(store: IdempotencyStore, options: { everyMs: number; logger: Logger }): IdempotencyPurge {
  const { everyMs, logger } = options;
  const timer = setInterval(() => {
    store
      .purge()
      .then((deleted) => deleted > 0 && logger.info({ deleted }, "expired Idempotency-Key records deleted"))
      .catch((err: unknown) => logger.warn({ err }, "could not delete expired Idempotency-Key records"));
  }, everyMs);
  // Housekeeping alone must never keep the process alive; stop() still clears it on shutdown.
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
