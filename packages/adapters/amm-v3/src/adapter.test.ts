// The amm-v3 adapter on hand-encoded logs: swap legs from signed amounts, position tracking, in-range status, restore.
import { createHash } from "node:crypto";
import type { Adapter, ChainLog } from "@pointwise/indexer-engine";
import { formatUnits } from "ethers";
import {
  ALICE,
  adapterHarness,
  assetOf,
  BOB,
  balance,
  CAROL,
  call,
  DAVE,
  feed,
  initializeLog,
  liquidityLog,
  mintLog,
  NPM,
  NULL,
  nftTransferLog,
  POOL,
  positionsAnswer,
  slot0Answer,
  status,
  swapLog,
  T0,
  T1,
  tx,
} from "../test/support";
import { ammV3Adapter } from "./index";

const facts = { token0: T0, token1: T1, decimals0: 6, decimals1: 18 };
const md5 = (s: string) => createHash("md5").update(s).digest("hex");
const units = (raw: bigint, decimals: number) => formatUnits(raw, decimals).replace(/\.0$/, "");
const LP = { poolAddress: POOL, positionManagerAddress: NPM, trackLP: true };

const start = adapterHarness();

describe("amm-v3 swaps", () => {
  it("turns a swap paying token0 in (amount0 > 0, amount1 < 0) into a sold token0 leg and a bought token1 leg with one key", async () => {
    const { swapEvents } = await import("./adapter");
    const log = swapLog(2_500_000n, -(10n ** 15n), 5, { block: 3, tx: 9, index: 7 });
    const ctx = { ts: 1, height: 3, txHash: tx(9), logIndex: 7, transaction: { from: "0x00000000000000000000000000000000000000A1" } };
    const key = md5(`${tx(9)}7`);
    const meta = { fromTkAddress: T0, toTkAddress: T1, fromTkAmount: "2.5", toTkAmount: "0.001" };
    expect(swapEvents(facts, log, ctx)).toEqual([
      { type: "action", key, activity: "swap", user: ALICE, priceable: true, amount: { asset: T0, amount: "2.5" }, meta },
      { type: "action", key, activity: "swap", user: ALICE, priceable: true, amount: { asset: T1, amount: "0.001" }, meta },
    ]);
  });

  it("turns a swap paying token1 in (amount1 > 0, amount0 < 0) into a sold token1 leg and a bought token0 leg, reading large negatives exactly", async () => {
    const { swapEvents } = await import("./adapter");
    const ctx = { ts: 1, height: 3, txHash: tx(9), logIndex: 2, transaction: { from: BOB } };
    const legs = swapEvents(facts, swapLog(-7_000_000n, 3n * 10n ** 18n, -5, { block: 3, tx: 9, index: 2 }), ctx);
    expect(legs.map((e) => e.type === "action" && [e.key, e.amount])).toEqual([
      [md5(`${tx(9)}2`), { asset: T1, amount: "3" }],
      [md5(`${tx(9)}2`), { asset: T0, amount: "7" }],
    ]);
    // int256 amounts far beyond 64 bits, both signs: two's complement read as the pool wrote it.
    const huge = 2n ** 200n + 12_345n;
    const big = swapEvents(facts, swapLog(-huge, huge * 3n, 0, { block: 3, tx: 9, index: 2 }), ctx);
    expect(big.map((e) => e.type === "action" && e.amount?.amount)).toEqual([units(huge * 3n, 18), units(huge, 6)]);
  });

  it("skips swaps with a zero sold or bought amount", async () => {
    const { swapEvents } = await import("./adapter");
    const ctx = { ts: 1, height: 3, txHash: tx(9), logIndex: 0, transaction: { from: BOB } };
    for (const [a0, a1] of [
      [0n, 0n],
      [5n, 0n],
      [0n, -5n],
      [-5n, 0n],
      [0n, 5n],
    ] as const)
      expect(swapEvents(facts, swapLog(a0, a1, 0, { block: 3, tx: 9 }), ctx)).toEqual([]);
  });

  it("fails with adapter-failed naming the log when the transaction sender is missing or empty", async () => {
    const { swapEvents } = await import("./adapter");
    for (const transaction of [undefined, { from: "" }]) {
      const ctx = { ts: 1, height: 3, txHash: tx(9), logIndex: 4, transaction };
      expect(() => swapEvents(facts, swapLog(1n, -1n, 0, { block: 3, tx: 9, index: 4 }), ctx)).toThrow(
        expect.objectContaining({ code: "adapter-failed", message: "amm-v3: transaction.from not found", details: { txHash: tx(9), logIndex: 4 } }),
      );
    }
  });

  it("with trackSwaps only reads only the pool's Swap logs (with the sender) and keys legs by transaction hash and log index", async () => {
    const { adapter } = await start({ poolAddress: POOL, trackSwaps: true });
    expect(adapter.filters).toEqual([{ address: POOL, topics: [swapLog(1n, 1n, 0, { block: 0, tx: 0 }).topics[0]], withTransaction: true }]);
    expect(adapter.contracts).toEqual([POOL]);
    const [first, second, mint] = await feed(adapter, [
      swapLog(1_000_000n, -(10n ** 18n), 1, { block: 4, tx: 1, index: 3 }),
      swapLog(1_000_000n, -(10n ** 18n), 1, { block: 4, tx: 1, index: 4 }),
      mintLog(NPM, -60, 60, 10n, { block: 4, tx: 2 }),
    ]);
    expect(first?.map((e) => e.type === "action" && [e.key, e.user])).toEqual([
      [md5(`${tx(1)}3`), DAVE],
      [md5(`${tx(1)}3`), DAVE],
    ]);
    expect(second?.map((e) => e.type === "action" && e.key)).toEqual([md5(`${tx(1)}4`), md5(`${tx(1)}4`)]);
    expect(mint).toEqual([]);
  });
});

