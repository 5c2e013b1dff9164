// A pool's token0/token1 and decimals: read once from the chain, cached under the config hash, labelled at init.
import type { AdapterRuntime, ChainLog } from "@pointwise/indexer-engine";
import { AbiCoder, id, zeroPadValue } from "ethers";
import { SWAP_TOPIC } from "./abi";
import { ammV2Adapter } from "./index";
import { loadPoolTokens, poolKeyPrefix } from "./tokens";

const POOL = "0x00000000000000000000000000000000000000A0";
const pool = POOL.toLowerCase();
const T0 = "0x00000000000000000000000000000000000000f0";
const T1 = "0x00000000000000000000000000000000000000f1";
const coder = AbiCoder.defaultAbiCoder();
// Selectors written out: keccak256("token0()") starts 0dfe1681, "token1()" d21220a7, "decimals()" 313ce567.
const TOKEN0 = "0x0dfe1681";
const TOKEN1 = "0xd21220a7";
const DECIMALS = "0x313ce567";

/** A runtime over in-memory stores whose chain answers the pool's and tokens' calls from `answers` (`to:data`). */
function runtime(answers: Record<string, string>, cached: Record<string, string> = {}) {
  const kv = new Map(Object.entries(cached));
  const labels = new Map<string, Record<string, string>>();
  const calls: string[] = [];
  const logged: unknown[] = [];
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to, data) => {
        calls.push(`${to.toLowerCase()}:${data}`);
        const answer = answers[`${to.toLowerCase()}:${data}`];
        if (answer === undefined) throw new Error("execution reverted");
        return answer;
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async (a) => labels.get(a) ?? {}, set: async (a, l) => void labels.set(a, { ...labels.get(a), ...l }) },
    adapterConfigHash: "h",
    logger: { info: (...args: unknown[]) => void logged.push(args) } as never,
  };
  return { rt, kv, labels, calls, logged };
}

const chainAnswers = {
  [`${pool}:${TOKEN0}`]: coder.encode(["address"], ["0x00000000000000000000000000000000000000F0"]),
  [`${pool}:${TOKEN1}`]: coder.encode(["address"], [T1]),
  [`${T0}:${DECIMALS}`]: coder.encode(["uint8"], [6]),
  [`${T1}:${DECIMALS}`]: coder.encode(["uint8"], [18]),
};

