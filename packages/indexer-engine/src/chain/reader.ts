// JSON-RPC access to an EVM chain: head, blocks, logs, senders and calls, with retries and rate limits.
import type { Logger } from "@pointwise/logger";
import type { ChainCalls, ChainLog } from "../adapter";
import { Lru } from "../util/lru";
import { type RpcOutcome, RpcResponseError, RpcTransport } from "./transport";

export { RpcResponseError } from "./transport";

/** Settings of a chain reader. */
export interface ChainReaderOptions {
  /** Endpoint for the head and live calls. */
  rpcUrl: string;
  /** Archive endpoint for historical reads (logs, blocks, transactions, calls at a past block); defaults to rpcUrl. */
  archiveUrl?: string;
  chainId: number;
  logger: Logger;
  /** Attempts per request before giving up with RPC Connection Failed. */
  maxAttempts?: number;
  /**
   * Attempts per request while the endpoint says it is rate limited (HTTP 429 or a rate-limit JSON-RPC error):
   * more than for other failures, with longer waits and its Retry-After honoured, because a public provider's
   * limit usually clears within seconds to a minute.
   */
  rateLimitAttempts?: number;
  retryBaseMs?: number;
  timeoutMs?: number;
  /** HTTP requests in flight at once, per endpoint. */
  concurrency?: number;
  /** JSON-RPC calls per second, per endpoint (each call of a batch counts); 0 for no limit. */
  callsPerSecond?: number;
  /** JSON-RPC calls per HTTP request. */
  batchSize?: number;
}

/** The logs of a block range, as the adaptive fetcher asks for them (a ChainReader, or a recorded chain in benchmarks). */
export interface LogSource {
  logs(addresses: readonly string[], topics: readonly string[], from: number, to: number): Promise<ChainLog[]>;
}

/** The chain reads a block range needs besides its logs: block timestamps (Unix ms) and transaction senders. */
export interface BlockSource {
  timestamp(block: number): Promise<number>;
  timestamps(blocks: readonly number[]): Promise<Map<number, number>>;
  transactionFrom(hash: string): Promise<string | undefined>;
}

/** A block's header as the reorg check reads it: timestamp (Unix ms) and hash, lowercased. */
export interface BlockHeader {
  ts: number;
  hash: string;
}

/** Block headers read from the node every time, never from a cache: their hashes are how a reorg is noticed. */
export interface HeaderSource {
  headers(blocks: readonly number[]): Promise<Map<number, BlockHeader>>;
}

/** Blocks read whole: their timestamps (Unix ms) and the sender of each of their transactions, by hash. */
export interface BlocksWithSenders {
  timestamps: Map<number, number>;
  senders: Map<string, string>;
}

/** What the chain's blocks read so far held: the mean number of transactions per block, recent blocks weighing most. */
export class BlockSizes {
  #blocks = 0;
  #transactions = 0;

  /** Counts a block read from the node; a header without a transaction list is not counted. */
  add(block: { transactions?: unknown } | null): void {
    const list = block?.transactions;
    if (!Array.isArray(list)) return;
    this.#blocks++;
    this.#transactions += list.length;
    // At 2,048 blocks the counts halve, and so again every 1,024 blocks after: the mean follows the last few thousand.
    if (this.#blocks === 2_048) {
      this.#blocks /= 2;
      this.#transactions /= 2;
    }
  }

