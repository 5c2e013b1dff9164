// The vault adapter's facts and edges: the cache used only when whole, the errors' codes, details and causes, the
// decimals limit, the log it writes, move metadata per version, and logs handled before init.
import type { AdapterRuntime, ChainLog } from "@pointwise/indexer-engine";
import { DECIMALS_CALL } from "@pointwise/indexer-engine";
import { AbiCoder, id, zeroPadValue } from "ethers";
import { decodeMove, loadVaultFacts, moveEvents, vaultAdapter } from "./index";

const VAULT = "0x00000000000000000000000000000000000000f1";
const ASSET = "0x00000000000000000000000000000000000000e1";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";
const coder = AbiCoder.defaultAbiCoder();
const topic = (a: string) => zeroPadValue(a, 32);
const word = (n: bigint) => coder.encode(["uint256"], [n]);
const two = (a: bigint, b: bigint) => coder.encode(["uint256", "uint256"], [a, b]);
const SIG = {
  transfer: id("Transfer(address,address,uint256)"),
  deposit4626: id("Deposit(address,address,uint256,uint256)"),
  withdraw4626: id("Withdraw(address,address,address,uint256,uint256)"),
  depositV1: id("Deposit(address,uint256,uint256)"),
  withdrawV1: id("Withdraw(address,uint256,uint256)"),
};
const ASSET_CALL = id("asset()").slice(0, 10);

function runtime(answers: Record<string, string | Error>, stored: Record<string, string> = {}) {
  const kv = new Map(Object.entries(stored));
  const calls: string[] = [];
  const info: unknown[][] = [];
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to, data) => {
        calls.push(`${to}:${data}`);
        const answer = answers[`${to}:${data}`];
        if (answer === undefined || answer instanceof Error) throw answer ?? new Error("execution reverted");
        return answer;
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async () => ({}), set: async () => {} },
    adapterConfigHash: "h",
    logger: { info: (...args: unknown[]) => void info.push(args) } as never,
  };
  return { rt, calls, info };
}
const v2Answers = {
  [`${VAULT}:${ASSET_CALL}`]: coder.encode(["address"], [ASSET]),
  [`${VAULT}:${DECIMALS_CALL}`]: word(9n),
  [`${ASSET}:${DECIMALS_CALL}`]: word(6n),
};
const log = (topics: string[], data: string): ChainLog => ({ address: VAULT, topics, data, blockNumber: 5, transactionHash: "0xab", logIndex: 3 });

describe("vault facts", () => {
  it("uses the cache only when all three facts are stored, and logs what it read from the chain", async () => {
    const whole = { [`h:vault:${VAULT}:asset`]: ASSET, [`h:vault:${VAULT}:shareDecimals`]: "9", [`h:vault:${VAULT}:assetDecimals`]: "6" };
    const cached = runtime({}, whole);
    expect(await loadVaultFacts(VAULT, "v2", cached.rt)).toEqual({ asset: ASSET, shareDecimals: 9, assetDecimals: 6 });
    expect(cached.calls).toEqual([]);
    for (const missing of Object.keys(whole)) {
      const partial = runtime(v2Answers, Object.fromEntries(Object.entries(whole).filter(([k]) => k !== missing)));
      expect(await loadVaultFacts(VAULT, "v2", partial.rt)).toEqual({ asset: ASSET, shareDecimals: 9, assetDecimals: 6 });
      expect(partial.calls).toHaveLength(3);
      expect(partial.info).toEqual([[{ vault: VAULT, version: "v2", asset: ASSET }, "vault underlying asset fetched"]]);
    }
  });

  it("refuses with adapter-init-failed, the vault in details and the chain's error as cause", async () => {
    const reverted = new Error("execution reverted");
    const noAsset = runtime({ ...v2Answers, [`${VAULT}:${ASSET_CALL}`]: reverted });
    const err = await loadVaultFacts(VAULT, "v2", noAsset.rt).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "adapter-init-failed", details: { vault: VAULT }, cause: reverted });
    const noDecimals = runtime({ ...v2Answers, [`${ASSET}:${DECIMALS_CALL}`]: reverted });
    await expect(loadVaultFacts(VAULT, "v2", noDecimals.rt)).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `vault: could not read decimals() of ${ASSET}`,
      details: { vault: VAULT },
      cause: reverted,
    });
    const absurd = await loadVaultFacts(VAULT, "v2", runtime({ ...v2Answers, [`${ASSET}:${DECIMALS_CALL}`]: word(78n) }).rt).catch((e: unknown) => e);
    expect(absurd).toMatchObject({
      code: "adapter-init-failed",
      message: `vault: ${ASSET} answered decimals() with 78, which no ERC-20 uses`,
      details: { vault: VAULT },
    });
    expect((absurd as { cause?: unknown }).cause).toBeUndefined();
    await expect(loadVaultFacts(VAULT, "v2", runtime({ ...v2Answers, [`${ASSET}:${DECIMALS_CALL}`]: word(77n) }).rt)).resolves.toMatchObject({
      assetDecimals: 77,
    });
  });
});

