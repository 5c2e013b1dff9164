// Which of the position manager's logs start, change or leave alone a position of the pool: the pool Mint and the manager log after it.
import {
  ALICE,
  adapterHarness,
  assetOf,
  BOB,
  balance,
  burnLog,
  CAROL,
  collectLog,
  feed,
  initializeLog,
  liquidityLog,
  mintLog,
  NPM,
  NULL,
  nftTransferLog,
  positionMintLogs,
  status,
} from "../test/support";

const LP = { poolAddress: "0x00000000000000000000000000000000000000a0", positionManagerAddress: NPM, trackLP: true };
const start = adapterHarness();

/** The pool initialised at tick 0 and position 1 [-60, 60) of ALICE with 1000 liquidity. */
async function withPositionOne() {
  const env = await start(LP);
  await feed(env.adapter, [initializeLog(0, { block: 10, tx: 1 }), ...positionMintLogs(ALICE, 1n, -60, 60, 1000n, { block: 11, tx: 2 })]);
  return env;
}

describe("amm-v3 pool Mints and the position manager's Transfers", () => {
  it("a multicall adding to a position the adapter does not track, then minting in another pool, starts no position of this pool", async () => {
    // The Mint of the untracked position 7 ends with its IncreaseLiquidity; the other pool's new NFT must not take it.
    const { adapter, runtime } = await start(LP);
    const events = await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(NPM, -60, 60, 500n, { block: 11, tx: 2, index: 0 }),
      liquidityLog("Increase", 7n, 500n, { block: 11, tx: 2, index: 1 }),
      nftTransferLog(NULL, BOB, 2n, { block: 11, tx: 2, index: 2 }),
      liquidityLog("Increase", 2n, 900n, { block: 11, tx: 2, index: 3 }),
    ]);
    expect(events.flat()).toEqual([]);
    expect(await runtime.labels.get(assetOf(2n))).toEqual({});
  });

  it("an increase of a tracked position ends its Mint's wait: a Transfer from the null address after it is another pool's", async () => {
    const { adapter } = await withPositionOne();
    const events = await feed(adapter, [
      mintLog(NPM, -60, 60, 500n, { block: 12, tx: 3, index: 0 }),
      liquidityLog("Increase", 1n, 500n, { block: 12, tx: 3, index: 1 }),
      nftTransferLog(NULL, CAROL, 3n, { block: 12, tx: 3, index: 2 }),
      liquidityLog("Increase", 3n, 800n, { block: 12, tx: 3, index: 3 }),
    ]);
    expect(events).toEqual([[], [status(ALICE, 1n, true), balance(ALICE, 1n, "500")], [], []]);
  });

  it("a Mint starts one position only: a second Transfer from the null address after it is another pool's", async () => {
    const { adapter } = await start(LP);
    const events = await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(NPM, -60, 60, 500n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, BOB, 2n, { block: 11, tx: 2, index: 1 }),
      nftTransferLog(NULL, CAROL, 3n, { block: 11, tx: 2, index: 2 }),
      liquidityLog("Increase", 3n, 800n, { block: 11, tx: 2, index: 3 }),
    ]);
    expect(events).toEqual([[], [], [status(BOB, 2n, true)], [], []]);
  });

  it("only a pool Mint starts a position: a Transfer from the null address after a Burn by the position manager is another pool's", async () => {
    const { adapter } = await withPositionOne();
    const events = await feed(adapter, [
      burnLog(NPM, -60, 60, 100n, { block: 12, tx: 3, index: 0 }),
      nftTransferLog(NULL, BOB, 2n, { block: 12, tx: 3, index: 1 }),
      liquidityLog("Increase", 2n, 100n, { block: 12, tx: 3, index: 2 }),
    ]);
    expect(events.flat()).toEqual([]);
  });

  it("ignores a Transfer of the position manager that is not ERC-721's (the token id not indexed)", async () => {
    const { adapter } = await start(LP);
    const erc20Transfer = {
      ...nftTransferLog(NULL, BOB, 2n, { block: 11, tx: 2, index: 1 }),
      data: `0x${2n.toString(16).padStart(64, "0")}`,
    };
    erc20Transfer.topics = erc20Transfer.topics.slice(0, 3);
    const events = await feed(adapter, [initializeLog(0, { block: 10, tx: 1 }), mintLog(NPM, -60, 60, 500n, { block: 11, tx: 2, index: 0 }), erc20Transfer]);
    expect(events.flat()).toEqual([]);
  });

  it("ignores the position manager's other logs, such as the Collect of a tracked position's fees", async () => {
    const { adapter } = await withPositionOne();
    expect(await feed(adapter, [collectLog(1n, ALICE, { block: 12, tx: 3 })])).toEqual([[]]);
  });

  it("ignores a Transfer from the null address by another contract, even right after a Mint by the position manager", async () => {
    const { adapter } = await start(LP);
    const other = { ...nftTransferLog(NULL, BOB, 2n, { block: 11, tx: 2, index: 1 }), address: "0x00000000000000000000000000000000000000c0" };
    const events = await feed(adapter, [initializeLog(0, { block: 10, tx: 1 }), mintLog(NPM, -60, 60, 500n, { block: 11, tx: 2, index: 0 }), other]);
    expect(events.flat()).toEqual([]);
  });

  it("with trackSwaps only ignores the position manager's logs, even when its address is given", async () => {
    const { adapter } = await start({ ...LP, trackLP: false, trackSwaps: true });
    const events = await feed(adapter, [
      mintLog(NPM, -60, 60, 500n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, BOB, 2n, { block: 11, tx: 2, index: 1 }),
      liquidityLog("Increase", 2n, 500n, { block: 11, tx: 2, index: 2 }),
    ]);
    expect(events).toEqual([[], [], []]);
  });
});
