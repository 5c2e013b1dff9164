// Entry point of @pointwise/indexer-engine: the engine, adapter contract, config, chain, pricing and sinks.
export { actionKey, type SwapSide, swapLegs } from "./actions";
export type { Adapter, AdapterDefinition, AdapterRuntime, ChainCalls, ChainLog, KeyValueStore, LabelStore, LogContext, LogFilter } from "./adapter";
export { defineAdapter } from "./adapter";
export { type Applied, applyEvent, type BatchDeps, type BatchResult, processBatch } from "./batch";
export { lastBlockBefore } from "./chain/boundary";
export { AdaptiveLogFetcher, type LogBatch, type LogRangeOptions } from "./chain/logs";
export { type BlockSource, ChainReader, type ChainReaderOptions, type LogSource } from "./chain/reader";
export { isCallRevert } from "./chain/revert";
export { checkContracts, checkFromBlock, findFromBlock } from "./chain/start";
export { type RpcCall, type RpcOutcome, RpcResponseError, RpcTransport, type RpcTransportOptions } from "./chain/transport";
export { CHAINS, type ChainInfo, findChain } from "./config/chains";
export { adapterConfigHash, canonicalJson, configHash, shortHash } from "./config/hash";
export {
  ASSET_TYPES,
  type AssetFeedRule,
  type AssetMatch,
  DEFAULT_FINALITY,
  EARN_AMOUNTS,
  type EarnMapping,
  evmAddress,
  FEED_KINDS,
  type FeedSelector,
  type IndexerConfig,
  type IndexerConfigInput,
  indexerConfigSchema,
  MATCH_OPERATORS,
  MAX_EARN_BATCH,
  MIN_FLUSH_MS,
  type SinkConfig,
  usesMarketFeed,
} from "./config/schema";
export { type ConfigIssue, type ConfigResult, formatPath, parseConfigBase64, parseConfigText, unwrapConfig, validateConfig } from "./config/validate";
export { Dec, isDecimalString, unitsFromRaw } from "./decimal";
export { DEFAULT_TUNING, type EngineDeps, type EngineObserver, type EngineTuning, IndexerEngine, type RunResult } from "./engine";
export { type BatchItem, Enricher, type EnricherOptions, windowId } from "./enrich";
export {
  DECIMALS_CALL,
  decodeAddress,
  decodeTransferValue,
  decodeUint,
  readTokenDecimals,
  TRANSFER_TOPIC,
  transferDeltas,
  wordAt,
} from "./erc20";
export {
  ACTION_KINDS,
  type ActionEvent,
  type ActionKind,
  type BalanceDelta,
  type EventContext,
  eventSchemas,
  type IndexerEvent,
  invalidEventReason,
  type MeasureDelta,
  NULL_ADDRESS,
  type PositionStatusChange,
  type PositionUpdate,
  type Reprice,
} from "./events";
export {
  amount0Delta,
  amount1Delta,
  amountsForLiquidity,
  amountsPerLiquidity,
  liquidityForAmounts,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  mulDiv,
  mulDivRoundingUp,
  positionAmounts,
  Q96,
  type Ratio,
  sqrtRatioAtTick,
  tickAtSqrtRatio,
} from "./pricing/clmath";
export { IntervalLimiter } from "./pricing/limiter";
export { MarketPriceClient, type MarketPriceOptions } from "./pricing/market";
export { findFeed, matches } from "./pricing/match";
export { Pricer, type PricerDeps } from "./pricing/pricer";
export { createProgressReporter, formatDuration, type ProgressReporter, type ProgressSnapshot, progressSnapshot, renderBar } from "./progress";
export { commitRange, indexRange, type ProcessedRange, processRange, type RangeDeps } from "./range";
export { AdapterRegistry, isSemver } from "./registry";
export { type OutputRow, ROW_COLUMNS, type RunnerInfo } from "./rows";
export { createSinks, type SinkDeps } from "./sinks";
export { CSV_HEADER, CsvSink, csvField, csvLine } from "./sinks/csv";
export { type EarnEvent, earnAmount, formatOccurredAt, occurredAtMs, rowIdempotencyKey, toEarnEvent } from "./sinks/earn";
export { idempotencyKey, PointwiseSink, type PointwiseSinkOptions } from "./sinks/pointwise";
export { type ApiKeyInfo, checkPointwiseKey, type KeyCheckOptions, keyMismatch } from "./sinks/pointwise-key";
export type { BatchRef, Sink } from "./sinks/sink";
export { jsonLine, StdoutSink, textLine } from "./sinks/stdout";
export { type Checkpoint, LABEL_IMMUTABLE, type ReconnectPolicy, StateStore, type StateStoreOptions } from "./state/store";
export { contractNotFound, fromBlockNotFound, invalidApiKey, rpcConnectionFailed, SYMPTOMS } from "./symptoms";
export { Lru } from "./util/lru";
export { boundariesBetween, type ClosedWindow, type Point, type Position, positionKey, WindowBook, type WindowTrigger } from "./windows";