describe("vault moves", () => {
  const facts = { asset: ASSET, shareDecimals: 9, assetDecimals: 6 };
  it("puts sender and receiver in an ERC-4626 move's meta, and neither in a v1 move's", () => {
    const [deposit] = moveEvents(
      { vaultAddress: VAULT, version: "v2" },
      facts,
      log([SIG.deposit4626, topic(ALICE), topic(BOB)], two(2_000_000n, 2_000_000_000n)),
    );
    expect(deposit).toMatchObject({ user: BOB, meta: { sender: ALICE, kind: "deposit", shares: "2", assets: "2" } });
    expect(deposit?.meta).not.toHaveProperty("receiver");
    const [withdraw] = moveEvents(
      { vaultAddress: VAULT, version: "v2" },
      facts,
      log([SIG.withdraw4626, topic(ALICE), topic(BOB), topic(ALICE)], two(1_000_000n, 1_000_000_000n)),
    );
    expect(withdraw).toMatchObject({ user: ALICE, activity: "custom", meta: { sender: ALICE, receiver: BOB, kind: "withdraw" } });
    const [v1] = moveEvents({ vaultAddress: VAULT, version: "v1" }, facts, log([SIG.withdrawV1, topic(BOB)], two(1_000_000_000n, 1_000_000n)));
    expect(Object.keys(v1?.meta ?? {}).sort()).toEqual(["assets", "kind", "shares", "vault", "version"]);
    expect(moveEvents({ vaultAddress: VAULT, version: "v2" }, facts, log([SIG.transfer, topic(ALICE), topic(BOB)], word(1n)))).toEqual([]);
  });

  it("decodes no move from another topic of either version, and fails on a missing owner topic", () => {
    expect(decodeMove("v2", [SIG.depositV1, topic(ALICE)], two(1n, 1n))).toBeUndefined();
    expect(decodeMove("v2", [SIG.transfer, topic(ALICE), topic(BOB), topic(ALICE)], two(1n, 1n))).toBeUndefined();
    expect(decodeMove("v1", [SIG.deposit4626, topic(ALICE), topic(BOB)], two(1n, 1n))).toBeUndefined();
    expect(decodeMove("v1", [SIG.transfer, topic(ALICE)], two(1n, 1n))).toBeUndefined();
    // The missing topic is decoded as the empty word, which the error shows as such.
    expect(() => decodeMove("v1", [SIG.withdrawV1], two(1n, 1n))).toThrow(
      expect.objectContaining({ code: "abi-decode-failed", message: "expected a 32-byte word at index 0", details: { hex: "0x" } }),
    );
  });
});

describe("vault adapter before init", () => {
  it("refuses a vault log it cannot value yet, and ignores other topics without needing the facts", async () => {
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, runtime(v2Answers).rt);
    expect(() => adapter.handle(log([SIG.transfer, topic(ALICE), topic(BOB)], word(1n)), { ts: 0, height: 5, txHash: "0xab", logIndex: 3 })).toThrow(
      expect.objectContaining({ code: "adapter-failed", message: "vault: vault facts were not loaded before the first log" }),
    );
    expect(
      await adapter.handle(log([id("Approval(address,address,uint256)"), topic(ALICE), topic(BOB)], word(1n)), {
        ts: 0,
        height: 5,
        txHash: "0xab",
        logIndex: 3,
      }),
    ).toEqual([]);
    expect(vaultAdapter.description).toMatch(/^Vault positions: share balances of an ERC-4626 \(v2\) or price-per-share \(v1\) vault/);
  });
});
