// The ingest pipeline for CSV uploads, connected to NATS only when an upload first needs it.
import { type Bus, createBus } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { createIngestPipeline, type IngestPipeline } from "@pointwise/ingest-core";
import type { Logger } from "@pointwise/logger";

/** The ingest pipeline, connected on first use. */
export interface LazyIngest {
  /** The pipeline; throws RetryableError `bus-unavailable` when the bus cannot be reached in time. */
  get(): Promise<IngestPipeline>;
  close(): Promise<void>;
}

/**
 * Connects to the event bus only when a CSV upload needs it, so the rest of the admin API and the
 * dashboard keep working while NATS is away. A connection attempt that outlasts `waitMs` answers
 * bus-unavailable but keeps trying in the background for the next upload.
 */
export function lazyIngest(options: {
  url: string;
  namespace: string;
  db: Database;
  logger: Logger;
  waitMs?: number;
  streamReplicas?: number | undefined;
}): LazyIngest {
  let pending: Promise<{ bus: Bus; pipeline: IngestPipeline }> | undefined;
  const unavailable = (cause?: unknown) => new RetryableError("bus-unavailable", "the event bus is unavailable; try the upload again shortly", { cause });

  function connect() {
    pending ??= (async () => {
      const bus = await createBus({
        url: options.url,
        namespace: options.namespace,
        name: "admin-api",
        ...(options.streamReplicas === undefined ? {} : { streamReplicas: options.streamReplicas }),
      });
      await bus.ensureStreams();
      return { bus, pipeline: createIngestPipeline({ db: options.db, bus, logger: options.logger }) };
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
    async close() {
      const current = pending;
      pending = undefined;
      const connected = await current?.catch(() => undefined);
      await connected?.pipeline.close();
      await connected?.bus.close();
    },
  };
}
