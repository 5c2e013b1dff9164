// One indexer run: checks the credentials and the Pointwise API key, builds the engine with its sinks and runs it until stopped.
import { isPlaceholder } from "@pointwise/config";
import { ConfigError } from "@pointwise/errors";
import {
  type AdapterRegistry,
  checkPointwiseKey,
  createProgressReporter,
  type EngineTuning,
  type IndexerConfig,
  IndexerEngine,
  invalidApiKey,
  MarketPriceClient,
  type RunResult,
  rpcConnectionFailed,
  usesMarketFeed,
} from "@pointwise/indexer-engine";
import type { Logger } from "@pointwise/logger";
import type { RunEnv } from "./env";
import type { IndexerMonitor } from "./metrics";

/** The dependencies of one indexer run. */
export interface RunDeps {
  env: RunEnv;
  config: IndexerConfig;
  registry: AdapterRegistry;
  logger: Logger;
  signal: AbortSignal;
  stdout?: NodeJS.WritableStream;
  /** A terminal to draw the progress bar on; without one, progress is logged. */
  terminal?: NodeJS.WriteStream;
  tuning?: Partial<EngineTuning>;
  /** Stop once the safe head is reached instead of following the chain (tests). */
  untilCaughtUp?: boolean;
}

/** Whether a run needs the market price client: a market feed anywhere in a pricing rule, nested ones included. */
export function needsMarketPrices(config: IndexerConfig): boolean {
  return config.assetFeedConfig.some((rule) => usesMarketFeed(rule.config.priceFeed));
}

/**
 * The endpoint of live calls (chain id, head, calls at `latest`): `network.rpcUrl` when the config sets it, as the
 * spec defines that field, otherwise `RPC_URL`.
 */
export function liveRpcUrl(env: Pick<RunEnv, "RPC_URL">, config: IndexerConfig): string {
  return config.network.rpcUrl ?? env.RPC_URL;
}

/**
 * Asks the ingest API about the key of every pointwise sink before the engine touches the chain, so a missing,
 * wrong or revoked key, or one of another campaign, stops the run with `Invalid API Key` having read no block.
 */
async function checkKeys(deps: RunDeps): Promise<void> {
  for (const sink of deps.config.sinkConfig.sinks) {
    if (sink.sinkType !== "pointwise") continue;
    await checkPointwiseKey({
      baseUrl: sink.baseUrl,
      apiKey: deps.env.POINTWISE_API_KEY,
      events: sink.events,
      ...(sink.campaignId === undefined ? {} : { campaignId: sink.campaignId }),
      logger: deps.logger,
      signal: deps.signal,
      ...(deps.tuning?.pointwiseRetryBaseMs === undefined ? {} : { retryBaseMs: deps.tuning.pointwiseRetryBaseMs }),
    });
  }
}

/** Checks the credentials, builds the engine and runs it until the range is done or the signal stops it. */
export async function runIndexer(deps: RunDeps): Promise<RunResult> {
  const { env, config, logger } = deps;
  if (isPlaceholder(env.POINTWISE_API_KEY)) throw invalidApiKey({ details: { reason: "POINTWISE_API_KEY is an example value; use the campaign's API key" } });
  if (isPlaceholder(env.PRICE_API_KEY)) throw new ConfigError("PRICE_API_KEY is an example value; use a key of the price API");
  const rpcUrl = liveRpcUrl(env, config);
  for (const url of [rpcUrl, config.network.gatewayUrl]) {
    if (url !== undefined && isPlaceholder(url)) throw rpcConnectionFailed({ details: { reason: "the RPC URL is an example value" } });
  }
  // Opened first, so an orchestrator sees the process alive (and not ready) while keys and the chain are checked.
  const monitor =
    env.METRICS_PORT === undefined
      ? undefined
      : // Loaded only when asked for: the HTTP framework and the metrics client cost a noticeable part of start-up.
        await (await import("./metrics")).startIndexerMonitor({
          port: env.METRICS_PORT,
          host: env.METRICS_HOST,
          logger,
          headStaleMs: Math.max(60_000, 5 * env.INDEXER_POLL_INTERVAL_MS),
        });
  try {
    return await runWith(deps, rpcUrl, monitor);
  } finally {
    await monitor?.close();
  }
}

async function runWith(deps: RunDeps, rpcUrl: string, monitor: IndexerMonitor | undefined): Promise<RunResult> {
  const { env, config, logger } = deps;
  await checkKeys(deps);
  const market = needsMarketPrices(config)
    ? new MarketPriceClient({ baseUrl: env.PRICE_API_URL, apiKey: env.PRICE_API_KEY, ratePerMinute: env.PRICE_API_RATE_PER_MINUTE, logger })
    : undefined;
  const showBar = env.INDEXER_PROGRESS === "bar" || (env.INDEXER_PROGRESS === "auto" && deps.terminal?.isTTY === true);
  const progress =
    env.INDEXER_PROGRESS === "off" ? undefined : createProgressReporter({ logger, ...(showBar && deps.terminal !== undefined ? { tty: deps.terminal } : {}) });

  const engine = await IndexerEngine.start({
    config,
    registry: deps.registry,
    logger,
    rpcUrl,
    pointwiseApiKey: env.POINTWISE_API_KEY,
    keyPrefix: env.STATE_KEY_PREFIX,
    signal: deps.signal,
    tuning: {
      maxBlockRange: env.INDEXER_MAX_BLOCK_RANGE,
      initialBlockRange: Math.min(env.INDEXER_INITIAL_BLOCK_RANGE, env.INDEXER_MAX_BLOCK_RANGE),
      pollIntervalMs: env.INDEXER_POLL_INTERVAL_MS,
      rpcConcurrency: env.INDEXER_RPC_CONCURRENCY,
      rpcCallsPerSecond: env.INDEXER_RPC_RPS,
      rpcBatchSize: env.INDEXER_RPC_BATCH_SIZE,
      readAhead: env.INDEXER_RPC_READ_AHEAD,
      wholeBlockTransactions: env.INDEXER_RPC_WHOLE_BLOCK_TXS,
      rpcTimeoutMs: env.INDEXER_RPC_TIMEOUT_MS,
      rpcMaxAttempts: env.INDEXER_RPC_MAX_ATTEMPTS,
      ...deps.tuning,
    },
    ...(market === undefined ? {} : { market }),
    ...(progress === undefined ? {} : { progress }),
    ...(monitor === undefined ? {} : { observer: monitor.observer }),
    ...(deps.stdout === undefined ? {} : { stdout: deps.stdout }),
  });
  monitor?.started();
  try {
    return await engine.run({ untilCaughtUp: deps.untilCaughtUp === true });
  } finally {
    await engine.close();
  }
}
