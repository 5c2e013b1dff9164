// The indexer's main loop: read ranges to safe head, run adapter, enrich, write sinks, commit checkpoints.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import type { Adapter, ChainLog } from "./adapter";
import { readAhead } from "./chain/ahead";
import { AdaptiveLogFetcher } from "./chain/logs";
import { ChainReader } from "./chain/reader";
import { checkContracts, checkFromBlock, findFromBlock } from "./chain/start";
import { adapterConfigHash, configHash } from "./config/hash";
import type { IndexerConfig } from "./config/schema";
import { Enricher } from "./enrich";
import type { MarketPriceClient } from "./pricing/market";
import { Pricer } from "./pricing/pricer";
import type { ProgressReporter } from "./progress";
import { commitRange, type ProcessedRange, processRange } from "./range";
import type { AdapterRegistry } from "./registry";
import { createSinks } from "./sinks";
import type { Sink } from "./sinks/sink";
import { type Checkpoint, StateStore } from "./state/store";
import { WindowBook } from "./windows";

/** Knobs of the read loop; the defaults suit public RPC providers. */
export interface EngineTuning {
  initialBlockRange: number;
  maxBlockRange: number;
  targetLogsPerRange: number;
  pollIntervalMs: number;
  rpcMaxAttempts: number;
  /** Attempts per request while the RPC says it is rate limited (see ChainReaderOptions.rateLimitAttempts). */
  rpcRateLimitAttempts: number;
  rpcRetryBaseMs: number;
  /** Longest wait for one RPC exchange (ms). */
  rpcTimeoutMs: number;
  /** HTTP requests in flight at once, per RPC endpoint. */
  rpcConcurrency: number;
  /** JSON-RPC calls per second, per endpoint (each call of a batch counts); 0 for no limit. */
  rpcCallsPerSecond: number;
  /** JSON-RPC calls per HTTP request (1: no batches). */
  rpcBatchSize: number;
  /** Block ranges read ahead of the one being processed. */
  readAhead: number;
  /** Senders are read with whole blocks while the chain's blocks hold at most this many transactions on average (0: never). */
  wholeBlockTransactions: number;
  dedupeCapacity: number;
  pointwiseRetryBaseMs?: number;
}

/** Default tuning. */
export const DEFAULT_TUNING: EngineTuning = {
  initialBlockRange: 500,
  maxBlockRange: 2_000,
  targetLogsPerRange: 2_000,
  pollIntervalMs: 4_000,
  rpcMaxAttempts: 5,
  rpcRateLimitAttempts: 12,
  rpcRetryBaseMs: 250,
  rpcTimeoutMs: 30_000,
  rpcConcurrency: 8,
  rpcCallsPerSecond: 0,
  rpcBatchSize: 100,
  readAhead: 4,
  wholeBlockTransactions: 16,
  dedupeCapacity: 100_000,
};

/** What the engine reports as it goes (the service's Prometheus metrics); every method is cheap. */
export interface EngineObserver {
  /** The chain's safe head (head minus finality) was read; `nextBlock` is the first block not yet indexed. */
  head(safeHead: number, nextBlock: number): void;
  /** A block range was indexed and committed. */
  range(blocks: number, logs: number): void;
  /** A write to the sink `sinkId` failed. */
  sinkError(sinkId: string): void;
}

/** Everything the engine needs, built by the service's main. */
export interface EngineDeps {
  config: IndexerConfig;
  registry: AdapterRegistry;
  logger: Logger;
  /** The live RPC endpoint: the service passes network.rpcUrl when the config sets it, otherwise RPC_URL. */
  rpcUrl: string;
  pointwiseApiKey?: string;
  market?: MarketPriceClient;
  /** First segment of every state-store key. */
  keyPrefix?: string;
  tuning?: Partial<EngineTuning>;
  progress?: ProgressReporter;
  observer?: EngineObserver;
  stdout?: NodeJS.WritableStream;
  /** Aborting asks the engine to finish the current block range, commit and return. */
  signal?: AbortSignal;
}

