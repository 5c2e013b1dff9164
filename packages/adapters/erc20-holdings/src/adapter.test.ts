// The erc20-holdings adapter: Transfer logs as balance deltas, decimals() read once, ERC-721 refused.
import type { AdapterRuntime, ChainLog } from "@pointwise/indexer-engine";
import { DECIMALS_CALL, TRANSFER_TOPIC } from "@pointwise/indexer-engine";
import { AbiCoder, id, zeroPadValue } from "ethers";
import { erc20HoldingsAdapter } from "./index";

const TOKEN = "0x00000000000000000000000000000000000000c0";
const OTHER = "0x00000000000000000000000000000000000000c1";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";
const NULL = "0x0000000000000000000000000000000000000000";
const TX = "0x5a1d8f0e62b1f6c03b8f4a3f1a3f9d0d6b8e2c4a7e1f0b9c8d7e6f5a4b3c2d1e";
const coder = AbiCoder.defaultAbiCoder();
const topic = (address: string) => zeroPadValue(address, 32);
const ctx = { ts: 1_700_000_000_000, height: 5, txHash: TX, logIndex: 7 };

function transferLog(from: string, to: string, value: bigint, address = TOKEN): ChainLog {
  return {
    address,
    topics: [TRANSFER_TOPIC, topic(from), topic(to)],
    data: coder.encode(["uint256"], [value]),
    blockNumber: 5,
    transactionHash: TX,
    logIndex: 7,
  };
}

/** A runtime over in-memory stores whose chain answers decimals() of TOKEN with `answer` and counts the calls. */
function runtime(answer: () => string) {
  const kv = new Map<string, string>();
  const labels = new Map<string, Record<string, string>>();
  const calls: string[] = [];
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to, data) => {
        calls.push(`${to}:${data}`);
        return answer();
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async (a) => labels.get(a) ?? {}, set: async (a, l) => void labels.set(a, { ...labels.get(a), ...l }) },
    adapterConfigHash: "h",
    logger: { info: () => {} } as never,
  };
  return { rt, kv, labels, calls };
}
const word = (n: bigint) => coder.encode(["uint256"], [n]);

describe("erc20-holdings adapter", () => {
  it("is registered as erc20-holdings version 0.0.1 and requires a token address", () => {
    expect([erc20HoldingsAdapter.id, erc20HoldingsAdapter.version]).toEqual(["erc20-holdings", "0.0.1"]);
    expect(erc20HoldingsAdapter.paramsSchema.safeParse({}).error?.issues[0]).toMatchObject({ path: ["tokenAddress"], message: "is required" });
    expect(erc20HoldingsAdapter.paramsSchema.safeParse({ tokenAddress: "0x12" }).error?.issues[0]?.message).toBe("must be a 0x-prefixed 20-byte hex address");
    expect(erc20HoldingsAdapter.paramsSchema.safeParse({ tokenAddress: TOKEN, activity: "swap" }).error?.issues[0]?.message).toBe(
      "must be one of hold, stake, lend",
    );
    expect(erc20HoldingsAdapter.paramsSchema.safeParse({ tokenAddress: TOKEN, extra: 1 }).success).toBe(false);
    expect(erc20HoldingsAdapter.paramsSchema.parse({ tokenAddress: TOKEN.toUpperCase().replace("0X", "0x") })).toEqual({
      tokenAddress: TOKEN,
      activity: "hold",
    });
  });

  it("reads only the token's Transfer logs and turns each into a negated delta for the sender and a positive one for the recipient", async () => {
    const { rt } = runtime(() => word(6n));
    const adapter = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, rt);
    expect(adapter.filters).toEqual([{ address: TOKEN, topics: [TRANSFER_TOPIC], withTransaction: false }]);
    expect(adapter.contracts).toEqual([TOKEN]);
    await adapter.init?.();
    expect(await adapter.handle(transferLog(ALICE, BOB, 2_500_001n), ctx)).toEqual([
      { type: "balanceDelta", user: ALICE, asset: TOKEN, amount: "-2.500001", activity: "hold" },
      { type: "balanceDelta", user: BOB, asset: TOKEN, amount: "2.500001", activity: "hold" },
    ]);
    // A mint comes from the null address: emitted as it is, the engine ignores the null address.
    expect((await adapter.handle(transferLog(NULL, BOB, 10n ** 6n), ctx)).map((e) => e.type === "balanceDelta" && [e.user, e.amount])).toEqual([
      [NULL, "-1"],
      [BOB, "1"],
    ]);
    // Another contract's Transfer, and the token's other events, are nothing.
    expect(await adapter.handle(transferLog(ALICE, BOB, 1n, OTHER), ctx)).toEqual([]);
    expect(await adapter.handle({ ...transferLog(ALICE, BOB, 1n), topics: [id("Approval(address,address,uint256)"), topic(ALICE), topic(BOB)] }, ctx)).toEqual(
      [],
    );
  });

  it("tags the deltas with the configured activity", async () => {
    const { rt } = runtime(() => word(18n));
    const adapter = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "stake" }, rt);
    await adapter.init?.();
    expect((await adapter.handle(transferLog(ALICE, BOB, 10n ** 18n), ctx)).map((e) => e.type === "balanceDelta" && e.activity)).toEqual(["stake", "stake"]);
  });

  it("reads decimals() once, caches it under the adapter-config hash and labels the token with it", async () => {
    const { rt, kv, labels, calls } = runtime(() => word(8n));
    const first = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, rt);
    await first.init?.();
    const again = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, rt);
    await again.init?.();
    expect(calls).toEqual([`${TOKEN}:${DECIMALS_CALL}`]);
    expect(kv.get(`h:erc20-holdings:${TOKEN}:decimals`)).toBe("8");
    expect(labels.get(TOKEN)).toEqual({ decimals: "8" });
    expect((await again.handle(transferLog(ALICE, BOB, 123n), ctx))[1]).toMatchObject({ amount: "0.00000123" });
  });

  it("fails at init when decimals() cannot be read or is absurd, naming the token", async () => {
    const failing = runtime(() => {
      throw new Error("execution reverted");
    });
    const adapter = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, failing.rt);
    await expect(adapter.init?.()).rejects.toThrow(`erc20-holdings: could not read decimals() of token ${TOKEN}`);
    const absurd = runtime(() => word(1000n));
    const other = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, absurd.rt);
    await expect(other.init?.()).rejects.toThrow(`erc20-holdings: token ${TOKEN} answered decimals() with 1000, which no ERC-20 uses`);
    expect(absurd.kv.size).toBe(0);
  });

  it("refuses a Transfer with a fourth topic (an ERC-721 token id) instead of inventing a balance", async () => {
    const { rt } = runtime(() => word(0n));
    const adapter = await erc20HoldingsAdapter.create({ tokenAddress: TOKEN, activity: "hold" }, rt);
    await adapter.init?.();
    const nft = { ...transferLog(ALICE, BOB, 0n), topics: [TRANSFER_TOPIC, topic(ALICE), topic(BOB), word(42n)], data: "0x" };
    expect(() => adapter.handle(nft, ctx)).toThrow(`a Transfer of ${TOKEN} has 4 topics, an ERC-20 Transfer has 3 (is it an ERC-721?)`);
  });
});
