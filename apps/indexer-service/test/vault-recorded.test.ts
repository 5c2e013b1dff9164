// The recorded ERC-4626 vault history for the benchmark: every log decodes with OpenZeppelin's published ERC4626 ABI
// and re-encodes to the same bytes, the vault's own logs number at least 100,000, the vault adapter run over a part
// of it ends with the generator's share balances, and the recorded convertToAssets grows with the strategy's gains.
import { vaultAdapter } from "@pointwise/adapter-vault";
import { type AdapterRuntime, type ChainLog, StateStore } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { AbiCoder, Interface, type LogDescription, parseUnits } from "ethers";
import { REDIS_URL } from "./support/harness";
import { recordedBlockTs } from "./support/recorded";
import {
  RecordedVaultChain,
  VAULT,
  VAULT_ASSET,
  VAULT_FIRST_BLOCK,
  VAULT_HOLDERS,
  VaultHistory,
  vaultBlockLogs,
  vaultRangeFor,
} from "./support/vault-recorded";

const vaultAbi = new Interface((require("@openzeppelin/contracts/build/contracts/ERC4626.json") as { abi: never }).abi);
const tokenAbi = new Interface((require("@openzeppelin/contracts/build/contracts/ERC20.json") as { abi: never }).abi);
const coder = AbiCoder.defaultAbiCoder();
const { toBlock, logs: total } = vaultRangeFor(100_000);
const holder = (i: number) => `0x${(0xe000 + i).toString(16).padStart(40, "0")}`;

describe("recorded ERC-4626 vault history", () => {
  it("decodes with OpenZeppelin's ERC4626 and ERC20 ABIs to the same bytes, with at least 100,000 vault logs over days", () => {
    expect(total).toBeGreaterThanOrEqual(100_000);
    const history = new VaultHistory();
    const counts = new Map<string, number>();
    const bad: unknown[] = [];
    for (let block = VAULT_FIRST_BLOCK; block <= toBlock; block++) {
      const logs = history.logs(block);
      if (logs.some((l, i) => l.log.logIndex !== i || l.log.blockNumber !== block)) bad.push({ block, what: "log order" });
      // The full decode and re-encode (slow in ethers) runs on every 20th block.
      if (block % 20 !== 0) continue;
      for (const { log } of logs) {
        const iface = log.address === VAULT ? vaultAbi : log.address === VAULT_ASSET ? tokenAbi : undefined;
        const parsed = iface?.parseLog(log) as LogDescription | null | undefined;
        if (iface === undefined || parsed == null) {
          bad.push({ block, log: log.logIndex, what: "no event in the contract's ABI" });
          continue;
        }
        const name = `${log.address === VAULT ? "vault" : "asset"}.${parsed.name}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
        const again = iface.encodeEventLog(parsed.fragment, [...parsed.args]);
        if (again.data !== log.data || again.topics.join() !== log.topics.join()) bad.push({ block, log: log.logIndex, what: "re-encodes differently" });
      }
    }
    expect(bad).toEqual([]);
    expect([...counts.keys()].sort()).toEqual(["asset.Transfer", "vault.Deposit", "vault.Transfer", "vault.Withdraw"]);
    expect(Math.min(...counts.values())).toBeGreaterThan(200);
    // The shares held add up to the supply.
    const supply = history.totalsAt(toBlock)[1];
    expect(history.shares.reduce((a, b) => a + b, 0n)).toBe(supply);
    expect(recordedBlockTs(toBlock) - recordedBlockTs(VAULT_FIRST_BLOCK)).toBeGreaterThan(2 * 86_400_000);
  }, 240_000);

  it("answers convertToAssets as OpenZeppelin computes it, rising with the gains and never falling", async () => {
    const chain = new RecordedVaultChain(toBlock);
    const history = new VaultHistory();
    const one = 10n ** 9n;
    const data = vaultAbi.encodeFunctionData("convertToAssets", [one]);
    let previous = 0n;
    const falls: unknown[] = [];
    for (let block = VAULT_FIRST_BLOCK + VAULT_HOLDERS / 5; block <= toBlock; block += 97) {
      const [perShare] = coder.decode(["uint256"], await chain.call(VAULT, data, block)) as unknown as [bigint];
      const [assets, supply] = history.totalsAt(block);
      // OpenZeppelin 5: shares x (totalAssets + 1) / (totalSupply + 10^offset), rounded down, offset 3.
      expect(perShare).toBe((one * (assets + 1n)) / (supply + 1_000n));
      if (perShare < previous) falls.push({ block, perShare, previous });
      previous = perShare;
    }
    expect(falls).toEqual([]);
    const [start] = coder.decode(["uint256"], await chain.call(VAULT, data, VAULT_FIRST_BLOCK + VAULT_HOLDERS / 5)) as unknown as [bigint];
    expect(previous).toBeGreaterThan(start + start / 200n);
  }, 120_000);

  it("through the vault adapter ends with every holder's share balance as the generator holds it", async () => {
    const { toBlock: end } = vaultRangeFor(20_000);
    const chain = new RecordedVaultChain(end);
    const history = new VaultHistory();
    const logger = createLogger({ service: "test", level: "silent" });
    const store = await StateStore.connect(
      { url: REDIS_URL, keyPrefix: `pwt-${Date.now().toString(36)}`, indexerId: "vault-recorded", configHash: "c" },
      logger,
    );
    try {
      const runtime: AdapterRuntime = { chainId: 1, chain, store: store.kv, labels: store.labels, adapterConfigHash: "t", logger };
      const adapter = await vaultAdapter.create(vaultAdapter.paramsSchema.parse({ vaultAddress: VAULT, version: "v2" }), runtime);
      await adapter.init?.();
      const held = new Map<string, bigint>();
      let actions = 0;
      const read = vaultBlockLogs(history);
      for (let block = VAULT_FIRST_BLOCK; block <= end; block++)
        for (const { log } of read(block))
          for (const e of await adapter.handle(log as ChainLog, { ts: 0, height: block, txHash: log.transactionHash, logIndex: log.logIndex })) {
            if (e.type === "action") actions++;
            else if (e.type === "balanceDelta") held.set(e.user, (held.get(e.user) ?? 0n) + parseUnits(e.amount, 9));
          }
      expect(actions).toBeGreaterThan(2_000);
      const mismatches = history.shares.flatMap((shares, u) => ((held.get(holder(u)) ?? 0n) === shares ? [] : [{ u, shares, held: held.get(holder(u)) }]));
      expect(mismatches).toEqual([]);
      expect(history.shares.filter((s) => s > 0n).length).toBeGreaterThan(VAULT_HOLDERS / 2);
    } finally {
      await store.clearIndexer();
      await store.close();
    }
  }, 120_000);
});