describe("amm-v3 positions", () => {
  it("reads the pool's Swap, Initialize and Mint logs and the manager's Transfer, IncreaseLiquidity and DecreaseLiquidity when trackLP", async () => {
    const { adapter } = await start(LP);
    const topic = (l: ChainLog) => l.topics[0];
    const at = { block: 0, tx: 0 };
    expect(adapter.filters).toEqual([
      { address: POOL, topics: [topic(swapLog(0n, 0n, 0, at))], withTransaction: false },
      { address: POOL, topics: [topic(initializeLog(0, at)), topic(mintLog(NPM, 0, 1, 1n, at))], withTransaction: false },
      {
        address: NPM,
        topics: [topic(nftTransferLog(NULL, ALICE, 1n, at)), topic(liquidityLog("Increase", 1n, 1n, at)), topic(liquidityLog("Decrease", 1n, 1n, at))],
        withTransaction: false,
      },
    ]);
    expect(adapter.contracts).toEqual([POOL, NPM]);
  });

  it("recognises a mint by the pool's Mint before the manager's Transfer in one transaction, and labels the position", async () => {
    const { adapter, runtime } = await start(LP);
    const events = await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(NPM, -60, 60, 1000n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, ALICE, 1n, { block: 11, tx: 2, index: 1 }),
      liquidityLog("Increase", 1n, 1000n, { block: 11, tx: 2, index: 2 }),
    ]);
    expect(events).toEqual([[], [], [status(ALICE, 1n, true)], [status(ALICE, 1n, true), balance(ALICE, 1n, "1000")]]);
    expect(await runtime.labels.get(assetOf(1n))).toEqual({
      protocol: "amm-v3",
      role: "position",
      pool: POOL,
      positionManager: NPM,
      tokenId: "1",
      token0: T0,
      token1: T1,
      decimals0: "6",
      decimals1: "18",
      fee: "3000",
      tickLower: "-60",
      tickUpper: "60",
    });
    // The token id list: a count and one record per position.
    const prefix = `h:amm-v3:${POOL}:${NPM}:positions`;
    expect([await runtime.store.get(`${prefix}:n`), await runtime.store.get(`${prefix}:0`)]).toEqual(["1", "1:-60:60"]);
  });

  it("ignores NFTs of other pools: a Mint for another owner, or a Mint and a Transfer in different transactions", async () => {
    const { adapter } = await start(LP);
    const events = await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(CAROL, -60, 60, 1000n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, ALICE, 1n, { block: 11, tx: 2, index: 1 }),
      liquidityLog("Increase", 1n, 1000n, { block: 11, tx: 2, index: 2 }),
      mintLog(NPM, -60, 60, 1000n, { block: 12, tx: 3 }),
      nftTransferLog(NULL, ALICE, 2n, { block: 12, tx: 4, index: 0 }),
      liquidityLog("Increase", 2n, 1000n, { block: 12, tx: 4, index: 1 }),
      liquidityLog("Decrease", 2n, 10n, { block: 13, tx: 5 }),
      nftTransferLog(ALICE, BOB, 2n, { block: 13, tx: 6 }),
    ]);
    expect(events.flat()).toEqual([]);
  });

  it("in one multicall, an increase of one position and the mint of another: each pool Mint goes to its own position", async () => {
    const { adapter, runtime } = await start(LP);
    await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(NPM, -60, 60, 1000n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, ALICE, 1n, { block: 11, tx: 2, index: 1 }),
      liquidityLog("Increase", 1n, 1000n, { block: 11, tx: 2, index: 2 }),
    ]);
    const events = await feed(adapter, [
      mintLog(NPM, -60, 60, 500n, { block: 12, tx: 3, index: 0 }),
      liquidityLog("Increase", 1n, 500n, { block: 12, tx: 3, index: 1 }),
      mintLog(NPM, 120, 240, 700n, { block: 12, tx: 3, index: 2 }),
      nftTransferLog(NULL, BOB, 2n, { block: 12, tx: 3, index: 3 }),
      liquidityLog("Increase", 2n, 700n, { block: 12, tx: 3, index: 4 }),
    ]);
    expect(events).toEqual([
      [],
      [status(ALICE, 1n, true), balance(ALICE, 1n, "500")],
      [],
      [status(BOB, 2n, false)],
      [status(BOB, 2n, false), balance(BOB, 2n, "700")],
    ]);
    const labels = await runtime.labels.get(assetOf(2n));
    expect([labels.tickLower, labels.tickUpper, labels.tokenId]).toEqual(["120", "240", "2"]);
  });

  it("moves liquidity on decrease and transfer, keeps a closed position's owner without a balance, and forgets a burned one", async () => {
    const { adapter, runtime } = await start(LP);
    const events = await feed(adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      mintLog(NPM, -60, 60, 1000n, { block: 11, tx: 2, index: 0 }),
      nftTransferLog(NULL, ALICE, 1n, { block: 11, tx: 2, index: 1 }),
      liquidityLog("Increase", 1n, 1000n, { block: 11, tx: 2, index: 2 }),
      liquidityLog("Decrease", 1n, 300n, { block: 12, tx: 3 }),
      nftTransferLog(ALICE, BOB, 1n, { block: 13, tx: 4 }),
      liquidityLog("Decrease", 1n, 700n, { block: 14, tx: 5 }),
      nftTransferLog(BOB, CAROL, 1n, { block: 15, tx: 6 }),
      nftTransferLog(CAROL, NULL, 1n, { block: 16, tx: 7 }),
      liquidityLog("Increase", 1n, 5n, { block: 17, tx: 8 }),
      swapLog(1n, -1n, -100, { block: 18, tx: 9 }),
    ]);
    expect(events.slice(4)).toEqual([
      [balance(ALICE, 1n, "-300")],
      [balance(ALICE, 1n, "-700"), status(BOB, 1n, true), balance(BOB, 1n, "700")],
      [balance(BOB, 1n, "-700")],
      // Zero liquidity: the new owner's status only, no balance to move.
      [status(CAROL, 1n, true)],
      [],
      [],
      [],
    ]);
    // The burn block is kept with the record, so a restart after it reads nothing for this token.
    expect(await runtime.store.get(`h:amm-v3:${POOL}:${NPM}:positions:0`)).toBe("1:-60:60:16");
  });
});

