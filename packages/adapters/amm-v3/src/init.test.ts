// The adapter's start: the pool's facts read once and cached, the position manager checked against the pool's factory, labels written.
import { AbiCoder } from "ethers";
import { adapterHarness, call, FACTORY, NPM, POOL, T0, T1, TableChain, testRuntime } from "../test/support";
import { ammV3Adapter } from "./index";

const SWAPS = { poolAddress: POOL, trackSwaps: true };
const LP = { poolAddress: POOL, positionManagerAddress: NPM, trackLP: true };
const start = adapterHarness();
const word = (a: string) => AbiCoder.defaultAbiCoder().encode(["address"], [a]);

/** The error the adapter's init fails with on this chain (undefined when it succeeds). */
async function initError(chain: TableChain, params: Record<string, unknown>): Promise<unknown> {
  const env = await testRuntime(chain);
  try {
    const adapter = await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(params), env.runtime);
    return await adapter.init?.().then(
      () => undefined,
      (err: unknown) => err,
    );
  } finally {
    await env.close();
  }
}

describe("amm-v3 init", () => {
  it("labels the pool with its tokens and fee, and each token with its decimals", async () => {
    const { runtime } = await start(SWAPS);
    expect(await runtime.labels.get(POOL)).toEqual({ protocol: "amm-v3", role: "pool", token0: T0, token1: T1, fee: "3000" });
    expect([await runtime.labels.get(T0), await runtime.labels.get(T1)]).toEqual([{ decimals: "6" }, { decimals: "18" }]);
  });

  it("reads the pool's facts from the chain once, stores each under <config hash>:amm-v3:<pool>:<fact>, and logs them", async () => {
    const { runtime, chain, logs } = await start(SWAPS);
    const keys = ["token0", "token1", "decimals0", "decimals1", "fee", "factory"].map((k) => `h:amm-v3:${POOL}:${k}`);
    expect(await Promise.all(keys.map((k) => runtime.store.get(k)))).toEqual([T0, T1, "6", "18", "3000", FACTORY]);
    expect(logs.filter((l) => l.msg === "amm-v3 pool facts fetched")).toEqual([
      { level: "info", obj: { pool: POOL, token0: T0, token1: T1, fee: 3000 }, msg: "amm-v3 pool facts fetched" },
    ]);
    // A second start on the same store reads none of them again.
    chain.calls.length = 0;
    const again = await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(SWAPS), runtime);
    await again.init?.();
    expect(chain.calls).toEqual([]);
    expect(await runtime.labels.get(POOL)).toMatchObject({ token0: T0, token1: T1, fee: "3000" });
  });

  it("reads the facts from the chain again when any one of them is missing from the store", async () => {
    const env = await testRuntime();
    try {
      // A start that stopped before writing the last fact.
      for (const [k, v] of [
        ["token0", T0],
        ["token1", T1],
        ["decimals0", "6"],
        ["decimals1", "18"],
        ["fee", "3000"],
      ])
        await env.runtime.store.set(`h:amm-v3:${POOL}:${k}`, v as string);
      await (await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(SWAPS), env.runtime)).init?.();
      expect(env.chain.calls).toContain(`${POOL}|${call.factory}|latest`);
      expect(await env.runtime.store.get(`h:amm-v3:${POOL}:factory`)).toBe(FACTORY);
    } finally {
      await env.close();
    }
  });

  it("fails with adapter-init-failed naming the pool when one of its facts cannot be read", async () => {
    const chain = new TableChain();
    chain.answers.delete(`${POOL}|${call.fee}`);
    expect(await initError(chain, SWAPS)).toMatchObject({
      code: "adapter-init-failed",
      message: `amm-v3: could not read token0/token1/fee of pool ${POOL}`,
      details: { pool: POOL },
      cause: new Error("execution reverted"),
    });
  });

  it("fails with adapter-init-failed naming the token and the pool when a token answers decimals() above 77", async () => {
    const chain = new TableChain();
    chain.set(T1, call.decimals, AbiCoder.defaultAbiCoder().encode(["uint256"], [2n ** 64n]));
    expect(await initError(chain, SWAPS)).toMatchObject({
      code: "adapter-init-failed",
      message: `amm-v3: token ${T1} of pool ${POOL} answered decimals() with 18446744073709551616, which no ERC-20 uses`,
      details: { pool: POOL, token: T1 },
    });
  });

  it("fails with adapter-init-failed when the position manager belongs to another factory than the pool's", async () => {
    const other = "0x00000000000000000000000000000000000000fb";
    const chain = new TableChain();
    chain.set(NPM, call.factory, word(other));
    expect(await initError(chain, LP)).toMatchObject({
      code: "adapter-init-failed",
      message: `amm-v3: positionManagerAddress ${NPM} belongs to factory ${other}, but pool ${POOL} was created by factory ${FACTORY}`,
      details: { manager: NPM, pool: POOL, managerFactory: other, poolFactory: FACTORY },
    });
  });

  it("fails with adapter-init-failed naming the position manager when its factory() cannot be read", async () => {
    const chain = new TableChain();
    chain.answers.delete(`${NPM}|${call.factory}`);
    expect(await initError(chain, LP)).toMatchObject({
      code: "adapter-init-failed",
      message: `amm-v3: could not read factory() of position manager ${NPM}`,
      details: { manager: NPM },
      cause: new Error("execution reverted"),
    });
  });
});
