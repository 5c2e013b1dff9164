// The sink contract: write before the checkpoint commit, confirm after, recover to the committed cursor.
import type { OutputRow } from "../rows";

/** The block range a batch of rows came from. */
export interface BatchRef {
  from: number;
  to: number;
}

/**
 * An output destination. The engine calls, per batch: `write` (before the checkpoint commit; returns the cursor
 * to commit with it), then `committed` (after). At start, `recover` gets the committed cursor and must bring the
 * destination back to exactly that point, so a crash anywhere never writes a row twice.
 */
export interface Sink {
  /** Stable id within the config, used to store the sink's cursor. */
  readonly id: string;
  recover(cursor: string | undefined): Promise<void>;
  write(rows: readonly OutputRow[], batch: BatchRef): Promise<string | undefined>;
  committed(cursor: string | undefined): Promise<void>;
  close(): Promise<void>;
}