/** How a run ended. */
export interface RunResult {
  /** True when `range.toBlock` was reached. */
  finished: boolean;
  nextBlock: number;
  rowsWritten: number;
}

/**
 * Refuses a range.toBlock before the block an omitted range.fromBlock was found to be, as the config's own check
 * refuses one before an explicit fromBlock (a range ending before it starts would finish at once with no rows).
 */
function checkRange(fromBlock: number, toBlock: number | undefined): void {
  if (toBlock !== undefined && toBlock < fromBlock)
    throw new ConfigError(
      `range.toBlock must not be before range.fromBlock: toBlock ${toBlock} is before block ${fromBlock}, where the adapter's contracts were deployed (range.fromBlock omitted)`,
      { details: { toBlock, fromBlock } },
    );
}

/**
 * The indexer engine: reads logs in adaptive ranges up to head minus finality, runs them through the adapter,
 * keeps time-weighted balances, enriches and writes rows to the sinks, and commits a checkpoint per range so a
 * restart resumes exactly where it stopped.
 */
export class IndexerEngine {
  #checkpoint: Checkpoint;

  private constructor(
    private readonly deps: EngineDeps,
    private readonly tuning: EngineTuning,
    readonly store: StateStore,
    readonly reader: ChainReader,
    private readonly adapter: Adapter,
    private readonly sinks: Sink[],
    private readonly book: WindowBook,
    private readonly metrics: Map<string, string>,
    private readonly enricher: Enricher,
    checkpoint: Checkpoint,
  ) {
    this.#checkpoint = checkpoint;
  }

