// JSON-RPC access to an EVM chain: head, blocks, logs, senders and calls, with retries and rate limits.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@pointwise/logger";
import { FetchRequest, JsonRpcProvider, Network } from "ethers";
import type { ChainCalls, ChainLog } from "../adapter";
import { rpcConnectionFailed } from "../symptoms";
import { Lru } from "../util/lru";
import { backoffMs } from "../util/retry";

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

/** A JSON-RPC error answered by the node (as opposed to a failed connection). */
export class RpcResponseError extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
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

function provider(url: string, chainId: number, timeoutMs: number): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = timeoutMs;
  // ethers would retry an HTTP 429 itself until the request times out and then report a timeout, hiding the rate
  // limit; handing the 429 straight back lets ChainReader.send apply its own bounded retries and report it.
  request.retryFunc = async () => false;
  const network = Network.from(chainId);
  // A static network stops ethers from probing (and endlessly retrying) eth_chainId on its own.
  return new JsonRpcProvider(request, network, { staticNetwork: network, batchMaxCount: 50 });
}

/** Classifies a thrown error: a node's JSON-RPC answer, an HTTP status, or a connection failure. */
function classify(
  err: unknown,
): { kind: "rpc"; code: number; message: string } | { kind: "http"; status: number; retryAfterMs: number | undefined } | { kind: "connection" } {
  const e = err as {
    error?: { code?: unknown; message?: unknown };
    code?: unknown;
    info?: { responseStatus?: unknown };
    response?: { headers?: Record<string, unknown> };
  };
  if (e?.error !== undefined && typeof e.error.code === "number") return { kind: "rpc", code: e.error.code, message: String(e.error.message ?? "") };
  const status = typeof e?.info?.responseStatus === "string" ? Number.parseInt(e.info.responseStatus, 10) : Number.NaN;
  if (!Number.isNaN(status)) return { kind: "http", status, retryAfterMs: retryAfterMs(e.response?.headers?.["retry-after"]) };
  return { kind: "connection" };
}

/** A Retry-After header (delay in seconds or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  if (typeof header !== "string" || header.trim() === "") return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // The date form senders must use (IMF-fixdate, RFC 9110); Date.parse alone would take "-3" for a year.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The longest wait between two attempts while rate limited, whatever Retry-After asks for. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

const RATE_LIMITED = /rate limit|too many requests|exceeded.*(capacity|quota)|daily request count/i;

/**
 * Reads an EVM chain over JSON-RPC with ethers: head, block timestamps, logs, transaction senders and calls.
 * Transient failures are retried with backoff; when they persist, or the endpoint rejects the key,
 * the error is RPC Connection Failed.
 */
export class ChainReader implements ChainCalls, LogSource, BlockSource {
  readonly #live: JsonRpcProvider;
  readonly #archive: JsonRpcProvider;
  readonly #log: Logger;
  readonly #maxAttempts: number;
  readonly #rateLimitAttempts: number;
  readonly #retryBaseMs: number;
  readonly #timestamps = new Lru<number, number>(20_000);
  /** Number of JSON-RPC requests sent, for diagnostics and benchmarks. */
  requests = 0;

  constructor(readonly options: ChainReaderOptions) {
    const timeout = options.timeoutMs ?? 30_000;
    this.#live = provider(options.rpcUrl, options.chainId, timeout);
    this.#archive = options.archiveUrl === undefined ? this.#live : provider(options.archiveUrl, options.chainId, timeout);
    this.#log = options.logger;
    this.#maxAttempts = options.maxAttempts ?? 5;
    this.#rateLimitAttempts = Math.max(this.#maxAttempts, options.rateLimitAttempts ?? 12);
    this.#retryBaseMs = options.retryBaseMs ?? 250;
  }

