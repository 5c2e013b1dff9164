// The adapter contract: what an indexer adapter is given (logs, calls, stores) and what it must provide.
import type { Logger } from "@pointwise/logger";
import type { z } from "zod";
import type { EventContext, IndexerEvent } from "./events";
import type { Point } from "./windows";

/** A chain log as adapters see it; addresses are lowercase, numbers are plain. */
export interface ChainLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  transactionHash: string;
  logIndex: number;
}

/** The context of one log: where it happened and, when the adapter asked for it, the transaction sender. */
export interface LogContext extends EventContext {
  transaction?: { from: string };
}

/** Which logs an adapter wants: one contract address, any of `topics` as topic0, and whether it needs `transaction.from`. */
export interface LogFilter {
  address: string;
  topics: string[];
  withTransaction: boolean;
}

/** Read-only contract calls an adapter may make (eth_call); `blockTag` defaults to latest. */
export interface ChainCalls {
  call(to: string, data: string, blockTag?: number): Promise<string>;
}

/** A small string key-value store in the indexer's namespace of the state store (caches, immutable facts). */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

/** Immutable metadata of assets (for example protocol, token0, decimals); asset feed rules match on labels. */
export interface LabelStore {
  get(asset: string): Promise<Record<string, string>>;
  /** Adds labels; the same value again is fine, another value for an existing label throws ConflictError `label-immutable`. */
  set(asset: string, labels: Record<string, string>): Promise<void>;
}

/** What the engine hands an adapter when it creates it. */
export interface AdapterRuntime {
  chainId: number;
  chain: ChainCalls;
  store: KeyValueStore;
  labels: LabelStore;
  /** Short hash of `{adapterId, params}`, for key prefixes that must change when the adapter configuration does. */
  adapterConfigHash: string;
  logger: Logger;
  /**
   * The engine's metric values (`asset|metric` to an exact decimal), live: the measureDeltas of one log are applied
   * before the next log is handled, and they are committed with the checkpoint. An adapter whose state spans logs
   * (balances it derives from earlier logs) keeps that state here, so a restart resumes it exactly.
   */
  metrics?: ReadonlyMap<string, string>;
}

/** A running adapter: which logs it reads, which contracts must exist, and how a log becomes events. */
export interface Adapter {
  readonly filters: LogFilter[];
  /** Addresses that must hold code on the configured chain; start-up fails with Contract Not Found otherwise. */
  readonly contracts: string[];
  /** One-time work before the first log (reading immutable facts from the chain). A throw stops the indexer. */
  init?(): Promise<void>;
  /** Turns one log into events; a throw stops the indexer at this log. */
  handle(log: ChainLog, ctx: LogContext): Promise<IndexerEvent[]> | IndexerEvent[];
  /**
   * Called right after a flush boundary closed and reopened the open windows at `at` (the boundary's time and the
   * last block before it); `blockTs` is that block's own time (Unix ms). Returns events that apply at `at`, such as
   * balance deltas for balances that grow without logs (interest), so the windows opened at the boundary carry them.
   */
  onFlush?(at: Point, blockTs: number): IndexerEvent[];
}

/** An adapter package's export: identity, semver version, parameter schema and a factory. */
export interface AdapterDefinition<P = unknown> {
  readonly id: string;
  readonly version: string;
  readonly description: string;
  readonly paramsSchema: z.ZodType<P>;
  create(params: P, runtime: AdapterRuntime): Adapter | Promise<Adapter>;
}

/** Declares an adapter with its parameter type inferred from the schema. */
export function defineAdapter<S extends z.ZodType>(definition: AdapterDefinition<z.output<S>> & { paramsSchema: S }): AdapterDefinition<z.output<S>> {
  return definition;
}
