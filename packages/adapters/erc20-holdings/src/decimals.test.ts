// erc20-holdings decimals: the largest accepted answer, the cache read before the chain, and a transfer before init.
import type { AdapterRuntime } from "@pointwise/indexer-engine";
import { TRANSFER_TOPIC } from "@pointwise/indexer-engine";
import { AbiCoder, zeroPadValue } from "ethers";
import { erc20HoldingsAdapter, loadDecimals } from "./index";

const TOKEN = "0x00000000000000000000000000000000000000c0";
const coder = AbiCoder.defaultAbiCoder();
const word = (n: bigint) => coder.encode(["uint256"], [n]);

/** A runtime over in-memory stores whose chain answers every call with `answer`; records calls and log lines. */
function runtime(answer: string, cached: Record<string, string> = {}) {
  const kv = new Map(Object.entries(cached));
  const calls: string[] = [];
  const logged: unknown[] = [];
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to) => {
        calls.push(to);
        return answer;
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async () => ({}), set: async () => {} },
    adapterConfigHash: "cfg",
    logger: { info: (...args: unknown[]) => void logged.push(args) } as never,
  };
  return { rt, kv, calls, logged };
}

describe("erc20-holdings decimals", () => {
  it("describes itself in the registry as ERC-20 token holdings", () => {
    expect(erc20HoldingsAdapter.description).toMatch(/^ERC-20 token holdings/);
  });

  it("accepts 77 decimals (10^77 is the largest power of ten below 2^256) and refuses 78 without caching it", async () => {
    const { rt, kv, logged } = runtime(word(77n));
    expect(await loadDecimals(TOKEN, rt)).toBe(77);
    expect(kv.get(`cfg:erc20-holdings:${TOKEN}:decimals`)).toBe("77");
    expect(logged).toEqual([[{ token: TOKEN, decimals: 77 }, "erc20-holdings token decimals fetched"]]);
    const over = runtime(word(78n));
    const err = await loadDecimals(TOKEN, over.rt).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "adapter-init-failed",
      message: `erc20-holdings: token ${TOKEN} answered decimals() with 78, which no ERC-20 uses`,
      details: { token: TOKEN },
    });
    expect(over.kv.size).toBe(0);
  });

  it("answers from the store without a chain call when the decimals are cached, zero included", async () => {
    const { rt, calls } = runtime(word(6n), { [`cfg:erc20-holdings:${TOKEN}:decimals`]: "0" });
    expect(await loadDecimals(TOKEN, rt)).toBe(0);
    expect(calls).toEqual([]);
  });

  it("names the failed read as the cause of adapter-init-failed", async () => {
    const { rt } = runtime("0x1234");
    const err = await loadDecimals(TOKEN, rt).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "adapter-init-failed", details: { token: TOKEN } });
    expect((err as { cause?: unknown }).cause).toBeInstanceOf(Error);
  });

  it("refuses a Transfer handled before init read the decimals", async () => {
    const { rt } = runtime(word(6n));
    const adapter = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, rt);
    const log = {
      address: TOKEN,
      topics: [TRANSFER_TOPIC, zeroPadValue(TOKEN, 32), zeroPadValue(TOKEN, 32)],
      data: word(1n),
      blockNumber: 1,
      transactionHash: `0x${"ab".repeat(32)}`,
      logIndex: 0,
    };
    let caught: unknown;
    try {
      adapter.handle(log, { ts: 0, height: 1, txHash: log.transactionHash, logIndex: 0 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: "adapter-failed", message: "erc20-holdings: token decimals were not loaded before the first transfer" });
  });
});