  /** Connects to the chain and the state store, checks the contracts, restores the checkpoint and the sinks. */
  static async start(deps: EngineDeps): Promise<IndexerEngine> {
    const { config, logger } = deps;
    const tuning = { ...DEFAULT_TUNING, ...deps.tuning };
    const definition = deps.registry.get(config.adapterConfig.adapterId);
    if (definition === undefined)
      throw new ConfigError(`Unknown adapter: ${config.adapterConfig.adapterId}. Available adapters: ${deps.registry.ids().join(", ")}`);
    const hash = configHash(config);
    logger.info(
      {
        indexerId: config.indexerId,
        configHash: hash,
        chainId: config.network.chainId,
        adapter: `${definition.id}@${definition.version}`,
        range: config.range,
        finality: config.network.finality,
      },
      "Indexer started",
    );

    const reader = new ChainReader({
      rpcUrl: deps.rpcUrl,
      ...(config.network.gatewayUrl === undefined ? {} : { archiveUrl: config.network.gatewayUrl }),
      chainId: config.network.chainId,
      logger,
      maxAttempts: tuning.rpcMaxAttempts,
      rateLimitAttempts: tuning.rpcRateLimitAttempts,
      retryBaseMs: tuning.rpcRetryBaseMs,
      timeoutMs: tuning.rpcTimeoutMs,
      concurrency: tuning.rpcConcurrency,
      callsPerSecond: tuning.rpcCallsPerSecond,
      batchSize: tuning.rpcBatchSize,
    });
    let store: StateStore;
    try {
      store = await StateStore.connect({ url: config.stateStoreUrl, keyPrefix: deps.keyPrefix ?? "pw", indexerId: config.indexerId, configHash: hash }, logger);
    } catch (err) {
      reader.destroy();
      throw err;
    }
    let sinks: Sink[] = [];
    try {
      const head = await reader.head();
      logger.info({ chainId: config.network.chainId, head }, "Connected to RPC");
      // Metrics are loaded before the adapter is created: they are its committed state (AdapterRuntime.metrics).
      const metrics = await store.loadMetrics();
      const adapter = await definition.create(config.adapterConfig.params, {
        chainId: config.network.chainId,
        chain: reader,
        store: store.kv,
        labels: store.labels,
        adapterConfigHash: adapterConfigHash(config),
        logger: logger.child({ adapter: definition.id }),
        metrics,
      });
      await checkContracts(reader, config.network.chainId, adapter.contracts);

      let checkpoint = await store.loadCheckpoint();
      if (checkpoint === undefined) {
        const fromBlock = config.range.fromBlock ?? (await findFromBlock(reader, adapter.contracts, head));
        checkRange(fromBlock, config.range.toBlock);
        checkFromBlock(fromBlock, head);
        const prevBlock = Math.max(0, fromBlock - 1);
        checkpoint = {
          fromBlock,
          nextBlock: fromBlock,
          prev: { block: prevBlock, ts: await reader.timestamp(prevBlock) },
          sinks: {},
          rowsWritten: 0,
          indexId: randomUUID(),
        };
        logger.info({ fromBlock }, "starting a new index");
      } else {
        // A toBlock lowered below where an earlier run of this config found its contracts deployed.
        checkRange(checkpoint.fromBlock, config.range.toBlock);
        logger.info({ nextBlock: checkpoint.nextBlock, rowsWritten: checkpoint.rowsWritten }, "resuming from checkpoint");
      }

      sinks = createSinks(config.sinkConfig.sinks, {
        store,
        logger,
        ...(checkpoint.indexId === undefined ? {} : { indexId: checkpoint.indexId }),
        ...(deps.pointwiseApiKey === undefined ? {} : { pointwiseApiKey: deps.pointwiseApiKey }),
        ...(deps.stdout === undefined ? {} : { stdout: deps.stdout }),
        ...(deps.signal === undefined ? {} : { signal: deps.signal }),
        ...(tuning.pointwiseRetryBaseMs === undefined ? {} : { pointwiseRetryBaseMs: tuning.pointwiseRetryBaseMs }),
        ...(deps.observer === undefined ? {} : { onSinkError: (id: string) => deps.observer?.sinkError(id) }),
      });
      for (const sink of sinks) await sink.recover(checkpoint.sinks[sink.id]);
      await adapter.init?.();

      const positions = await store.loadPositions();
      const pricer = new Pricer({
        rules: config.assetFeedConfig,
        pricingRange: config.pricingRange,
        chain: reader,
        labels: store.labels,
        facts: store.kv,
        market: deps.market,
        logger,
      });
      const enricher = new Enricher({
        runner: { indexerId: config.indexerId, chainId: config.network.chainId, adapterId: definition.id, adapterVersion: definition.version },
        pricer,
        logger,
        dedupeCapacity: tuning.dedupeCapacity,
      });
      return new IndexerEngine(deps, tuning, store, reader, adapter, sinks, new WindowBook(positions), metrics, enricher, checkpoint);
    } catch (err) {
      // A sink may already hold an open file (csv recover) when adapter set-up fails after it.
      for (const sink of sinks) await sink.close().catch(() => undefined);
      reader.destroy();
      await store.close();
      throw err;
    }
  }

  /** The committed checkpoint. */
  get checkpoint(): Checkpoint {
    return this.#checkpoint;
  }