describe("amm-v3 in-range status", () => {
  /** Positions 1 [-60, 60) of ALICE, 2 [60, 120) of BOB, 3 [-120, -60) of CAROL, minted at tick 0. */
  async function threePositions(): Promise<Adapter> {
    const { adapter } = await start({ ...LP, trackSwaps: false });
    const logs: ChainLog[] = [initializeLog(0, { block: 10, tx: 1 })];
    const ranges: [string, number, number][] = [
      [ALICE, -60, 60],
      [BOB, 60, 120],
      [CAROL, -120, -60],
    ];
    ranges.forEach(([owner, lo, hi], i) => {
      const t = { block: 11 + i, tx: 2 + i };
      logs.push(mintLog(NPM, lo, hi, 100n, { ...t, index: 0 }), nftTransferLog(NULL, owner, BigInt(i + 1), { ...t, index: 1 }));
      logs.push(liquidityLog("Increase", BigInt(i + 1), 100n, { ...t, index: 2 }));
    });
    const minted = await feed(adapter, logs);
    expect(minted.filter((e) => e.length === 2)).toEqual([
      [status(ALICE, 1n, true), balance(ALICE, 1n, "100")],
      [status(BOB, 2n, false), balance(BOB, 2n, "100")],
      [status(CAROL, 3n, false), balance(CAROL, 3n, "100")],
    ]);
    return adapter;
  }

  it("changes status exactly when the tick crosses a boundary (tickLower <= tick < tickUpper), up and down, landing on boundaries", async () => {
    const adapter = await threePositions();
    const ticks = [59, 60, 61, 59, -60, -61, -60, 100, 100, 120, 119];
    const events = await feed(
      adapter,
      ticks.map((t, i) => swapLog(1n, -1n, t, { block: 20 + i, tx: 20 + i })),
    );
    expect(events).toEqual([
      [], // 59: still inside [-60, 60)
      [status(ALICE, 1n, false), status(BOB, 2n, true)], // exactly 60: 1's upper bound is out, 2's lower bound is in
      [],
      [status(ALICE, 1n, true), status(BOB, 2n, false)], // back to 59
      [], // exactly -60: 1's lower bound is in, 3's upper bound is out
      [status(ALICE, 1n, false), status(CAROL, 3n, true)], // -61
      [status(ALICE, 1n, true), status(CAROL, 3n, false)], // -60 again
      [status(ALICE, 1n, false), status(BOB, 2n, true)], // one swap across 60 to 100
      [], // the same tick
      [status(BOB, 2n, false)], // exactly 120: out of [60, 120)
      [status(BOB, 2n, true)], // 119
    ]);
  });

  it("a swap that jumps over a whole range changes nothing for it, and a status follows the owner after a transfer", async () => {
    const adapter = await threePositions();
    const events = await feed(adapter, [
      swapLog(1n, -1n, -200, { block: 30, tx: 30 }), // 1 leaves, 3 is jumped over
      nftTransferLog(ALICE, DAVE, 1n, { block: 31, tx: 31 }),
      swapLog(-1n, 1n, 200, { block: 32, tx: 32 }), // all three jumped over: 1 stays inactive
      swapLog(1n, -1n, 0, { block: 33, tx: 33 }),
    ]);
    expect(events).toEqual([
      [status(ALICE, 1n, false)],
      [balance(ALICE, 1n, "-100"), status(DAVE, 1n, false), balance(DAVE, 1n, "100")],
      [],
      [status(DAVE, 1n, true)],
    ]);
  });
});