  /** The mean transactions per block, or undefined before any block was counted. */
  get mean(): number | undefined {
    return this.#blocks === 0 ? undefined : this.#transactions / this.#blocks;
  }
}

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** A block number's header timestamp in Unix ms, or undefined when the node has no such block. */
function headerTs(outcome: RpcOutcome, block: number): number | undefined {
  if (!outcome.ok) throw outcome.error;
  const raw = outcome.result as { timestamp?: unknown } | null;
  if (raw === null) return undefined;
  if (typeof raw?.timestamp !== "string") throw new RpcResponseError(-32603, `block ${block} came without a timestamp`);
  return Number(raw.timestamp) * 1000;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A block's header with its hash; a block the node does not have is an error, as for a timestamp that must exist. */
function header(outcome: RpcOutcome, block: number): BlockHeader {
  const ts = headerTs(outcome, block);
  if (ts === undefined) throw new RpcResponseError(-32000, `block ${block} not found`);
  const { hash } = (outcome as { result: { hash?: unknown } }).result;
  if (typeof hash !== "string" || !HASH.test(hash)) throw new RpcResponseError(-32603, `block ${block} came without a hash`);
  return { ts, hash: hash.toLowerCase() };
}

/**
 * Reads an EVM chain over JSON-RPC: head, block timestamps, logs, transaction senders and calls. Requests go through
 * an RpcTransport per endpoint (batches, concurrency and rate limits, retries with backoff); when failures persist,
 * or the endpoint rejects the key, the error is RPC Connection Failed.
 */
export class ChainReader implements ChainCalls, LogSource, BlockSource, HeaderSource {
  readonly #live: RpcTransport;
  readonly #archive: RpcTransport;
  readonly #timestamps = new Lru<number, number>(50_000);
  readonly #sizes = new BlockSizes();

  constructor(readonly options: ChainReaderOptions) {
    // A setting left undefined takes the transport's default, as one left out would.
    const settings = {
      logger: options.logger,
      timeoutMs: options.timeoutMs,
      maxAttempts: options.maxAttempts,
      rateLimitAttempts: options.rateLimitAttempts,
      retryBaseMs: options.retryBaseMs,
      concurrency: options.concurrency,
      callsPerSecond: options.callsPerSecond,
      batchSize: options.batchSize,
    };
    this.#live = new RpcTransport({ url: options.rpcUrl, ...settings });
    this.#archive = options.archiveUrl === undefined ? this.#live : new RpcTransport({ url: options.archiveUrl, ...settings });
  }

  /** Number of JSON-RPC calls sent (retries and each call of a batch included), for diagnostics and benchmarks. */
  get requests(): number {
    return this.#live.calls + (this.#archive === this.#live ? 0 : this.#archive.calls);
  }

  /** Sends one request, retrying transient failures; a node's JSON-RPC error is thrown as RpcResponseError. */
  send<T>(method: string, params: unknown[], archive = true): Promise<T> {
    return (archive ? this.#archive : this.#live).call<T>(method, params);
  }

  /** The chain id the live endpoint serves. */
  async chainId(): Promise<number> {
    return Number(await this.send<string>("eth_chainId", [], false));
  }

  /** The latest block number. */
  async head(): Promise<number> {
    return Number(await this.send<string>("eth_blockNumber", [], false));
  }

  /** Timestamp (Unix ms) of a block, or undefined when the chain has no such block. */
  async timestampOrUndefined(block: number): Promise<number | undefined> {
    const cached = this.#timestamps.get(block);
    if (cached !== undefined) return cached;
    const ts = headerTs(this.#counted({ ok: true, result: await this.send("eth_getBlockByNumber", [hex(block), false]) }), block);
    // Stryker disable next-line ConditionalExpression: keeping "no such block" would read as nothing kept, as the get above tests for undefined
    if (ts !== undefined) this.#timestamps.set(block, ts);
    return ts;
  }

  /** Timestamp (Unix ms) of a block that must exist. */
  async timestamp(block: number): Promise<number> {
    const ts = await this.timestampOrUndefined(block);
    if (ts === undefined) throw new RpcResponseError(-32000, `block ${block} not found`);
    return ts;
  }

  /** Timestamps of blocks that must exist: those not cached are fetched in batches. */
  async timestamps(blocks: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const missing: number[] = [];
    for (const block of blocks) {
      if (out.has(block)) continue;
      const cached = this.#timestamps.get(block);
      if (cached === undefined) missing.push(block);
      out.set(block, cached ?? 0);
    }
    // All cached: an empty batch sends no request.
    const outcomes = await this.#archive.batch(missing.map((b) => ({ method: "eth_getBlockByNumber", params: [hex(b), false] })));
    missing.forEach((block, i) => {
      const ts = headerTs(this.#counted(outcomes[i] as RpcOutcome), block);
      if (ts === undefined) throw new RpcResponseError(-32000, `block ${block} not found`);
      this.#timestamps.set(block, ts);
      out.set(block, ts);
    });
    return out;
  }

  /**
   * Headers of blocks that must exist, asked of the node in batches whatever the timestamp cache holds, since a block
   * number's hash is what a reorg changes; their timestamps are cached as `timestamps` caches them.
   */
  async headers(blocks: readonly number[]): Promise<Map<number, BlockHeader>> {
    const unique = [...new Set(blocks)];
    const outcomes = await this.#archive.batch(unique.map((b) => ({ method: "eth_getBlockByNumber", params: [hex(b), false] })));
    const out = new Map<number, BlockHeader>();
    unique.forEach((block, i) => {
      const read = header(this.#counted(outcomes[i] as RpcOutcome), block);
      this.#timestamps.set(block, read.ts);
      out.set(block, read);
    });
    return out;
  }

  /** Logs of `addresses` with topic0 in `topics` in [from, to]; one request, no splitting. */
  async logs(addresses: readonly string[], topics: readonly string[], from: number, to: number): Promise<ChainLog[]> {
    const raw = await this.send<RawLog[]>("eth_getLogs", [{ fromBlock: hex(from), toBlock: hex(to), address: addresses, topics: [topics] }]);
    const out: ChainLog[] = [];
    for (const l of raw) {
      if (l.removed === true) continue;
      out.push({
        address: l.address.toLowerCase(),
        topics: l.topics.map((t) => t.toLowerCase()),
        data: l.data,
        blockNumber: Number(l.blockNumber),
        transactionHash: l.transactionHash.toLowerCase(),
        logIndex: Number(l.logIndex),
      });
    }
    // Nodes answer in chain order, which V8's sort (TimSort) confirms in one pass of comparisons; any other answer is sorted.
    return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  /** An answer to eth_getBlockByNumber, its block counted toward transactionsPerBlock. */
  #counted(outcome: RpcOutcome): RpcOutcome {
    if (outcome.ok) this.#sizes.add(outcome.result as { transactions?: unknown } | null);
    return outcome;
  }

  /** The mean number of transactions in the chain's blocks read so far (recent ones weigh most), or undefined before any. */
  get transactionsPerBlock(): number | undefined {
    return this.#sizes.mean;
  }

  /**
   * Blocks that must exist, read whole (eth_getBlockByNumber with full transactions) in batches: their timestamps,
   * cached as `timestamps` caches them, and the sender of each transaction, lowercased. A transaction the node
   * lists by hash alone, or without a sender, is left out, as transactionsFrom leaves out one the node lacks.
   */
  async blocksWithSenders(blocks: readonly number[]): Promise<BlocksWithSenders> {
    const unique = [...new Set(blocks)];
    const outcomes = await this.#archive.batch(unique.map((b) => ({ method: "eth_getBlockByNumber", params: [hex(b), true] })));
    const timestamps = new Map<number, number>();
    const senders = new Map<string, string>();
    unique.forEach((block, i) => {
      const outcome = this.#counted(outcomes[i] as RpcOutcome);
      const ts = headerTs(outcome, block);
      if (ts === undefined) throw new RpcResponseError(-32000, `block ${block} not found`);
      const result = (outcome as { result: { transactions?: unknown } }).result;
      this.#timestamps.set(block, ts);
      timestamps.set(block, ts);
      if (!Array.isArray(result.transactions)) return;
      for (const tx of result.transactions as unknown[]) {
        const { hash, from } = (tx ?? {}) as { hash?: unknown; from?: unknown };
        if (typeof hash === "string" && typeof from === "string" && from !== "") senders.set(hash.toLowerCase(), from.toLowerCase());
      }
    });
    return { timestamps, senders };
  }

  /** The sender of a transaction, lowercased, or undefined when the node does not return it. */
  async transactionFrom(hash: string): Promise<string | undefined> {
    return (await this.transactionsFrom([hash])).get(hash);
  }

  /** The senders of transactions, lowercased, fetched in batches; a transaction the node does not return is left out. */
  async transactionsFrom(hashes: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(hashes)];
    const outcomes = await this.#archive.batch(unique.map((h) => ({ method: "eth_getTransactionByHash", params: [h] })));
    const out = new Map<string, string>();
    unique.forEach((hash, i) => {
      const outcome = outcomes[i] as RpcOutcome;
      if (!outcome.ok) throw outcome.error;
      const from = (outcome.result as { from?: unknown } | null)?.from;
      if (typeof from === "string" && from !== "") out.set(hash, from.toLowerCase());
    });
    return out;
  }

  /** eth_call at `blockTag` (a block number) or latest. */
  async call(to: string, data: string, blockTag?: number): Promise<string> {
    return this.send<string>("eth_call", [{ to, data }, blockTag === undefined ? "latest" : hex(blockTag)], blockTag !== undefined);
  }

  /** Contract code at an address ("0x" when none) at `blockTag` or latest. */
  async code(address: string, blockTag?: number): Promise<string> {
    return this.send<string>("eth_getCode", [address, blockTag === undefined ? "latest" : hex(blockTag)], blockTag !== undefined);
  }

  /** Closes the endpoints' kept-alive connections. */
  destroy(): void {
    // Closing a transport twice (one endpoint for both) is harmless.
    this.#live.close();
    this.#archive.close();
  }
}
