// amm-v2: the published Swap topic, what a swap-only pool reads (not before init), a swap without a sender, the parameters' messages.
import type { AdapterRuntime, ChainLog } from "@pointwise/indexer-engine";
import { AbiCoder, zeroPadValue } from "ethers";
import { SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
import { swapEvents } from "./adapter";
import { ammV2Adapter } from "./index";

const POOL = "0x00000000000000000000000000000000000000a0";
const T0 = "0x00000000000000000000000000000000000000f0";
const T1 = "0x00000000000000000000000000000000000000f1";
const TX = `0x${"5a".repeat(32)}`;
const coder = AbiCoder.defaultAbiCoder();
const tokens = { token0: T0, token1: T1, decimals0: 6, decimals1: 18 };
const swapLog: ChainLog = {
  address: POOL,
  topics: [SWAP_TOPIC, zeroPadValue(T0, 32), zeroPadValue(T0, 32)],
  data: coder.encode(["uint256", "uint256", "uint256", "uint256"], [1n, 0n, 0n, 1n]),
  blockNumber: 5,
  transactionHash: TX,
  logIndex: 3,
};
const transferLog: ChainLog = { ...swapLog, topics: [TRANSFER_TOPIC, zeroPadValue(T0, 32), zeroPadValue(T1, 32)], data: coder.encode(["uint256"], [1n]) };

describe("amm-v2 tracking", () => {
  it("listens for the UniswapV2 Swap topic 0xd78ad95f...d822", () => {
    expect(SWAP_TOPIC).toBe("0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822");
  });

  it("describes itself in the registry as a constant-product pool", () => {
    expect(ammV2Adapter.description).toMatch(/^Constant-product AMM pool/);
  });

  it("reads only Swap logs, with their transaction, for a swap-only pool, and ignores its LP Transfers", async () => {
    const cache = new Map([
      [`h:amm-v2:${POOL}:token0`, T0],
      [`h:amm-v2:${POOL}:token1`, T1],
      [`h:amm-v2:${POOL}:decimals0`, "6"],
      [`h:amm-v2:${POOL}:decimals1`, "18"],
    ]);
    const runtime: AdapterRuntime = {
      chainId: 1,
      chain: { call: async () => Promise.reject(new Error("no chain in this test")) },
      store: { get: async (key) => cache.get(key), set: async () => {} },
      labels: { get: async () => ({}), set: async () => {} },
      adapterConfigHash: "h",
      logger: { info: () => {} } as never,
    };
    const adapter = await ammV2Adapter.create({ poolAddress: POOL, trackSwaps: true }, runtime);
    let early: unknown;
    try {
      adapter.handle(swapLog, { ts: 0, height: 5, txHash: TX, logIndex: 3, transaction: { from: T1 } });
    } catch (err) {
      early = err;
    }
    expect(early).toMatchObject({ code: "adapter-failed", message: "amm-v2: pool tokens were not loaded before the first swap" });
    expect(adapter.filters).toEqual([{ address: POOL, topics: [SWAP_TOPIC], withTransaction: true }]);
    await adapter.init?.();
    expect(await adapter.handle(transferLog, { ts: 0, height: 5, txHash: TX, logIndex: 3 })).toEqual([]);
    expect((await adapter.handle(swapLog, { ts: 0, height: 5, txHash: TX, logIndex: 3, transaction: { from: T1 } })).length).toBe(2);
  });

  it("fails with adapter-failed naming the log when the swap's transaction has an empty sender", () => {
    const caught = (() => {
      try {
        swapEvents(tokens, swapLog, { ts: 0, height: 5, txHash: TX, logIndex: 3, transaction: { from: "" } });
      } catch (err) {
        return err;
      }
    })();
    expect(caught).toMatchObject({ code: "adapter-failed", message: "amm-v2: transaction.from not found", details: { txHash: TX, logIndex: 3 } });
  });

  it("accepts trackSwaps alone, and names a tracking flag that is not a boolean", () => {
    expect(ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL, trackSwaps: true }).success).toBe(true);
    for (const flag of ["trackSwaps", "trackLP"]) {
      const issues = ammV2Adapter.paramsSchema.safeParse({ poolAddress: POOL, trackSwaps: true, trackLP: true, [flag]: "yes" }).error?.issues;
      expect(issues?.map((i) => [i.path.join("."), i.message])).toEqual([[flag, "must be a boolean"]]);
    }
  });
});
