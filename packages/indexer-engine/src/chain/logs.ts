// Fetches chain logs in block ranges that shrink when the node refuses them and grow when they are quiet.
import type { ChainLog } from "../adapter";
import type { LogSource } from "./reader";
import { RpcResponseError } from "./transport";

/** Sizing of the adaptive log ranges. */
export interface LogRangeOptions {
  initialSpan: number;
  maxSpan: number;
  /** Aim for about this many logs per request: ranges grow below half of it and shrink above it. */
  targetLogs: number;
}

/** Logs of one block range and the last block the range covered, with what was read ahead for it. */
export interface LogBatch {
  from: number;
  to: number;
  logs: ChainLog[];
  /**
   * Block timestamps (Unix ms) read with the range: the block before it, its blocks with logs, its last block and
   * those that place its flush boundaries. Blocks missing here are asked of the chain.
   */
  headers?: ReadonlyMap<number, number>;
  /** Senders of the transactions whose logs the adapter wants them for; when present, the whole answer. */
  senders?: ReadonlyMap<string, string>;
  /**
   * Read with the range, beside its logs: the hash the node has now for the block before it (none for a range from
   * block 0), checked against the hash kept for that block, and the hash of its last block, which the range's
   * checkpoint keeps for the next range's check.
   */
  hashes?: { before?: string; last: string };
}

/**
 * Fetches logs in block ranges that adapt to the chain: a range the node refuses (too many results, range too
 * wide, response too large) is split in halves, a crowded range shrinks the next ones and a quiet one lets them grow.
 */
export class AdaptiveLogFetcher {
  #span: number;

  constructor(
    private readonly reader: LogSource,
    private readonly options: LogRangeOptions,
  ) {
    this.#span = Math.max(1, Math.min(options.initialSpan, options.maxSpan));
  }

  /** The span the next range will try. */
  get span(): number {
    return this.#span;
  }

  /** The last block of the next range starting at `from`, at most `limit`, as wide as the current span. */
  plan(from: number, limit: number): number {
    return Math.min(limit, from + this.#span - 1);
  }

  /**
   * Logs of exactly [from, to]. A range the node refuses is split in halves (recursively) and the span shrinks to
   * what it accepted; the number of logs a range brings sizes the span of the ranges planned after it.
   */
  async fetch(addresses: readonly string[], topics: readonly string[], from: number, to: number): Promise<ChainLog[]> {
    const width = to - from + 1;
    try {
      const logs = await this.reader.logs(addresses, topics, from, to);
      if (logs.length > this.options.targetLogs) this.#span = Math.max(1, Math.floor(this.#span / 2));
      else if (logs.length < this.options.targetLogs / 2 && width >= this.#span) this.#span = Math.min(this.options.maxSpan, this.#span * 2);
      return logs;
    } catch (err) {
      if (!(err instanceof RpcResponseError) || width === 1) throw err;
      const half = Math.floor(width / 2);
      this.#span = Math.max(1, Math.min(this.#span, half));
      const first = await this.fetch(addresses, topics, from, from + half - 1);
      const second = await this.fetch(addresses, topics, from + half, to);
      return first.concat(second);
    }
  }

  /** Fetches logs from `from` up to at most `limit` (inclusive), covering as many blocks as the current span. */
  async next(addresses: readonly string[], topics: readonly string[], from: number, limit: number): Promise<LogBatch> {
    const to = this.plan(from, limit);
    return { from, to, logs: await this.fetch(addresses, topics, from, to) };
  }
}
