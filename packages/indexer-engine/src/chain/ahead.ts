// Reads block ranges ahead of processing: logs, the headers they need, senders and flush-boundary blocks, bounded.
import type { ChainLog } from "../adapter";
import { boundariesBetween } from "../windows";
import { type BlockPoint, lastBlockBefore } from "./boundary";
import type { AdaptiveLogFetcher, LogBatch } from "./logs";
import type { BlockHeader, BlockSource, BlocksWithSenders, HeaderSource } from "./reader";

/**
 * What reading ahead needs of the chain: block timestamps, headers with their hashes and transaction senders, in
 * batches, either looked up by transaction or read with whole blocks, and how many transactions its blocks hold.
 */
export interface AheadSource extends Pick<BlockSource, "timestamp" | "timestamps">, HeaderSource {
  transactionsFrom(hashes: readonly string[]): Promise<Map<string, string>>;
  blocksWithSenders(blocks: readonly number[]): Promise<BlocksWithSenders>;
  /** The mean transactions per block of the blocks read so far, or undefined before any. */
  readonly transactionsPerBlock: number | undefined;
}

/** What to read and how far ahead. */
export interface ReadAheadOptions {
  addresses: readonly string[];
  topics: readonly string[];
  /** Whether the adapter wants the sender of a log's transaction. */
  wantsSender(log: ChainLog): boolean;
  flushMs: number;
  /** Ranges read or waiting beside the one being processed; at least 1. */
  depth: number;
  /**
   * Senders are read with whole blocks while the chain's blocks hold at most this many transactions on average
   * (0: never), and looked up by transaction otherwise.
   */
  wholeBlockTransactions: number;
}

/**
 * A block source that answers from `headers` first and records there what it had to ask the chain, so the blocks a
 * flush-boundary search reads while reading ahead are known when the range is processed.
 */
export function knownHeaders(
  chain: Pick<BlockSource, "timestamp" | "timestamps">,
  headers: Map<number, number>,
): Pick<BlockSource, "timestamp" | "timestamps"> {
  return {
    async timestamp(block) {
      const known = headers.get(block);
      if (known !== undefined) return known;
      const ts = await chain.timestamp(block);
      headers.set(block, ts);
      return ts;
    },
    async timestamps(blocks) {
      const missing = blocks.filter((b) => !headers.has(b));
      if (missing.length > 0) for (const [b, ts] of await chain.timestamps(missing)) headers.set(b, ts);
      return new Map(blocks.map((b) => [b, headers.get(b) as number]));
    },
  };
}

/**
 * A block source whose `timestamps` calls made in the same turn of the event loop go to the chain as one call, so
 * the flush-boundary searches of a range, which start together and step together, share their requests.
 */
export function coalescedTimestamps(chain: Pick<BlockSource, "timestamp" | "timestamps">): Pick<BlockSource, "timestamp" | "timestamps"> {
  let queued: { blocks: readonly number[]; resolve(stamps: Map<number, number>): void; reject(err: unknown): void }[] = [];
  const send = () => {
    const waiting = queued;
    queued = [];
    chain.timestamps([...new Set(waiting.flatMap((w) => w.blocks))]).then(
      (stamps) => {
        for (const w of waiting) w.resolve(new Map(w.blocks.map((b) => [b, stamps.get(b) as number])));
      },
      (err: unknown) => {
        for (const w of waiting) w.reject(err);
      },
    );
  };
  return {
    timestamp: (block) => chain.timestamp(block),
    timestamps(blocks) {
      return new Promise((resolve, reject) => {
        queued.push({ blocks, resolve, reject });
        if (queued.length === 1) setImmediate(send);
      });
    },
  };
}

/**
 * Reads one range completely: the headers of the block before it and of its last block (their hashes, for the reorg
 * check) beside its logs, the timestamps of its blocks with logs, the senders the adapter wants, and the block of every
 * flush boundary the range crosses, found exactly as processing will look for it (between the same known blocks), so
 * processing asks the chain nothing.
 */
