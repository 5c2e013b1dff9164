// Turns one block range of logs into state changes and batch items: flush boundaries first, then events.
import { addFixed, parseFixed, plainDecimal } from "@pointwise/fixed";
import type { Logger } from "@pointwise/logger";
import type { Adapter, ChainLog } from "./adapter";
import { knownHeaders } from "./chain/ahead";
import { lastBlockBefore } from "./chain/boundary";
import type { LogBatch } from "./chain/logs";
import type { BlockSource } from "./chain/reader";
import type { BatchItem, Enricher } from "./enrich";
import { type ActionEvent, type EventContext, type IndexerEvent, NULL_ADDRESS } from "./events";
import { mapLimit } from "./util/retry";
import { boundariesBetween, type ClosedWindow, type Point, type WindowBook } from "./windows";

/** What turning logs into items needs. */
export interface BatchDeps {
  adapter: Adapter;
  reader: BlockSource;
  book: WindowBook;
  metrics: Map<string, string>;
  enricher: Enricher;
  flushMs: number;
  logger: Logger;
}

/** The items of a batch and the last block it reached. */
export interface BatchResult {
  items: BatchItem[];
  dirtyMetrics: Map<string, string>;
  last: Point;
}

/**
 * Runs one block range through the adapter and the state: flush boundaries first (in time order), then each
 * log's events. Pure state changes happen in the WindowBook; chain reads are the block timestamps, the
 * transaction senders the adapter asked for, and the block of each flush boundary.
 */
export async function processBatch(
  deps: BatchDeps,
  logs: readonly ChainLog[],
  to: number,
  prev: Point,
  known: Pick<LogBatch, "headers" | "senders"> = {},
): Promise<BatchResult> {
  const { adapter, book, enricher } = deps;
  // Blocks read ahead with the range are answered from memory; anything else is asked of the chain.
  const reader = known.headers === undefined ? deps.reader : knownHeaders(deps.reader, new Map(known.headers));
  const wantsTx = new Set(adapter.filters.filter((f) => f.withTransaction).flatMap((f) => f.topics.map((t) => `${f.address}|${t.toLowerCase()}`)));
  const askSenders = async () => {
    const hashes = [...new Set(logs.filter((l) => wantsTx.has(`${l.address}|${l.topics[0]}`)).map((l) => l.transactionHash))];
    return new Map(await mapLimit(hashes, 8, async (hash) => [hash, await deps.reader.transactionFrom(hash)] as const));
  };
  const [senders, timestamps] = await Promise.all([known.senders ?? askSenders(), reader.timestamps([...logs.map((l) => l.blockNumber), to])]);

  const items: BatchItem[] = [];
  const dirtyMetrics = new Map<string, string>();
  let last = prev;

  const flushUntil = async (point: Point) => {
    let lower = last;
    for (const boundary of boundariesBetween(last.ts, point.ts, deps.flushMs)) {
      if (book.openCount === 0) break;
      // Between two adjacent blocks lastBlockBefore answers the lower one without a read.
      const block = await lastBlockBefore(reader, boundary, lower, point);
      const at = { ts: boundary, block };
      for (const window of book.flush(at)) items.push({ kind: "window", window });
      lower = { block, ts: block === lower.block ? lower.ts : await reader.timestamp(block) };
      if (adapter.onFlush !== undefined) {
        const ctx: EventContext = { ts: boundary, height: block, txHash: "", logIndex: -1 };
        for (const event of adapter.onFlush(at, lower.ts)) if (enricher.accept(event, ctx)) ingest(event, ctx, at);
      }
    }
  };

  // One array for the windows each event closes, emptied after every event.
  const closed: ClosedWindow[] = [];
  const ingest = (event: IndexerEvent, ctx: EventContext, at: Point, cause?: NonNullable<ClosedWindow["cause"]>) => {
    const applied = applyEvent(book, deps.metrics, event, ctx, at, cause, closed);
    if (applied.metric !== undefined) dirtyMetrics.set(applied.metric.key, applied.metric.value);
    for (const window of closed) items.push({ kind: "window", window });
    closed.length = 0;
    if (applied.action !== undefined) items.push({ kind: "action", action: applied.action, ctx });
  };

  let point = last;
  for (const log of logs) {
    if (log.blockNumber !== point.block) {
      // One point per block, shared by its events and the windows they close, so prices are asked once per block.
      point = { block: log.blockNumber, ts: timestamps.get(log.blockNumber) as number };
      if (Math.floor(point.ts / deps.flushMs) > Math.floor(last.ts / deps.flushMs)) await flushUntil(point);
      last = point;
    }
    const ctx: EventContext = { ts: point.ts, height: point.block, txHash: log.transactionHash, logIndex: log.logIndex };
    // Shared by every window this log's events close.
    const cause = { txHash: log.transactionHash, logIndex: log.logIndex };
    const from = senders.get(log.transactionHash);
    const handled = adapter.handle(log, from === undefined ? ctx : { ...ctx, transaction: { from } });
    // Most adapters answer synchronously; awaiting a plain array would still cost a trip through the microtask queue.
    const events = Array.isArray(handled) ? handled : await handled;
    for (const event of events) if (enricher.accept(event, ctx)) ingest(event, ctx, point, cause);
  }
  const end = { block: to, ts: timestamps.get(to) as number };
  if (end.block !== last.block) {
    await flushUntil(end);
    last = end;
  }
  return { items, dirtyMetrics, last };
}

/** What one event did to the state: windows it closed, a metric it changed, or the action to export. */
export interface Applied {
  windows: ClosedWindow[];
  metric?: { key: string; value: string };
  action?: ActionEvent;
}

/**
 * Applies one validated event to the state (pure): balance deltas move windows (the null address is ignored,
 * so mints and burns need no filtering), position events cut windows, measure deltas add to a metric, actions
 * pass through to enrichment. The windows closed are appended to `windows`, and `cause` is the closing event's
 * place (both may be passed in, so that a batch allocates them once rather than per event).
 */
export function applyEvent(
  book: WindowBook,
  metrics: Map<string, string>,
  event: IndexerEvent,
  ctx: EventContext,
  at: Point = { ts: ctx.ts, block: ctx.height },
  cause: NonNullable<ClosedWindow["cause"]> = { txHash: ctx.txHash, logIndex: ctx.logIndex },
  windows: ClosedWindow[] = [],
): Applied {
  switch (event.type) {
    case "balanceDelta":
      if (event.user !== NULL_ADDRESS) book.applyDelta(event.user, event.asset, event.activity, event.amount, at, cause, windows);
      return { windows };
    case "positionUpdate":
      return { windows: book.positionUpdate(event.user, event.asset, event.activity, at, cause, windows) };
    case "positionStatusChange":
      return { windows: book.setStatus(event.user, event.asset, event.activity, event.active, at, cause, windows) };
    case "reprice":
      return { windows: book.reprice(event.asset, at, cause, windows) };
    case "measureDelta": {
      const key = `${event.asset}|${event.metric}`;
      const sum = addFixed(parseFixed(metrics.get(key) ?? "0"), parseFixed(event.amount));
      const value = plainDecimal(sum.units, sum.scale);
      metrics.set(key, value);
      return { windows, metric: { key, value } };
    }
    case "action":
      return { windows, action: event };
  }
}