describe("amm-v2 pool tokens", () => {
  it("keys a pool's facts by the adapter-config hash, the protocol and the lowercased pool address", () => {
    expect(poolKeyPrefix("cfg", POOL)).toBe(`cfg:amm-v2:${pool}`);
  });

  it("reads token0, token1 and both decimals from the chain once, lowercased, and caches them as text", async () => {
    const { rt, kv, calls, logged } = runtime(chainAnswers);
    const expected = { token0: T0, token1: T1, decimals0: 6, decimals1: 18 };
    expect(await loadPoolTokens(POOL, rt)).toEqual(expected);
    expect(calls).toEqual([`${pool}:${TOKEN0}`, `${pool}:${TOKEN1}`, `${T0}:${DECIMALS}`, `${T1}:${DECIMALS}`]);
    expect(Object.fromEntries(kv)).toEqual({
      [`h:amm-v2:${pool}:token0`]: T0,
      [`h:amm-v2:${pool}:token1`]: T1,
      [`h:amm-v2:${pool}:decimals0`]: "6",
      [`h:amm-v2:${pool}:decimals1`]: "18",
    });
    expect(logged).toEqual([[{ pool: POOL, token0: T0, token1: T1 }, "amm-v2 pool tokens fetched"]]);
    // The second read is answered from the store.
    expect(await loadPoolTokens(POOL, rt)).toEqual(expected);
    expect(calls.length).toBe(4);
  });

  it("reads the chain again when any one of the four facts is missing from the store", async () => {
    const full = {
      [`h:amm-v2:${pool}:token0`]: T0,
      [`h:amm-v2:${pool}:token1`]: T1,
      [`h:amm-v2:${pool}:decimals0`]: "6",
      [`h:amm-v2:${pool}:decimals1`]: "18",
    };
    for (const missing of Object.keys(full)) {
      const { [missing]: _, ...partial } = full;
      const { rt, calls } = runtime(chainAnswers, partial);
      expect(await loadPoolTokens(POOL, rt)).toEqual({ token0: T0, token1: T1, decimals0: 6, decimals1: 18 });
      expect(calls.length).toBe(4);
    }
  });

  it("fails with adapter-init-failed naming the pool (and the token, for its decimals) when any read fails, and caches nothing", async () => {
    for (const failing of Object.keys(chainAnswers)) {
      const { [failing]: _, ...rest } = chainAnswers;
      const { rt, kv } = runtime(rest);
      const err = await loadPoolTokens(POOL, rt).catch((e: unknown) => e);
      const token = [T0, T1].find((t) => failing === `${t}:${DECIMALS}`);
      expect(err).toMatchObject(
        token === undefined
          ? { code: "adapter-init-failed", message: `amm-v2: could not read token0/token1 of pool ${POOL}`, details: { pool: POOL } }
          : { code: "adapter-init-failed", message: `amm-v2: could not read decimals() of token ${token} of pool ${POOL}`, details: { pool: POOL, token } },
      );
      expect((err as { cause: Error }).cause.message).toBe("execution reverted");
      expect(kv.size).toBe(0);
    }
  });

  it("fails with adapter-init-failed when a token answers decimals() above 77, and caches nothing", async () => {
    // 2^64 decimals is no ERC-20's: scaling a swap by it used to throw a bare RangeError at the first swap.
    // 2^64 is printed exactly, not as the JS number 18446744073709552000.
    for (const [token, answer, printed] of [
      [T0, 78n, "78"],
      [T1, 2n ** 64n, "18446744073709551616"],
    ] as const) {
      const { rt, kv } = runtime({ ...chainAnswers, [`${token}:${DECIMALS}`]: coder.encode(["uint256"], [answer]) });
      const err = await loadPoolTokens(POOL, rt).catch((e: unknown) => e);
      expect(err).toMatchObject({
        code: "adapter-init-failed",
        message: `amm-v2: token ${token} of pool ${POOL} answered decimals() with ${printed}, which no ERC-20 uses`,
        details: { pool: POOL, token },
      });
      expect(kv.size).toBe(0);
    }
  });

  it("labels the pool as an 18-decimal amm-v2 LP with its tokens, and each token with its decimals, at init", async () => {
    const { rt, labels } = runtime(chainAnswers);
    const adapter = await ammV2Adapter.create({ poolAddress: pool, trackSwaps: true }, rt);
    await adapter.init?.();
    expect(labels.get(pool)).toEqual({ protocol: "amm-v2", role: "lp", decimals: "18", token0: T0, token1: T1 });
    expect(labels.get(T0)).toEqual({ decimals: "6" });
    expect(labels.get(T1)).toEqual({ decimals: "18" });
  });

  it("reads no tokens for an LP-only pool, and labels it as an LP", async () => {
    const { rt, labels, calls } = runtime({});
    const adapter = await ammV2Adapter.create({ poolAddress: pool, trackLP: true }, rt);
    await adapter.init?.();
    expect(calls).toEqual([]);
    expect(labels.get(pool)).toEqual({ protocol: "amm-v2", role: "lp", decimals: "18" });
  });

  it("refuses a swap handled before init loaded the pool's tokens", async () => {
    const { rt } = runtime(chainAnswers);
    const adapter = await ammV2Adapter.create({ poolAddress: pool, trackSwaps: true }, rt);
    const swap: ChainLog = {
      address: pool,
      topics: [SWAP_TOPIC, zeroPadValue(T0, 32), zeroPadValue(T0, 32)],
      data: coder.encode(["uint256", "uint256", "uint256", "uint256"], [1n, 0n, 0n, 1n]),
      blockNumber: 1,
      transactionHash: id("tx"),
      logIndex: 0,
    };
    expect(() => adapter.handle(swap, { ts: 0, height: 1, txHash: id("tx"), logIndex: 0, transaction: { from: T0 } })).toThrow(
      "amm-v2: pool tokens were not loaded before the first swap",
    );
  });
});
