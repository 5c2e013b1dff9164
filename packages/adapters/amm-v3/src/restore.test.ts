// The restore at a restart: which positions are read from the chain at the block before the first log, and the tick they see.
import { AbiCoder } from "ethers";
import { adapterHarness, balance, call, DAVE, feed, liquidityLog, NPM, POOL, positionsAnswer, slot0Answer, status, swapLog, TableChain } from "../test/support";

const LP = { poolAddress: POOL, positionManagerAddress: NPM, trackLP: true };
const PREFIX = `h:amm-v3:${POOL}:${NPM}:positions`;
const start = adapterHarness();
const ownerWord = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;

/** A chain where, at block 49, each given token id is DAVE's position [-60, 60) with 100 liquidity. */
function chainWith(tokenIds: bigint[]): TableChain {
  const chain = new TableChain();
  for (const id of tokenIds) {
    chain.set(NPM, call.positions(id), positionsAnswer(-60, 60, 100n), 49);
    chain.set(NPM, call.ownerOf(id), ownerWord(DAVE), 49);
  }
  return chain;
}

/** Writes the stored list of known positions as a previous run left it. */
async function storeRecords(store: { set(key: string, value: string): Promise<void> }, records: string[]): Promise<void> {
  for (const [i, r] of records.entries()) await store.set(`${PREFIX}:${i}`, r);
  await store.set(`${PREFIX}:n`, String(records.length));
}