describe("amm-v3 restore at a restart", () => {
  it("reads slot0, positions() and ownerOf() at the block before the first log and continues from them", async () => {
    const first = await start(LP);
    await feed(first.adapter, [
      initializeLog(0, { block: 10, tx: 1 }),
      ...[1n, 2n, 3n].flatMap((id, i) => [
        mintLog(NPM, -60 * (i + 1), 60 * (i + 1), 100n, { block: 11 + i, tx: 2 + i, index: 0 }),
        nftTransferLog(NULL, ALICE, id, { block: 11 + i, tx: 2 + i, index: 1 }),
        liquidityLog("Increase", id, 100n, { block: 11 + i, tx: 2 + i, index: 2 }),
      ]),
      nftTransferLog(ALICE, NULL, 3n, { block: 20, tx: 9 }),
    ]);
    // A second process on the same store: the chain at block 49 says tick 70, token 1 is DAVE's with 1234, token 2
    // does not exist any more there (burned after the store was written), token 3 burned at 20 is not read at all.
    const chain = first.chain;
    chain.set(POOL, call.slot0, slot0Answer(70), 49);
    chain.set(NPM, call.positions(1n), positionsAnswer(-60, 60, 1234n), 49);
    chain.set(NPM, call.ownerOf(1n), `0x${DAVE.slice(2).padStart(64, "0")}`, 49);
    const adapter = await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(LP), first.runtime);
    await adapter.init?.();
    chain.calls.length = 0;
    const events = await feed(adapter, [liquidityLog("Decrease", 1n, 34n, { block: 50, tx: 50 }), swapLog(1n, -1n, 0, { block: 51, tx: 51 })]);
    expect(events).toEqual([[balance(DAVE, 1n, "-34")], [status(DAVE, 1n, true)]]);
    expect(chain.calls.sort()).toEqual(
      [
        `${POOL}|${call.slot0}|49`,
        `${NPM}|${call.positions(1n)}|49`,
        `${NPM}|${call.ownerOf(1n)}|49`,
        `${NPM}|${call.positions(2n)}|49`,
        `${NPM}|${call.ownerOf(2n)}|49`,
      ].sort(),
    );
    // Token 2 is unknown to the book now: its logs produce nothing.
    expect(await feed(adapter, [liquidityLog("Decrease", 2n, 1n, { block: 52, tx: 52 })])).toEqual([[]]);
  });

  it("fails with adapter-failed when a stored position record is unreadable", async () => {
    const { adapter, runtime } = await start(LP);
    const prefix = `h:amm-v3:${POOL}:${NPM}:positions`;
    await runtime.store.set(`${prefix}:n`, "2");
    await runtime.store.set(`${prefix}:0`, "1:-60:60");
    await runtime.store.set(`${prefix}:1`, "not-a-record");
    await expect(feed(adapter, [swapLog(1n, -1n, 0, { block: 5, tx: 5 })])).rejects.toMatchObject({
      code: "adapter-failed",
      message: `amm-v3: stored position record ${prefix}:1 is unreadable (not-a-record)`,
    });
  });

  it("refuses to handle a log before init with adapter-failed", async () => {
    const { runtime } = await start({ poolAddress: POOL, trackSwaps: true });
    const adapter = await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(LP), runtime);
    await expect(feed(adapter, [swapLog(1n, -1n, 0, { block: 5, tx: 5 })])).rejects.toMatchObject({
      code: "adapter-failed",
      message: "amm-v3: pool facts were not loaded before the first log",
    });
  });
});
