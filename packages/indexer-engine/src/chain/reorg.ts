// The reorg check of a block range: the node must still hold the block the index ended on, with the hash it had.
import { BaseError } from "@pointwise/errors";
import type { LogBatch } from "./logs";

/** The stable code of the error that stops a run on a reorg deeper than `finality`. */
export const CHAIN_REORG_DETECTED = "chain-reorg-detected";

/** Where the chain was found replaced: the block the index ended on, the hash stored for it and the one the node has now. */
export interface ReorgFound {
  block: number;
  storedHash: string;
  nodeHash: string;
  /** The pattern of the index's state-store keys, named as what to clear. */
  stateKeys?: string;
}

/**
 * The error for a block the index ended on that the node now has with another hash. Not retryable: rows of the
 * blocks after the fork are already written from a chain the node no longer has, and indexing on would mix two chains.
 */
export function chainReorgDetected(found: ReorgFound): BaseError {
  const { block, storedHash, nodeHash, stateKeys } = found;
  const clear = stateKeys === undefined ? "clear this indexer's keys in the state store" : `clear this indexer's state-store keys (${stateKeys})`;
  return new BaseError(
    CHAIN_REORG_DETECTED,
    `Chain reorg detected at block ${block}: the checkpoint holds hash ${storedHash} for it, the node now has ${nodeHash}. ` +
      `Rows already written for the blocks after the fork (at or before block ${block}) are from a chain the node no longer has. ` +
      `Raise network.finality above the depth of this reorg, then index again from a block before the fork: ${clear}, or use a new indexerId.`,
    { details: { block, storedHash, nodeHash } },
  );
}

/**
 * Throws chain-reorg-detected unless the node, asked with the range, still has the block the index ended on (`prev`,
 * the block before the range) with the hash kept for it. A `prev` without a hash (a checkpoint written before hashes
 * were kept, or a new index) or a range read without hashes (a recorded chain) is taken as it is.
 */
export function checkPrev(prev: { block: number; hash?: string }, range: Pick<LogBatch, "hashes">, stateKeys?: string): void {
  const now = range.hashes?.before;
  if (prev.hash === undefined || now === undefined || now === prev.hash) return;
  throw chainReorgDetected({ block: prev.block, storedHash: prev.hash, nodeHash: now, ...(stateKeys === undefined ? {} : { stateKeys }) });
}
