// The Merkle trees of published claim epochs, loaded from the database once per process: loading hashes every leaf.
import { type ClaimTree, loadClaimTree } from "@pointwise/claims";
import type { Database } from "@pointwise/db";

/** How many epochs' trees one process keeps (the most recently used). */
const KEPT_TREES = 8;

/** The tree of a published epoch by its id, read and checked on first use and kept; a published epoch's tree never changes. */
export interface ClaimTrees {
  get(epochId: string): Promise<ClaimTree>;
}

/** Creates the per-process cache of published epochs' trees over `db`. */
export function createClaimTrees(db: Database): ClaimTrees {
  const kept = new Map<string, Promise<ClaimTree>>();
  return {
    get(epochId) {
      let tree = kept.get(epochId);
      if (tree) kept.delete(epochId);
      else {
        tree = db
          .query<{ tree: unknown }>("SELECT tree FROM claim_epoch WHERE id = $1 AND status = 'published'", [epochId])
          .then(({ rows }) => loadClaimTree(rows[0]?.tree));
        // A failed read is asked again next time (unless a newer read of the epoch has taken its place).
        const read = tree;
        read.catch(() => {
          if (kept.get(epochId) === read) kept.delete(epochId);
        });
      }
      // Most recently used last: the first entry is the one to drop.
      kept.set(epochId, tree);
      for (const oldest of kept.keys()) {
        if (kept.size <= KEPT_TREES) break;
        kept.delete(oldest);
      }
      return tree;
    },
  };
}
