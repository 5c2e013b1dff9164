// Fetches chain logs in block ranges that shrink when the node refuses them and grow when they are quiet.
import type { ChainLog } from "../adapter";
import { type LogSource, RpcResponseError } from "./reader";

/** Sizing of the adaptive log ranges. */
export interface LogRangeOptions {
  initialSpan: number;
  maxSpan: number;
  /** Aim for about this many logs per request: ranges grow below half of it and shrink above it. */
  targetLogs: number;
}

/** Logs of one block range and the last block the range covered. */
export interface LogBatch {
  from: number;
  to: number;
  logs: ChainLog[];
}

/**
 * Fetches logs in block ranges that adapt to the chain: a range the node refuses (too many results, range too
 * wide, response too large) is halved and retried, a quiet range lets the next one grow.
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

  /** Fetches logs from `from` up to at most `limit` (inclusive), covering as many blocks as the node allows. */
  async next(addresses: readonly string[], topics: readonly string[], from: number, limit: number): Promise<LogBatch> {
    for (;;) {
      const to = Math.min(limit, from + this.#span - 1);
      try {
        const logs = await this.reader.logs(addresses, topics, from, to);
        if (logs.length > this.options.targetLogs && this.#span > 1) this.#span = Math.max(1, Math.floor(this.#span / 2));
        else if (logs.length < this.options.targetLogs / 2 && to - from + 1 === this.#span) this.#span = Math.min(this.options.maxSpan, this.#span * 2);
        return { from, to, logs };
      } catch (err) {
        if (!(err instanceof RpcResponseError) || to === from) throw err;
        this.#span = Math.max(1, Math.floor((to - from + 1) / 2));
      }
    }
  }
}
