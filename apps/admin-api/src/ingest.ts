// admin-api's one NATS connection, made only when first needed: the ingest pipeline of CSV uploads and score-change announcements.
import { type Bus, createBus } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { createIngestPipeline, type IngestPipeline } from "@pointwise/ingest-core";
import type { Logger } from "@pointwise/logger";
import type { ScoresChanged } from "@pointwise/schemas";

interface Connected {
  bus: Bus;
  pipeline: IngestPipeline;
}

/** The ingest pipeline and score-change announcements, on a bus connected on first use. */
export interface LazyIngest {
  /** The pipeline; throws RetryableError `bus-unavailable` when the bus cannot be reached in time. */
  get(): Promise<IngestPipeline>;
  /**
   * Announces committed score changes to readers (null: nothing changed) without waiting: returns at
   * once and never throws. Best effort: a change that cannot be published within `announceWaitMs`
   * is dropped with a warning, and readers catch up within their cache window.
   */
  announce(change: ScoresChanged | null): void;
  close(): Promise<void>;
}

/**
 * Connects to the event bus only when a CSV upload or a score change needs it, so the rest of the
 * admin API and the dashboard keep working while NATS is away. A connection attempt that outlasts
 * `waitMs` answers bus-unavailable but keeps trying in the background for the next upload.
 */
export function lazyIngest(options: {
  url: string;
  namespace: string;
  db: Database;
  logger: Logger;
  waitMs?: number;
  /** How long a score change waits for the connection before it is dropped (ms, default 2000). */
  announceWaitMs?: number;
  streamReplicas?: number | undefined;
}): LazyIngest {
  let pending: Promise<Connected> | undefined;
  // The connection once made, for close(); a connection still being attempted is never waited for.
  let live: Connected | undefined;
  let closed = false;
  const unavailable = (cause?: unknown) => new RetryableError("bus-unavailable", "the event bus is unavailable; try the upload again shortly", { cause });

  function connect() {
    if (closed) return Promise.reject(unavailable());
    pending ??= (async () => {
      const bus = await createBus({
        url: options.url,
        namespace: options.namespace,
        name: "admin-api",
        ...(options.streamReplicas === undefined ? {} : { streamReplicas: options.streamReplicas }),
      });
      try {
        if (closed) throw unavailable();
        await bus.ensureStreams();
        if (closed) throw unavailable();
      } catch (err) {
        await bus.close().catch(() => undefined);
        throw err;
      }
      live = { bus, pipeline: createIngestPipeline({ db: options.db, bus, logger: options.logger }) };
      return live;
    })().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  }

  return {
    async get() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(unavailable()), options.waitMs ?? 5000);
      });
      try {
        return (await Promise.race([connect(), timeout])).pipeline;
      } catch (err) {
        throw err instanceof RetryableError ? err : unavailable(err);
      } finally {
        clearTimeout(timer);
      }
    },
    announce(change) {
      if (change === null) return;
      const { logger } = options;
      const at = { campaign_id: change.campaign_id, reason: change.reason };
      // Whichever comes first settles it: a connection that comes up after the warning publishes nothing,
      // so the log never says "dropped" of a change that was sent.
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        logger.warn(at, "the event bus did not connect in time; score change not announced, readers catch up within their cache window");
      }, options.announceWaitMs ?? 2000);
      timer.unref();
      connect().then(
        ({ bus }) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          bus.announceScoresChanged(change, logger);
        },
        (err: unknown) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          logger.warn({ ...at, err }, "the event bus is unavailable; score change not announced, readers catch up within their cache window");
        },
      );
    },
    async close() {
      // Not waiting for a connection NATS never accepted: it retries for as long as NATS is away, which
      // would hold shutdown until its deadline; if it ever comes up, it closes itself (see connect).
      closed = true;
      pending = undefined;
      const connected = live;
      live = undefined;
      await connected?.pipeline.close();
      await connected?.bus.close();
    },
  };
}
