// Builds the sinks an indexer config declares (stdout, CSV, Pointwise API).
import { ConfigError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import type { SinkConfig } from "../config/schema";
import type { StateStore } from "../state/store";
import { CsvSink } from "./csv";
import { PointwiseSink } from "./pointwise";
import type { Sink } from "./sink";
import { StdoutSink } from "./stdout";

/** What building the configured sinks needs. */
export interface SinkDeps {
  store: StateStore;
  logger: Logger;
  /** The checkpoint's indexId: part of the pointwise sink's Idempotency-Keys, so another index of the same config never reuses them. */
  indexId?: string;
  pointwiseApiKey?: string;
  stdout?: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Retry pacing of the pointwise sink (tests shorten it). */
  pointwiseRetryBaseMs?: number;
  /** Called with the sink's id for every failed attempt of a sink that retries by itself (the pointwise sink). */
  onSinkError?: (sinkId: string) => void;
}

/** Builds the sinks of a config; each gets the stable id `<index>-<sinkType>`. */
export function createSinks(configs: readonly SinkConfig[], deps: SinkDeps): Sink[] {
  const { onSinkError } = deps;
  return configs.map((config, index) => {
    const id = `${index}-${config.sinkType}`;
    if (config.sinkType === "stdout") return new StdoutSink(id, config.json, deps.stdout);
    if (config.sinkType === "csv") return new CsvSink(id, config.path, deps.logger);
    if (deps.pointwiseApiKey === undefined || deps.pointwiseApiKey === "") throw new ConfigError("POINTWISE_API_KEY is required for the pointwise sink");
    return new PointwiseSink({
      id,
      baseUrl: config.baseUrl,
      apiKey: deps.pointwiseApiKey,
      batchSize: config.batchSize,
      events: config.events,
      outbox: deps.store.sinkOutbox(id),
      scope: `${deps.store.options.indexerId}:${deps.store.options.configHash}${deps.indexId === undefined ? "" : `:${deps.indexId}`}`,
      logger: deps.logger,
      signal: deps.signal,
      ...(onSinkError === undefined ? {} : { onError: () => onSinkError(id) }),
      ...(deps.pointwiseRetryBaseMs === undefined ? {} : { retryBaseMs: deps.pointwiseRetryBaseMs, retryMaxMs: deps.pointwiseRetryBaseMs * 8 }),
    });
  });
}
