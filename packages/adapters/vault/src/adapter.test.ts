// The vault adapter: params, share Transfers as balance deltas, both versions' Deposit/Withdraw as actions, facts read once.
import type { AdapterRuntime, ChainLog } from "@pointwise/indexer-engine";
import { DECIMALS_CALL } from "@pointwise/indexer-engine";
import { AbiCoder, id, zeroPadValue } from "ethers";
import { vaultAdapter } from "./index";

const VAULT = "0x00000000000000000000000000000000000000f1";
const ASSET = "0x00000000000000000000000000000000000000e1";
const OTHER = "0x00000000000000000000000000000000000000c1";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";
const ROUTER = "0x00000000000000000000000000000000000000d3";
const TX = "0x5a1d8f0e62b1f6c03b8f4a3f1a3f9d0d6b8e2c4a7e1f0b9c8d7e6f5a4b3c2d1e";
const coder = AbiCoder.defaultAbiCoder();
const topic = (address: string) => zeroPadValue(address, 32);
const word = (n: bigint) => coder.encode(["uint256"], [n]);
const ctx = { ts: 1_700_000_000_000, height: 5, txHash: TX, logIndex: 7 };
// Written out from the event signatures, not taken from the adapter's own constants.
const SIG = {
  transfer: id("Transfer(address,address,uint256)"),
  deposit4626: id("Deposit(address,address,uint256,uint256)"),
  withdraw4626: id("Withdraw(address,address,address,uint256,uint256)"),
  depositV1: id("Deposit(address,uint256,uint256)"),
  withdrawV1: id("Withdraw(address,uint256,uint256)"),
};
const SELECTOR = { asset: "0x38d52e0f", token: "0xfc0c546a", pricePerShare: "0x99530b06" };

function log(topics: string[], data: string, address = VAULT): ChainLog {
  return { address, topics, data, blockNumber: 5, transactionHash: TX, logIndex: 7 };
}

/** A runtime over in-memory stores whose chain answers the calls in `answers` (by `to:data`) and records them. */
function runtime(answers: Record<string, () => string>) {
  const kv = new Map<string, string>();
  const labels = new Map<string, Record<string, string>>();
  const calls: string[] = [];
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to, data) => {
        calls.push(`${to}:${data}`);
        const answer = answers[`${to}:${data}`];
        if (answer === undefined) throw new Error("execution reverted");
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

const v2Chain = () =>
  runtime({
    [`${VAULT}:${SELECTOR.asset}`]: () => coder.encode(["address"], [ASSET]),
    [`${VAULT}:${DECIMALS_CALL}`]: () => word(9n),
    [`${ASSET}:${DECIMALS_CALL}`]: () => word(6n),
  });
const v1Chain = () =>
  runtime({
    [`${VAULT}:${SELECTOR.token}`]: () => coder.encode(["address"], [ASSET]),
    [`${VAULT}:${SELECTOR.pricePerShare}`]: () => word(1_050_000n),
    [`${VAULT}:${DECIMALS_CALL}`]: () => word(6n),
    [`${ASSET}:${DECIMALS_CALL}`]: () => word(6n),
  });

describe("vault adapter params", () => {
  it("is registered as vault version 0.0.1 and requires a vault address and a version", () => {
    expect([vaultAdapter.id, vaultAdapter.version]).toEqual(["vault", "0.0.1"]);
    const issues = vaultAdapter.paramsSchema.safeParse({}).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues).toEqual([
      ["vaultAddress", "is required"],
      ["version", "is required"],
    ]);
    expect(vaultAdapter.paramsSchema.safeParse({ vaultAddress: "0x12", version: "v2" }).error?.issues[0]?.message).toBe(
      "must be a 0x-prefixed 20-byte hex address",
    );
    expect(vaultAdapter.paramsSchema.safeParse({ vaultAddress: VAULT, version: "v3" }).error?.issues[0]).toMatchObject({
      path: ["version"],
      message: "must be one of v1, v2 (v2: ERC-4626, v1: pricePerShare())",
    });
    expect(vaultAdapter.paramsSchema.safeParse({ vaultAddress: VAULT, version: "v2", extra: 1 }).success).toBe(false);
    expect(vaultAdapter.paramsSchema.parse({ vaultAddress: VAULT.replace("f1", "F1"), version: "v1" })).toEqual({ vaultAddress: VAULT, version: "v1" });
  });
});