  /**
   * Indexes until `range.toBlock` is done, the signal aborts, or (with `untilCaughtUp`) the safe head is reached;
   * without toBlock it follows the chain, polling for new blocks.
   */
  async run(options: { untilCaughtUp?: boolean } = {}): Promise<RunResult> {
    const { config, logger, signal } = this.deps;
    const toBlock = config.range.toBlock;
    const addresses = [...new Set(this.adapter.filters.map((f) => f.address))];
    const topics = [...new Set(this.adapter.filters.flatMap((f) => f.topics))];
    const fetcher = new AdaptiveLogFetcher(this.reader, {
      initialSpan: this.tuning.initialBlockRange,
      maxSpan: this.tuning.maxBlockRange,
      targetLogs: this.tuning.targetLogsPerRange,
    });
    const wantsTx = new Set(this.adapter.filters.filter((f) => f.withTransaction).flatMap((f) => f.topics.map((t) => `${f.address}|${t.toLowerCase()}`)));
    const ahead = {
      addresses,
      topics,
      flushMs: config.flushMs,
      depth: this.tuning.readAhead,
      wholeBlockTransactions: this.tuning.wholeBlockTransactions,
      wantsSender: (log: ChainLog) => wantsTx.has(`${log.address}|${log.topics[0]}`),
    };
    const result = (finished: boolean): RunResult => ({ finished, nextBlock: this.#checkpoint.nextBlock, rowsWritten: this.#checkpoint.rowsWritten });

    // A function, so TypeScript does not narrow `aborted` across awaits.
    const stopping = () => signal?.aborted === true;
    while (!stopping()) {
      const safeHead = (await this.reader.head()) - config.network.finality;
      this.deps.observer?.head(safeHead, this.#checkpoint.nextBlock);
      const limit = toBlock === undefined ? safeHead : Math.min(toBlock, safeHead);
      if (this.#checkpoint.nextBlock > limit) {
        this.deps.progress?.finish();
        if (toBlock !== undefined && this.#checkpoint.nextBlock > toBlock) {
          logger.info({ toBlock, rowsWritten: this.#checkpoint.rowsWritten }, "Indexer finished the range");
          return result(true);
        }
        if (options.untilCaughtUp === true) return result(false);
        // An abort ends the wait early; the loop then sees `stopping()` and returns.
        await sleep(this.tuning.pollIntervalMs, undefined, { signal }).catch(() => undefined);
        continue;
      }
      const total = limit - this.#checkpoint.fromBlock + 1;
      const ranges = readAhead(fetcher, this.reader, ahead, this.#checkpoint.nextBlock, limit);
      // A range is processed while the one before it is still being written and committed (file writes, fsync, the
      // Redis commit are waits, not work); its rows reach the sinks only once that commit is done, so ranges are
      // still written and committed one after the other, in order.
      let prev = this.#checkpoint.prev;
      let committing: Promise<void> | undefined;
      try {
        for await (const batch of ranges) {
          logger.info({ fromBlock: batch.from, toBlock: batch.to, logs: batch.logs.length }, `Processing block ${batch.from}`);
          const done = await processRange(this.#batchDeps(), prev, batch);
          prev = done.last;
          await committing;
          committing = this.#commit(done, batch.logs.length, safeHead, total);
          // Its failure surfaces where it is awaited; until then it must not count as unhandled.
          committing.catch(() => undefined);
          // Leaving the loop ends the generator; ranges it had read ahead are dropped and read again on restart.
          if (stopping()) break;
        }
      } finally {
        // However the loop ends, the range already handed over is committed (or its failure surfaces) first.
        const last = committing;
        committing = undefined;
        await last;
      }
    }
    this.deps.progress?.finish();
    logger.info({ nextBlock: this.#checkpoint.nextBlock }, "Indexer stopped at a block range boundary");
    return result(false);
  }

  #batchDeps() {
    const { config, logger } = this.deps;
    return {
      adapter: this.adapter,
      reader: this.reader,
      book: this.book,
      metrics: this.metrics,
      enricher: this.enricher,
      flushMs: config.flushMs,
      logger,
      stateKeys: `${this.store.indexerKey()}:*`,
    };
  }

  /** Writes and commits a processed range, then reports it. */
  async #commit(done: ProcessedRange, logs: number, safeHead: number, total: number): Promise<void> {
    const observer = this.deps.observer;
    this.#checkpoint = await commitRange(
      { sinks: this.sinks, store: this.store, ...(observer === undefined ? {} : { onSinkError: (id: string) => observer.sinkError(id) }) },
      this.#checkpoint,
      done,
    );
    observer?.range(done.range.to - done.range.from + 1, logs);
    observer?.head(safeHead, this.#checkpoint.nextBlock);
    this.deps.progress?.update(this.#checkpoint.nextBlock - this.#checkpoint.fromBlock, total);
  }

  /** Closes sinks, the state store and the RPC providers. */
  async close(): Promise<void> {
    for (const sink of this.sinks) await sink.close();
    this.reader.destroy();
    await this.store.close();
  }
}
