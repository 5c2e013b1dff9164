// Finds the last block before a flush boundary from block timestamps: interpolation first, bisection as a fallback.
import type { BlockSource } from "./reader";

/** A known block and its timestamp (Unix ms). */
export interface BlockPoint {
  block: number;
  ts: number;
}

/**
 * The last block with a timestamp before `boundaryTs`, given a block `before` known to be earlier than the boundary
 * and a block `after` known to be at or past it. Each step reads two neighbouring blocks in one batch where a
 * constant block time puts the boundary (so a chain with a steady block time needs one step), and bisects
 * instead whenever the previous step did not halve the gap, so irregular block times still need only O(log n) steps.
 */
export async function lastBlockBefore(reader: Pick<BlockSource, "timestamps">, boundaryTs: number, before: BlockPoint, after: BlockPoint): Promise<number> {
  let lo = before;
  let hi = after;
  let interpolate = true;
  while (hi.block - lo.block > 1) {
    const gap = hi.block - lo.block;
    const guess = interpolate ? lo.block + Math.ceil(((boundaryTs - lo.ts) * gap) / (hi.ts - lo.ts)) - 1 : lo.block + Math.floor(gap / 2);
    const g = Math.min(hi.block - 1, Math.max(lo.block, guess));
    const probes = [g, g + 1].filter((b) => b > lo.block && b < hi.block);
    const ts = await reader.timestamps(probes);
    // Probes ascend, so a probe before the boundary is always a later `lo`, and the first at or past it is the new
    // `hi`: the probe after it is no closer.
    for (const block of probes) {
      const t = ts.get(block) as number;
      if (t >= boundaryTs) {
        hi = { block, ts: t };
        break;
      }
      lo = { block, ts: t };
    }
    interpolate = hi.block - lo.block <= gap / 2;
  }
  return lo.block;
}