describe("vault adapter, v2 (ERC-4626)", () => {
  it("asks for the vault's Transfer, Deposit and Withdraw logs and labels vault and asset", async () => {
    const { rt, labels } = v2Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    expect(adapter.filters).toEqual([{ address: VAULT, topics: [SIG.transfer, SIG.deposit4626, SIG.withdraw4626], withTransaction: false }]);
    expect(adapter.contracts).toEqual([VAULT]);
    await adapter.init?.();
    expect(labels.get(VAULT)).toEqual({ protocol: "vault", role: "share", vaultVersion: "v2", asset: ASSET, decimals: "9" });
    expect(labels.get(ASSET)).toEqual({ decimals: "6" });
  });

  it("turns a share Transfer into two deltas in the share's decimals, activity hold", async () => {
    const { rt } = v2Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    await adapter.init?.();
    expect(await adapter.handle(log([SIG.transfer, topic(ALICE), topic(BOB)], word(1_500_000_001n)), ctx)).toEqual([
      { type: "balanceDelta", user: ALICE, asset: VAULT, amount: "-1.500000001", activity: "hold" },
      { type: "balanceDelta", user: BOB, asset: VAULT, amount: "1.500000001", activity: "hold" },
    ]);
  });

  it("turns Deposit into a priceable mint action of the owner valued in the asset, and Withdraw into a custom one", async () => {
    const { rt } = v2Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    await adapter.init?.();
    // md5 of the transaction hash followed by the log index 7, from coreutils: printf '%s7' <TX> | md5sum
    const key = "95af3fe3da3aecaf8867b1a033b77c0f";
    const deposit = log([SIG.deposit4626, topic(ROUTER), topic(ALICE)], coder.encode(["uint256", "uint256"], [2_500_000n, 2_400_000_000n]));
    expect(await adapter.handle(deposit, ctx)).toEqual([
      {
        type: "action",
        key,
        activity: "mint",
        user: ALICE,
        priceable: true,
        amount: { asset: ASSET, amount: "2.5" },
        meta: { kind: "deposit", vault: VAULT, version: "v2", shares: "2.4", assets: "2.5", sender: ROUTER },
      },
    ]);
    const withdraw = log([SIG.withdraw4626, topic(ROUTER), topic(BOB), topic(ALICE)], coder.encode(["uint256", "uint256"], [1_000_001n, 900_000_000n]));
    expect(await adapter.handle(withdraw, ctx)).toEqual([
      {
        type: "action",
        key,
        activity: "custom",
        user: ALICE,
        priceable: true,
        amount: { asset: ASSET, amount: "1.000001" },
        meta: { kind: "withdraw", vault: VAULT, version: "v2", shares: "0.9", assets: "1.000001", sender: ROUTER, receiver: BOB },
      },
    ]);
  });

  it("returns nothing for other logs: another contract's, the vault's Approval, and v1-shaped moves", async () => {
    const { rt } = v2Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    await adapter.init?.();
    expect(await adapter.handle(log([SIG.transfer, topic(ALICE), topic(BOB)], word(1n), OTHER), ctx)).toEqual([]);
    expect(await adapter.handle(log([id("Approval(address,address,uint256)"), topic(ALICE), topic(BOB)], word(1n)), ctx)).toEqual([]);
    expect(await adapter.handle(log([SIG.depositV1, topic(ALICE)], coder.encode(["uint256", "uint256"], [1n, 1n])), ctx)).toEqual([]);
  });

  it("stops at a truncated Deposit log instead of inventing amounts", async () => {
    const { rt } = v2Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    await adapter.init?.();
    expect(() => adapter.handle(log([SIG.deposit4626, topic(ROUTER), topic(ALICE)], word(1n)), ctx)).toThrow("expected a 32-byte word at index 1");
    expect(() => adapter.handle(log([SIG.deposit4626, topic(ROUTER)], coder.encode(["uint256", "uint256"], [1n, 1n])), ctx)).toThrow(
      "expected a 32-byte word at index 0",
    );
  });

  it("reads asset and decimals once, caching them under the adapter-config hash", async () => {
    const { rt, kv, calls } = v2Chain();
    for (let i = 0; i < 2; i++) await (await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt)).init?.();
    expect(calls).toEqual([`${VAULT}:${SELECTOR.asset}`, `${VAULT}:${DECIMALS_CALL}`, `${ASSET}:${DECIMALS_CALL}`]);
    expect(Object.fromEntries(kv)).toEqual({
      "h:vault:0x00000000000000000000000000000000000000f1:asset": ASSET,
      [`h:vault:${VAULT}:shareDecimals`]: "9",
      [`h:vault:${VAULT}:assetDecimals`]: "6",
    });
  });

  it("fails at init on a vault that is not ERC-4626, naming v1 as the alternative", async () => {
    const { rt } = v1Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, rt);
    await expect(adapter.init?.()).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `vault: could not read asset() (ERC-4626) of vault ${VAULT} as version v2; use v1 for a vault with pricePerShare()`,
    });
  });
});