describe("amm-v3 restore", () => {
  it("reads nothing from the chain when the first log is in block 0, which has no block before it", async () => {
    const { adapter, chain } = await start(LP);
    chain.calls.length = 0;
    expect(await feed(adapter, [swapLog(1n, -1n, 5, { block: 0, tx: 1 })])).toEqual([[]]);
    expect(chain.calls).toEqual([]);
  });

  it("with trackSwaps only restores nothing: no chain read and no log line while handling logs", async () => {
    const { adapter, chain, logs } = await start({ poolAddress: POOL, trackSwaps: true });
    chain.calls.length = 0;
    await feed(adapter, [swapLog(1n, -1n, 5, { block: 50, tx: 1 })]);
    expect(chain.calls).toEqual([]);
    expect(logs.filter((l) => l.msg === "amm-v3 positions restored")).toEqual([]);
  });

  it("takes the pool's tick from slot0 at the block before: a position in range there is restored active", async () => {
    const chain = chainWith([1n]);
    chain.set(POOL, call.slot0, slot0Answer(0), 49);
    const { adapter, runtime } = await start(LP, chain);
    await storeRecords(runtime.store, ["1:-60:60"]);
    expect(await feed(adapter, [liquidityLog("Increase", 1n, 5n, { block: 50, tx: 50 })])).toEqual([[status(DAVE, 1n, true), balance(DAVE, 1n, "5")]]);
  });

  it("restores no tick from an uninitialised pool (sqrtPriceX96 = 0) or an answer shorter than sqrtPriceX96 and tick; two words are enough", async () => {
    const coder = AbiCoder.defaultAbiCoder();
    const cases: [string, string, boolean][] = [
      ["uninitialised", coder.encode(["uint160", "int24", "uint16", "uint16", "uint16", "uint8", "bool"], [0n, 0, 0, 0, 0, 0, false]), false],
      ["empty (no code at that block)", "0x", false],
      ["one word", coder.encode(["uint160"], [1n << 96n]), false],
      ["two words", coder.encode(["uint160", "int24"], [1n << 96n, 0]), true],
    ];
    for (const [, answer, active] of cases) {
      const chain = chainWith([1n]);
      chain.set(POOL, call.slot0, answer, 49);
      const { adapter, runtime } = await start(LP, chain);
      await storeRecords(runtime.store, ["1:-60:60"]);
      expect(await feed(adapter, [liquidityLog("Increase", 1n, 5n, { block: 50, tx: 50 })])).toEqual([[status(DAVE, 1n, active), balance(DAVE, 1n, "5")]]);
    }
  });

  it("reads no position whose record says it was burned at or before the block before the first log, and reads one burned later", async () => {
    const chain = chainWith([1n, 2n, 3n]);
    const { adapter, runtime } = await start(LP, chain);
    // 1 burned at 48, 2 at 49 (the block before the first log), 3 at 60 (its burn written ahead of the checkpoint).
    await storeRecords(runtime.store, ["1:-60:60:48", "2:-60:60:49", "3:-60:60:60"]);
    chain.calls.length = 0;
    const events = await feed(
      adapter,
      [1n, 2n, 3n].map((id) => liquidityLog("Decrease", id, 1n, { block: 50, tx: 50, index: Number(id) })),
    );
    expect(events).toEqual([[], [], [balance(DAVE, 3n, "-1")]]);
    expect(chain.calls.filter((c) => c.startsWith(NPM)).sort()).toEqual([`${NPM}|${call.positions(3n)}|49`, `${NPM}|${call.ownerOf(3n)}|49`].sort());
  });

  it("restores a position only when both positions() and ownerOf() answer", async () => {
    const chain = chainWith([3n]);
    chain.set(NPM, call.positions(1n), positionsAnswer(-60, 60, 100n), 49); // ownerOf(1) reverts
    chain.set(NPM, call.ownerOf(2n), ownerWord(DAVE), 49); // positions(2) reverts
    const { adapter, runtime } = await start(LP, chain);
    await storeRecords(runtime.store, ["1:-60:60", "2:-60:60", "3:-60:60"]);
    const events = await feed(
      adapter,
      [1n, 2n, 3n].map((id) => liquidityLog("Decrease", id, 1n, { block: 50, tx: 50, index: Number(id) })),
    );
    expect(events).toEqual([[], [], [balance(DAVE, 3n, "-1")]]);
  });

  it("fails the first log with the call's error when a read gets no answer (a lost connection), instead of dropping the position", async () => {
    const chain = chainWith([1n]);
    chain.set(POOL, call.slot0, slot0Answer(0), 49);
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    const answer = chain.call;
    // The same table, but ownerOf(1) at block 49 loses its connection instead of answering.
    const lossy = Object.assign(Object.create(chain) as TableChain, {
      call: (to: string, data: string, block?: number) => (data === call.ownerOf(1n) ? Promise.reject(reset) : answer(to, data, block)),
    });
    const { adapter, runtime } = await start(LP, lossy);
    await storeRecords(runtime.store, ["1:-60:60"]);
    await expect(feed(adapter, [liquidityLog("Decrease", 1n, 1n, { block: 50, tx: 50 })])).rejects.toBe(reset);
    // slot0 losing its connection fails the same way, rather than leaving the tick unknown.
    const noTick = Object.assign(Object.create(chainWith([1n])) as TableChain, {
      call: (to: string, data: string, block?: number) => (data === call.slot0 ? Promise.reject(reset) : answer(to, data, block)),
    });
    const second = await start(LP, noTick);
    await expect(feed(second.adapter, [swapLog(1n, -1n, 5, { block: 50, tx: 1 })])).rejects.toBe(reset);
  });

  it("reads each of more than a batch of 32 positions once, and logs how many it knew and restored and the tick", async () => {
    const ids = Array.from({ length: 70 }, (_, i) => BigInt(i + 1));
    const chain = chainWith(ids.slice(0, 69)); // the 70th reverts: known, not restored
    chain.set(POOL, call.slot0, slot0Answer(-7), 49);
    const { adapter, runtime, logs } = await start(LP, chain);
    await storeRecords(
      runtime.store,
      ids.map((id) => `${id}:-60:60`),
    );
    chain.calls.length = 0;
    await feed(adapter, [swapLog(1n, -1n, -7, { block: 50, tx: 50 })]);
    const expected = ids.flatMap((id) => [`${NPM}|${call.positions(id)}|49`, `${NPM}|${call.ownerOf(id)}|49`]);
    expect(chain.calls.filter((c) => c.startsWith(NPM)).sort()).toEqual(expected.sort());
    expect(logs.filter((l) => l.msg === "amm-v3 positions restored")).toEqual([
      { level: "info", obj: { pool: POOL, block: 50, known: 70, positions: 69, tick: -7 }, msg: "amm-v3 positions restored" },
    ]);
  });
});
