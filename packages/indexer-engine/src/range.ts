// Indexes one block range as a unit: rows to every sink, then state and checkpoint committed together.
import { type BatchDeps, processBatch } from "./batch";
import type { LogBatch } from "./chain/logs";
import type { Sink } from "./sinks/sink";
import type { Checkpoint, StateStore } from "./state/store";

/** What indexing one block range needs: the batch pipeline, the sinks, and where state is committed. */
export interface RangeDeps extends BatchDeps {
  sinks: readonly Sink[];
  store: Pick<StateStore, "commit">;
  /** Told of each sink write that fails (metrics); the failure still ends the range. */
  onSinkError?(sinkId: string): void;
}

/**
 * Indexes one block range as a unit and returns the checkpoint after it: logs through the adapter and the state,
 * rows through enrichment to every sink, then state and checkpoint committed together, then the sinks told.
 * Rows reach the sinks before the checkpoint moves; each sink's cursor is committed with it, and `recover` undoes
 * anything a sink holds past its last committed cursor.
 */
export async function indexRange(deps: RangeDeps, checkpoint: Checkpoint, range: LogBatch): Promise<Checkpoint> {
  const batch = await processBatch(deps, range.logs, range.to, checkpoint.prev, range);
  const rows = await deps.enricher.rows(batch.items);
  const cursors: Record<string, string> = { ...checkpoint.sinks };
  for (const sink of deps.sinks) {
    let cursor: string | undefined;
    try {
      cursor = await sink.write(rows, { from: range.from, to: range.to });
    } catch (err) {
      deps.onSinkError?.(sink.id);
      throw err;
    }
    if (cursor !== undefined) cursors[sink.id] = cursor;
  }
  const next: Checkpoint = {
    ...checkpoint,
    nextBlock: range.to + 1,
    prev: batch.last,
    sinks: cursors,
    rowsWritten: checkpoint.rowsWritten + rows.length,
  };
  await deps.store.commit({ positions: deps.book.takeDirty(), metrics: batch.dirtyMetrics, checkpoint: next });
  for (const sink of deps.sinks) await sink.committed(cursors[sink.id]);
  return next;
}
