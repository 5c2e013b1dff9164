// Finds the last block before a flush boundary by binary search over block timestamps.
import type { BlockSource } from "./reader";

/** A known block and its timestamp (Unix ms). */
export interface BlockPoint {
  block: number;
  ts: number;
}

/**
 * The last block with a timestamp before `boundaryTs`, given a block `before` known to be earlier than the
 * boundary and a block `after` known to be at or past it. Binary search over block timestamps.
 */
export async function lastBlockBefore(reader: Pick<BlockSource, "timestamp">, boundaryTs: number, before: BlockPoint, after: BlockPoint): Promise<number> {
  let lo = before.block;
  let hi = after.block;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if ((await reader.timestamp(mid)) < boundaryTs) lo = mid;
    else hi = mid;
  }
  return lo;
}