describe("vault adapter, v1 (pricePerShare)", () => {
  it("reads token() and checks pricePerShare() at init, and fails naming v2 when they are missing", async () => {
    const { rt, calls } = v1Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, rt);
    expect(adapter.filters[0]?.topics).toEqual([SIG.transfer, SIG.depositV1, SIG.withdrawV1]);
    await adapter.init?.();
    expect(calls.slice(0, 2)).toEqual([`${VAULT}:${SELECTOR.token}`, `${VAULT}:${SELECTOR.pricePerShare}`]);
    const { rt: wrong } = v2Chain();
    const other = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, wrong);
    await expect(other.init?.()).rejects.toThrow(
      `vault: could not read token() and pricePerShare() of vault ${VAULT} as version v1; use v2 for an ERC-4626 vault`,
    );
  });

  it("decodes Yearn-style Deposit and Withdraw (shares first, then the underlying amount) for the recipient", async () => {
    const { rt } = v1Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, rt);
    await adapter.init?.();
    const deposit = await adapter.handle(log([SIG.depositV1, topic(BOB)], coder.encode(["uint256", "uint256"], [3_000_000n, 3_150_000n])), ctx);
    expect(deposit).toMatchObject([
      { activity: "mint", user: BOB, amount: { asset: ASSET, amount: "3.15" }, meta: { kind: "deposit", shares: "3", assets: "3.15", version: "v1" } },
    ]);
    expect(deposit[0]?.type === "action" && deposit[0].meta?.sender).toBeUndefined();
    const withdraw = await adapter.handle(log([SIG.withdrawV1, topic(BOB)], coder.encode(["uint256", "uint256"], [1_000_000n, 1_050_000n])), ctx);
    expect(withdraw).toMatchObject([{ activity: "custom", user: BOB, amount: { asset: ASSET, amount: "1.05" }, meta: { kind: "withdraw", shares: "1" } }]);
    // ERC-4626-shaped moves are not this version's.
    expect(await adapter.handle(log([SIG.deposit4626, topic(ROUTER), topic(ALICE)], coder.encode(["uint256", "uint256"], [1n, 1n])), ctx)).toEqual([]);
  });

  it("takes a v1 withdrawal's owner from the vault's burn of those shares just before it, and names the recipient as receiver", async () => {
    const { rt } = v1Chain();
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, rt);
    await adapter.init?.();
    const NULL = "0x0000000000000000000000000000000000000000";
    const OTHER_TX = `0x${"ab".repeat(32)}`;
    const burn = (shares: bigint, txHash = TX) => ({ ...log([SIG.transfer, topic(ALICE), topic(NULL)], word(shares)), transactionHash: txHash, logIndex: 6 });
    const withdraw = log([SIG.withdrawV1, topic(BOB)], coder.encode(["uint256", "uint256"], [1_000_000n, 1_050_000n]));
    // ALICE burns 1 share and the Withdraw pays BOB: the shares, so the withdrawal, were ALICE's.
    expect(await adapter.handle(burn(1_000_000n), ctx)).toEqual([
      { type: "balanceDelta", user: ALICE, asset: VAULT, amount: "-1", activity: "hold" },
      { type: "balanceDelta", user: NULL, asset: VAULT, amount: "1", activity: "hold" },
    ]);
    expect(await adapter.handle(withdraw, ctx)).toMatchObject([
      { activity: "custom", user: ALICE, amount: { asset: ASSET, amount: "1.05" }, meta: { kind: "withdraw", shares: "1", assets: "1.05", receiver: BOB } },
    ]);
    // The burn is used once: a second Withdraw without its own burn is the recipient's, without a receiver.
    const again = await adapter.handle(withdraw, ctx);
    expect(again).toMatchObject([{ user: BOB }]);
    expect(again[0]?.type === "action" && again[0].meta).not.toHaveProperty("receiver");
    // A burn of other shares, or of another transaction, is not this withdrawal's.
    await adapter.handle(burn(999_999n), ctx);
    expect(await adapter.handle(withdraw, ctx)).toMatchObject([{ user: BOB }]);
    await adapter.handle(burn(1_000_000n, OTHER_TX), ctx);
    expect(await adapter.handle(withdraw, ctx)).toMatchObject([{ user: BOB }]);
    // A transfer between the burn and the Withdraw ends the burn's claim.
    await adapter.handle(burn(1_000_000n), ctx);
    await adapter.handle(log([SIG.transfer, topic(ALICE), topic(OTHER)], word(1n)), ctx);
    expect(await adapter.handle(withdraw, ctx)).toMatchObject([{ user: BOB }]);
  });

  it("skips a deposit or withdrawal that moves no asset and no share, in either version, and keeps one that moves either", async () => {
    const v2 = await vaultAdapter.create({ vaultAddress: VAULT, version: "v2" }, v2Chain().rt);
    await v2.init?.();
    const zero = coder.encode(["uint256", "uint256"], [0n, 0n]);
    expect(await v2.handle(log([SIG.deposit4626, topic(ROUTER), topic(ALICE)], zero), ctx)).toEqual([]);
    expect(await v2.handle(log([SIG.withdraw4626, topic(ROUTER), topic(BOB), topic(ALICE)], zero), ctx)).toEqual([]);
    // Shares redeemed for assets that round down to nothing are still a withdrawal.
    expect(
      await v2.handle(log([SIG.withdraw4626, topic(ROUTER), topic(BOB), topic(ALICE)], coder.encode(["uint256", "uint256"], [0n, 1n])), ctx),
    ).toMatchObject([{ user: ALICE, amount: { asset: ASSET, amount: "0" }, meta: { shares: "0.000000001" } }]);
    const v1 = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, v1Chain().rt);
    await v1.init?.();
    expect(await v1.handle(log([SIG.depositV1, topic(BOB)], zero), ctx)).toEqual([]);
    expect(await v1.handle(log([SIG.withdrawV1, topic(BOB)], zero), ctx)).toEqual([]);
  });

  it("fails at init on an absurd decimals() answer", async () => {
    const { rt } = runtime({
      [`${VAULT}:${SELECTOR.token}`]: () => coder.encode(["address"], [ASSET]),
      [`${VAULT}:${SELECTOR.pricePerShare}`]: () => word(1n),
      [`${VAULT}:${DECIMALS_CALL}`]: () => word(500n),
    });
    const adapter = await vaultAdapter.create({ vaultAddress: VAULT, version: "v1" }, rt);
    await expect(adapter.init?.()).rejects.toThrow(`vault: ${VAULT} answered decimals() with 500, which no ERC-20 uses`);
  });
});
