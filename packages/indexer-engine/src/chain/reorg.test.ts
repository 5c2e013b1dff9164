// The reorg check of a block range: another hash for the block the index ended on stops the run with chain-reorg-detected.
import { BaseError, isRetryable } from "@pointwise/errors";
import { CHAIN_REORG_DETECTED, checkPrev } from "./reorg";

const A = `0x${"a".repeat(64)}`;
const B = `0x${"b".repeat(64)}`;
const C = `0x${"c".repeat(64)}`;

describe("checkPrev", () => {
  it("passes a range read while the node has the block before it with the stored hash", () => {
    expect(() => checkPrev({ block: 9, hash: A }, { hashes: { before: A, last: B } })).not.toThrow();
  });

  it("refuses a range read while the node has another hash for the block before it, naming the block, both hashes and what to do", () => {
    let caught: unknown;
    try {
      checkPrev({ block: 9, hash: A }, { hashes: { before: C, last: B } }, "pw:idx:lp:*");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BaseError);
    expect(isRetryable(caught)).toBe(false);
    expect(caught).toMatchObject({
      code: CHAIN_REORG_DETECTED,
      details: { block: 9, storedHash: A, nodeHash: C },
      message:
        `Chain reorg detected at block 9: the checkpoint holds hash ${A} for it, the node now has ${C}. ` +
        "Rows already written for the blocks after the fork (at or before block 9) are from a chain the node no longer has. " +
        "Raise network.finality above the depth of this reorg, then index again from a block before the fork: " +
        "clear this indexer's state-store keys (pw:idx:lp:*), or use a new indexerId.",
    });
  });

  it("says to clear the indexer's keys in words when it is not told their pattern", () => {
    expect(() => checkPrev({ block: 9, hash: A }, { hashes: { before: C, last: B } })).toThrow(
      "then index again from a block before the fork: clear this indexer's keys in the state store, or use a new indexerId.",
    );
  });

  it("takes a block without a stored hash (a checkpoint of an earlier version, a new index) as it is", () => {
    expect(() => checkPrev({ block: 9 }, { hashes: { before: C, last: B } })).not.toThrow();
  });

  it("takes a range read without hashes (a recorded chain), or from block 0, as it is", () => {
    expect(() => checkPrev({ block: 9, hash: A }, {})).not.toThrow();
    expect(() => checkPrev({ block: 0, hash: A }, { hashes: { last: B } })).not.toThrow();
  });
});
