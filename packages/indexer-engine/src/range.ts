// Indexes one block range as a unit: rows to every sink, then state and checkpoint committed together.
import { type BatchDeps, processBatch } from "./batch";
import type { LogBatch } from "./chain/logs";
import { checkPrev } from "./chain/reorg";
import type { OutputRow } from "./rows";
import type { BatchRef, Sink } from "./sinks/sink";
import type { Checkpoint, IndexedBlock, StateStore } from "./state/store";
import type { Position } from "./windows";

/** What processing one block range needs: the batch pipeline, and what a reorg error names as the state to clear. */
export interface ProcessDeps extends BatchDeps {
  /** The pattern of the index's state-store keys. */
  stateKeys?: string;
}

/** What indexing one block range needs: the batch pipeline, the sinks, and where state is committed. */
export interface RangeDeps extends ProcessDeps {
  sinks: readonly Sink[];
  store: Pick<StateStore, "commit">;
  /** Told of each sink write that fails (metrics); the failure still ends the range. */
  onSinkError?(sinkId: string): void;
}

/** A block range run through the adapter and the state: its rows, and the state it leaves, ready to commit. */
export interface ProcessedRange {
  range: BatchRef;
  rows: OutputRow[];
  /** The last block the range reached, its timestamp and hash: where the next range's flush boundaries and reorg check start. */
  last: IndexedBlock;
  /** Positions the range changed, as they stand after it. */
  positions: Position[];
  metrics: ReadonlyMap<string, string>;
}

/**
 * Runs one block range through the adapter, the state and enrichment, starting after `prev`; writes nothing. First
 * it checks that the chain still holds `prev` (checkPrev), so a reorg deeper than finality stops the run with
 * chain-reorg-detected before the range touches any state. The positions it changed are taken as they stand now, so
 * the next range may be processed before this one commits.
 */
export async function processRange(deps: ProcessDeps, prev: IndexedBlock, range: LogBatch): Promise<ProcessedRange> {
  checkPrev(prev, range, deps.stateKeys);
  // Only the point goes on: the hash must not ride along into windows opened at `prev`.
  const batch = await processBatch(deps, range.logs, range.to, { block: prev.block, ts: prev.ts }, range);
  const rows = await deps.enricher.rows(batch.items);
  const { block, ts } = batch.last;
  const last: IndexedBlock = range.hashes === undefined ? { block, ts } : { block, ts, hash: range.hashes.last };
  return { range: { from: range.from, to: range.to }, rows, last, positions: deps.book.takeDirty(), metrics: batch.dirtyMetrics };
}

/**
 * Writes a processed range's rows to every sink, then commits its state changes and the checkpoint after it
 * together, then tells the sinks; returns that checkpoint. `checkpoint` must be the one committed just before.
 * Rows reach the sinks before the checkpoint moves; each sink's cursor is committed with it, and `recover` undoes
 * anything a sink holds past its last committed cursor.
 */
export async function commitRange(deps: Pick<RangeDeps, "sinks" | "store" | "onSinkError">, checkpoint: Checkpoint, done: ProcessedRange): Promise<Checkpoint> {
  const cursors: Record<string, string> = { ...checkpoint.sinks };
  for (const sink of deps.sinks) {
    let cursor: string | undefined;
    try {
      cursor = await sink.write(done.rows, done.range);
    } catch (err) {
      deps.onSinkError?.(sink.id);
      throw err;
    }
    if (cursor !== undefined) cursors[sink.id] = cursor;
  }
  const next: Checkpoint = {
    ...checkpoint,
    nextBlock: done.range.to + 1,
    prev: done.last,
    sinks: cursors,
    rowsWritten: checkpoint.rowsWritten + done.rows.length,
  };
  await deps.store.commit({ positions: done.positions, metrics: done.metrics, checkpoint: next });
  for (const sink of deps.sinks) await sink.committed(cursors[sink.id]);
  return next;
}

/**
 * Indexes one block range as a unit and returns the checkpoint after it: logs through the adapter and the state,
 * rows through enrichment to every sink, then state and checkpoint committed together, then the sinks told.
 */
export async function indexRange(deps: RangeDeps, checkpoint: Checkpoint, range: LogBatch): Promise<Checkpoint> {
  return commitRange(deps, checkpoint, await processRange(deps, checkpoint.prev, range));
}
