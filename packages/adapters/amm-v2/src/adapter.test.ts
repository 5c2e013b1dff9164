// The amm-v2 adapter: LP transfers as balance deltas, swaps as priceable legs, and exact Swap log decoding.
import { createHash } from "node:crypto";
import type { ChainLog } from "@pointwise/indexer-engine";
import { AbiCoder, id, zeroPadValue } from "ethers";
import { SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
import { lpTransferEvents, swapEvents } from "./adapter";
import { ammV2Adapter } from "./index";
import { NOTHING_TRACKED } from "./params";

const POOL = "0x00000000000000000000000000000000000000a0";
const T0 = "0x00000000000000000000000000000000000000f0";
const T1 = "0x00000000000000000000000000000000000000f1";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";
const NULL = "0x0000000000000000000000000000000000000000";
const TX = "0x5a1d8f0e62b1f6c03b8f4a3f1a3f9d0d6b8e2c4a7e1f0b9c8d7e6f5a4b3c2d1e";
const tokens = { token0: T0, token1: T1, decimals0: 6, decimals1: 18 };
const coder = AbiCoder.defaultAbiCoder();
const topic = (address: string) => zeroPadValue(address, 32);
const ctx = { ts: 1_700_000_000_000, height: 5, txHash: TX, logIndex: 7, transaction: { from: ALICE } };

function transferLog(from: string, to: string, value: bigint): ChainLog {
  return {
    address: POOL,
    topics: [TRANSFER_TOPIC, topic(from), topic(to)],
    data: coder.encode(["uint256"], [value]),
    blockNumber: 5,
    transactionHash: TX,
    logIndex: 7,
  };
}
function swapLog(a0In: bigint, a1In: bigint, a0Out: bigint, a1Out: bigint): ChainLog {
  return {
    address: POOL,
    topics: [SWAP_TOPIC, topic(BOB), topic(BOB)],
    data: coder.encode(["uint256", "uint256", "uint256", "uint256"], [a0In, a1In, a0Out, a1Out]),
    blockNumber: 5,
    transactionHash: TX,
    logIndex: 7,
  };
}

describe("amm-v2 adapter", () => {
  it("is registered as amm-v2 version 0.0.1", () => {
    expect([ammV2Adapter.id, ammV2Adapter.version]).toEqual(["amm-v2", "0.0.1"]);
  });

  it("requires at least one of trackSwaps or trackLP", () => {
    const result = ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("At least one of trackSwaps or trackLP must be enabled");
    expect(NOTHING_TRACKED).toBe("At least one of trackSwaps or trackLP must be enabled");
    expect(ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL, trackSwaps: false, trackLP: false }).success).toBe(false);
    expect(ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL, trackLP: true }).success).toBe(true);
    expect(ammV2Adapter.paramsSchema.safeParse({ poolAddress: "0x12", trackLP: true }).error?.issues[0]?.message).toBe(
      "must be a 0x-prefixed 20-byte hex address",
    );
  });

  it("refuses params it does not know", () => {
    expect(ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL, trackLP: true, trackLp: true }).error?.issues[0]).toMatchObject({
      code: "unrecognized_keys",
      keys: ["trackLp"],
    });
  });

  it("turns an LP Transfer into a negated delta for the sender and a positive one for the recipient, in 18-decimal units", () => {
    expect(lpTransferEvents(POOL, transferLog(ALICE, BOB, 1_234_567_890_123_456_789n))).toEqual([
      { type: "balanceDelta", user: ALICE, asset: POOL, amount: "-1.234567890123456789", activity: "hold" },
      { type: "balanceDelta", user: BOB, asset: POOL, amount: "1.234567890123456789", activity: "hold" },
    ]);
    // A mint is a transfer from the null address: emitted as is, the engine ignores the null address.
    expect(lpTransferEvents(POOL, transferLog(NULL, BOB, 10n ** 18n)).map((e) => e.type === "balanceDelta" && [e.user, e.amount])).toEqual([
      [NULL, "-1"],
      [BOB, "1"],
    ]);
  });

  it("emits two priceable swap legs token0 -> token1 when amount0In > 0, sharing the MD5 key of txHash + logIndex", () => {
    const events = swapEvents(tokens, swapLog(2_500_000n, 0n, 0n, 10n ** 15n), ctx);
    const key = createHash("md5").update(`${TX}7`).digest("hex");
    const meta = { fromTkAddress: T0, toTkAddress: T1, fromTkAmount: "2.5", toTkAmount: "0.001" };
    expect(events).toEqual([
      { type: "action", key, activity: "swap", user: ALICE, priceable: true, amount: { asset: T0, amount: "2.5" }, meta },
      { type: "action", key, activity: "swap", user: ALICE, priceable: true, amount: { asset: T1, amount: "0.001" }, meta },
    ]);
  });

  it("swaps token1 -> token0 when amount0In is zero, using amount1In and amount0Out", () => {
    const events = swapEvents(tokens, swapLog(0n, 3n * 10n ** 18n, 7_000_000n, 0n), ctx);
    expect(events.map((e) => e.type === "action" && e.amount)).toEqual([
      { asset: T1, amount: "3" },
      { asset: T0, amount: "7" },
    ]);
  });

  it("skips swaps with a zero from-amount or to-amount", () => {
    expect(swapEvents(tokens, swapLog(1_000_000n, 0n, 0n, 0n), ctx)).toEqual([]);
    expect(swapEvents(tokens, swapLog(0n, 0n, 0n, 0n), ctx)).toEqual([]);
    expect(swapEvents(tokens, swapLog(0n, 0n, 5n, 0n), ctx)).toEqual([]);
  });

  it("fails when the transaction sender is not known", () => {
    const { transaction: _, ...withoutTx } = ctx;
    expect(() => swapEvents(tokens, swapLog(1n, 0n, 0n, 1n), withoutTx)).toThrow("amm-v2: transaction.from not found");
  });

  it("reads only Transfer and Swap logs of the pool, each only when tracked", async () => {
    const runtime = {
      chainId: 1,
      chain: { call: async () => "0x" },
      store: { get: async () => undefined, set: async () => {} },
      labels: { get: async () => ({}), set: async () => {} },
      adapterConfigHash: "h",
      logger: { info: () => {} } as never,
    };
    const lpOnly = await ammV2Adapter.create({ poolAddress: POOL, trackLP: true }, runtime);
    expect(lpOnly.filters).toEqual([{ address: POOL, topics: [TRANSFER_TOPIC], withTransaction: false }]);
    expect(lpOnly.contracts).toEqual([POOL]);
    expect(await lpOnly.handle(swapLog(1n, 0n, 0n, 1n), ctx)).toEqual([]);
    expect(await lpOnly.handle({ ...transferLog(ALICE, BOB, 1n), address: T0 }, ctx)).toEqual([]);
    expect((await lpOnly.handle(transferLog(ALICE, BOB, 1n), ctx)).length).toBe(2);
  });

  it("produces nothing for the pool's other events, nor for Transfer and Swap logs of another contract", async () => {
    // token0/token1 come from the state-store cache, so init reads nothing from a chain.
    const cache = new Map([
      [`h:amm-v2:${POOL}:token0`, T0],
      [`h:amm-v2:${POOL}:token1`, T1],
      [`h:amm-v2:${POOL}:decimals0`, "6"],
      [`h:amm-v2:${POOL}:decimals1`, "18"],
    ]);
    const runtime = {
      chainId: 1,
      chain: { call: async () => Promise.reject(new Error("no chain in this test")) },
      store: { get: async (key: string) => cache.get(key), set: async () => {} },
      labels: { get: async () => ({}), set: async () => {} },
      adapterConfigHash: "h",
      logger: { info: () => {} } as never,
    };
    const both = await ammV2Adapter.create({ poolAddress: POOL, trackSwaps: true, trackLP: true }, runtime);
    await both.init?.();
    expect(both.filters.map((f) => [f.address, f.topics])).toEqual([
      [POOL, [TRANSFER_TOPIC]],
      [POOL, [SWAP_TOPIC]],
    ]);
    const pool = (signature: string, topics: string[] = []): ChainLog => ({ ...transferLog(ALICE, BOB, 1n), topics: [id(signature), ...topics] });
    const others = [
      pool("Sync(uint112,uint112)"),
      pool("Mint(address,uint256,uint256)", [topic(ALICE)]),
      pool("Burn(address,uint256,uint256,address)", [topic(ALICE), topic(BOB)]),
      pool("Approval(address,address,uint256)", [topic(ALICE), topic(BOB)]),
      { ...transferLog(ALICE, BOB, 1n), address: T0 },
      { ...swapLog(1n, 0n, 0n, 1n), address: T1 },
    ];
    for (const log of others) expect(await both.handle(log, ctx)).toEqual([]);
    // The same Transfer and Swap logs from the pool itself do produce events.
    expect((await both.handle(transferLog(ALICE, BOB, 1n), ctx)).length).toBe(2);
    expect((await both.handle(swapLog(1n, 0n, 0n, 1n), ctx)).length).toBe(2);
  });
});

describe("amm-v2 log decoding", () => {
  it("decodes a Swap's four amounts exactly as the ABI encodes them and rejects malformed data", async () => {
    const { decodeSwapAmounts } = await import("./abi");
    const amounts = [2n ** 255n + 12345n, 0n, 1n, 10n ** 30n];
    expect(decodeSwapAmounts(coder.encode(["uint256", "uint256", "uint256", "uint256"], amounts))).toEqual({
      amount0In: amounts[0],
      amount1In: 0n,
      amount0Out: 1n,
      amount1Out: 10n ** 30n,
    });
    expect(() => decodeSwapAmounts("0x1234")).toThrow("expected a 32-byte word at index 0");
    expect(() => decodeSwapAmounts(coder.encode(["uint256", "uint256", "uint256"], [1n, 2n, 3n]))).toThrow("expected a 32-byte word at index 3");
  });
});