  /** Sends one request, retrying transient failures; a node's JSON-RPC error is thrown as RpcResponseError. */
  async send<T>(method: string, params: unknown[], archive = true): Promise<T> {
    const target = archive ? this.#archive : this.#live;
    for (let attempt = 0; ; attempt++) {
      try {
        this.requests++;
        return (await target.send(method, params)) as T;
      } catch (err) {
        const kind = classify(err);
        const rateLimited = (kind.kind === "rpc" && (kind.code === 429 || RATE_LIMITED.test(kind.message))) || (kind.kind === "http" && kind.status === 429);
        if (kind.kind === "rpc" && !rateLimited) throw new RpcResponseError(kind.code, kind.message);
        const denied = kind.kind === "http" && (kind.status === 401 || kind.status === 403);
        if (denied || attempt + 1 >= (rateLimited ? this.#rateLimitAttempts : this.#maxAttempts)) {
          throw rpcConnectionFailed({
            cause: err,
            details: {
              method,
              attempts: attempt + 1,
              reason: denied ? "endpoint rejected the request (key invalid or expired)" : "endpoint unreachable or rate limited",
            },
          });
        }
        // While rate limited, wait as long as the endpoint asks (within reason) and back off further than for other failures.
        const asked = kind.kind === "http" ? kind.retryAfterMs : undefined;
        const wait = rateLimited
          ? Math.min(MAX_RATE_LIMIT_WAIT_MS, Math.max(asked ?? 0, backoffMs(attempt, this.#retryBaseMs, 30_000)))
          : backoffMs(attempt, this.#retryBaseMs, 8_000);
        this.#log.warn({ method, attempt: attempt + 1, rate_limited: rateLimited, wait_ms: wait, err: (err as Error).message }, "RPC request failed, retrying");
        await sleep(wait);
      }
    }
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
    const raw = await this.send<{ timestamp: string } | null>("eth_getBlockByNumber", [hex(block), false]);
    if (raw === null) return undefined;
    const ts = Number(raw.timestamp) * 1000;
    this.#timestamps.set(block, ts);
    return ts;
  }

  /** Timestamp (Unix ms) of a block that must exist. */
  async timestamp(block: number): Promise<number> {
    const ts = await this.timestampOrUndefined(block);
    if (ts === undefined) throw new RpcResponseError(-32000, `block ${block} not found`);
    return ts;
  }

  /** Timestamps of several blocks, fetched concurrently (ethers batches them into few HTTP requests). */
  async timestamps(blocks: readonly number[]): Promise<Map<number, number>> {
    const unique = [...new Set(blocks)];
    const values = await Promise.all(unique.map((b) => this.timestamp(b)));
    return new Map(unique.map((b, i) => [b, values[i] as number]));
  }

  /** Logs of `addresses` with topic0 in `topics` in [from, to]; one request, no splitting. */
  async logs(addresses: readonly string[], topics: readonly string[], from: number, to: number): Promise<ChainLog[]> {
    const raw = await this.send<RawLog[]>("eth_getLogs", [{ fromBlock: hex(from), toBlock: hex(to), address: addresses, topics: [topics] }]);
    return raw
      .filter((l) => l.removed !== true)
      .map((l) => ({
        address: l.address.toLowerCase(),
        topics: l.topics.map((t) => t.toLowerCase()),
        data: l.data,
        blockNumber: Number(l.blockNumber),
        transactionHash: l.transactionHash.toLowerCase(),
        logIndex: Number(l.logIndex),
      }))
      .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  /** The sender of a transaction, lowercased, or undefined when the node does not return it. */
  async transactionFrom(hash: string): Promise<string | undefined> {
    const tx = await this.send<{ from?: string } | null>("eth_getTransactionByHash", [hash]);
    return typeof tx?.from === "string" && tx.from !== "" ? tx.from.toLowerCase() : undefined;
  }

  /** eth_call at `blockTag` (a block number) or latest. */
  async call(to: string, data: string, blockTag?: number): Promise<string> {
    return this.send<string>("eth_call", [{ to, data }, blockTag === undefined ? "latest" : hex(blockTag)], blockTag !== undefined);
  }

  /** Contract code at an address ("0x" when none) at `blockTag` or latest. */
  async code(address: string, blockTag?: number): Promise<string> {
    return this.send<string>("eth_getCode", [address, blockTag === undefined ? "latest" : hex(blockTag)], blockTag !== undefined);
  }

  /** Closes the HTTP providers. */
  destroy(): void {
    this.#live.destroy();
    if (this.#archive !== this.#live) this.#archive.destroy();
  }
}