export async function readRange(fetcher: AdaptiveLogFetcher, chain: AheadSource, options: ReadAheadOptions, from: number, to: number): Promise<LogBatch> {
  // The block before is compared by its own hash, not by the parent hash of `from`: hardhat reports a zero parent
  // hash for blocks mined in bulk (hardhat_mine). The headers are read beside the logs, not before them: one more
  // round trip per range would cost a hosted node's latency on every range, and what a sequential order would add
  // is only a reorg landing in the instant between two reads of one range.
  const [ends, logs] = await Promise.all([chain.headers(from === 0 ? [to] : [from - 1, to]), fetcher.fetch(options.addresses, options.topics, from, to)]);
  const blocks = [Math.max(0, from - 1)];
  const hashes: string[] = [];
  // The blocks holding a transaction whose sender is wanted.
  const holding = new Set<number>();
  for (const log of logs) {
    if (log.blockNumber !== blocks[blocks.length - 1]) blocks.push(log.blockNumber);
    if (options.wantsSender(log)) {
      hashes.push(log.transactionHash);
      holding.add(log.blockNumber);
    }
  }
  if (blocks[blocks.length - 1] !== to) blocks.push(to);
  // Where blocks are small (a quiet chain, an app chain, a local node), a block read whole gives its time and its
  // senders in one call, where its header and a lookup per transaction took a call each; where they are large, a
  // whole block would bring hundreds of transactions to find one sender. The two headers read beside the range's
  // logs have been counted by now, so even the first range has a measure.
  const mean = chain.transactionsPerBlock;
  const whole =
    hashes.length > 0 && options.wholeBlockTransactions > 0 && mean !== undefined && mean <= options.wholeBlockTransactions ? holding : new Set<number>();
  const unread = blocks.filter((b) => !ends.has(b) && !whole.has(b));
  const [stamps, { timestamps, senders }] = await Promise.all([
    unread.length > 0 ? chain.timestamps(unread) : new Map<number, number>(),
    readSenders(chain, [...whole], hashes),
  ]);
  const headers = new Map([...stamps, ...timestamps]);
  for (const [block, header] of ends) headers.set(block, header.ts);
  const known = knownHeaders(coalescedTimestamps(chain), headers);
  // Between each two neighbouring known blocks, the boundaries they straddle; a pair with none (most, as boundaries
  // are hours apart) or of adjacent blocks (whose answer is the lower block) reads nothing.
  const points = blocks.map((block) => ({ block, ts: headers.get(block) as number }));
  await Promise.all(
    points.slice(1).map(async (point, i) => {
      let lower = points[i] as BlockPoint;
      for (const boundary of boundariesBetween(lower.ts, point.ts, options.flushMs)) {
        const block = await lastBlockBefore(known, boundary, lower, point);
        lower = { block, ts: await known.timestamp(block) };
      }
    }),
  );
  const last = (ends.get(to) as BlockHeader).hash;
  const before = ends.get(from - 1)?.hash;
  return { from, to, logs, headers, senders, hashes: before === undefined ? { last } : { before, last } };
}

/**
 * The senders of `hashes`: read with the `whole` blocks that hold them (with those blocks' timestamps), or looked up
 * by transaction when there are none. A transaction a whole block left without its sender (a node that lists only
 * hashes) is looked up on its own; only the wanted senders are kept.
 */
async function readSenders(chain: AheadSource, whole: readonly number[], hashes: readonly string[]): Promise<BlocksWithSenders> {
  if (whole.length === 0) return { timestamps: new Map(), senders: hashes.length > 0 ? await chain.transactionsFrom(hashes) : new Map() };
  const read = await chain.blocksWithSenders(whole);
  const senders = new Map<string, string>();
  const missing: string[] = [];
  for (const hash of hashes) {
    const from = read.senders.get(hash);
    if (from === undefined) missing.push(hash);
    else senders.set(hash, from);
  }
  if (missing.length > 0) for (const [hash, from] of await chain.transactionsFrom(missing)) senders.set(hash, from);
  return { timestamps: read.timestamps, senders };
}

/**
 * Yields the ranges from `from` to `limit` in order, each read completely (readRange), keeping up to `depth` ranges
 * read ahead of the one the caller processes, so fetching overlaps processing while memory stays bounded. Ranges
 * are planned with the fetcher's current span. Stopping early leaves the ranges still being read to finish unseen.
 */
export async function* readAhead(
  fetcher: AdaptiveLogFetcher,
  chain: AheadSource,
  options: ReadAheadOptions,
  from: number,
  limit: number,
): AsyncGenerator<LogBatch> {
  const queue: Promise<LogBatch>[] = [];
  let next = from;
  while (next <= limit || queue.length > 0) {
    while (queue.length < Math.max(1, options.depth) && next <= limit) {
      const to = fetcher.plan(next, limit);
      const range = readRange(fetcher, chain, options, next, to);
      // Failures surface when the range's turn comes; one abandoned by an early stop must not go unhandled.
      range.catch(() => undefined);
      queue.push(range);
      next = to + 1;
    }
    yield await (queue.shift() as Promise<LogBatch>);
  }
}
