// The indexer benchmark's subjects: each adapter with its recorded history, the pricing rules and stored facts a real
// run would have, and the ABI types the ethers-only baseline decodes its logs with. The histories are generated
// in the indexer service's test support (test/support/v2-recorded.ts, v3-recorded.ts, lending-recorded.ts and
// vault-recorded.ts); this file only wires them.
import { ammV2Adapter, poolKeyPrefix, SWAP_TOPIC, TRANSFER_TOPIC } from "@pointwise/adapter-amm-v2";
import * as v3 from "@pointwise/adapter-amm-v3";
import * as lend from "@pointwise/adapter-lending";
import { ERC4626_DEPOSIT_TOPIC, ERC4626_WITHDRAW_TOPIC, vaultAdapter } from "@pointwise/adapter-vault";
import type { AdapterDefinition, AssetFeedRule, BlockSource, ChainCalls, KeyValueStore, LogSource } from "@pointwise/indexer-engine";
import * as lr from "../../apps/indexer-service/test/support/lending-recorded";
import { RecordedChain, recordedFingerprint } from "../../apps/indexer-service/test/support/recorded";
import { FIRST_BLOCK, fingerprint, POOL, rangeFor, recordedChain, TOKEN0, TOKEN1 } from "../../apps/indexer-service/test/support/v2-recorded";
import * as rec from "../../apps/indexer-service/test/support/v3-recorded";
import * as vr from "../../apps/indexer-service/test/support/vault-recorded";

/** A recorded chain the engine reads, with the senders of the range it served last. */
export type BenchChain = LogSource & BlockSource & Partial<ChainCalls> & { readonly senders: ReadonlyMap<string, string> };

/** One adapter over its recorded history, as the benchmark runs it. */
export interface Subject {
  name: string;
  adapter: AdapterDefinition;
  params: object;
  firstBlock: number;
  rangeFor(logs: number): { toBlock: number; logs: number };
  fingerprint(toBlock: number): string;
  /** A fresh reader of the history; `toBlock` is the block a call without a block tag reads. */
  chain(toBlock: number): BenchChain;
  /** Stores what a real run would have stored before the first range (facts the adapter would otherwise call for). */
  prepare?(kv: KeyValueStore): Promise<void>;
  pricing: AssetFeedRule[];
  /** The ABI types of each event's data and indexed topics (after topic 0), by topic 0, for the ethers baseline. */
  abi: Record<string, { data: string[]; indexed: string[] }>;
  /** What the set is, for the report's note. */
  describe: string;
}

const pegged = (usdPegValue: number) => ({ kind: "pegged" as const, usdPegValue });
const erc20 = (key: string, usd: number): AssetFeedRule => ({ match: { key }, config: { assetType: "erc20", priceFeed: pegged(usd) } });

/** amm-v2: one constant-product pool's swaps and LP transfers, LP priced at a pegged value. */
export const ammV2: Subject = {
  name: "amm-v2",
  adapter: ammV2Adapter as AdapterDefinition,
  params: { poolAddress: POOL, trackSwaps: true, trackLP: true },
  firstBlock: FIRST_BLOCK,
  rangeFor,
  fingerprint,
  chain: () => recordedChain(),
  async prepare(kv) {
    const prefix = poolKeyPrefix("bench", POOL);
    for (const [k, v] of Object.entries({ token0: TOKEN0, token1: TOKEN1, decimals0: "6", decimals1: "18" })) await kv.set(`${prefix}:${k}`, v);
  },
  pricing: [erc20(TOKEN0, 1), erc20(TOKEN1, 2_451.37), { match: { matchLabels: { role: "lp" } }, config: { assetType: "erc20", priceFeed: pegged(44.5) } }],
  abi: {
    [TRANSFER_TOPIC]: { data: ["uint256"], indexed: ["address", "address"] },
    [SWAP_TOPIC]: { data: ["uint256", "uint256", "uint256", "uint256"], indexed: ["address", "address"] },
  },
  describe: "one amm-v2 pool's LP mints, transfers and burns and its swaps",
};

/** amm-v3: one concentrated-liquidity pool's swaps and its position NFTs, positions priced by the ammv3position feed. */
export const ammV3: Subject = {
  name: "amm-v3",
  adapter: v3.ammV3Adapter as AdapterDefinition,
  params: { poolAddress: rec.V3_POOL, positionManagerAddress: rec.V3_MANAGER, trackSwaps: true, trackLP: true },
  firstBlock: rec.V3_FIRST_BLOCK,
  rangeFor: rec.v3RangeFor,
  fingerprint: (toBlock) => recordedFingerprint(rec.v3BlockLogs, rec.V3_FIRST_BLOCK, toBlock),
  chain: (toBlock) => new rec.RecordedV3Chain(toBlock),
  pricing: [
    erc20(rec.V3_TOKEN0, 1),
    erc20(rec.V3_TOKEN1, 2_451.37),
    {
      match: { matchLabels: { role: "position" } },
      config: { assetType: "erc20", priceFeed: { kind: "ammv3position", token0: pegged(1), token1: pegged(2_451.37) } },
    },
  ],
  abi: {
    [v3.SWAP_TOPIC]: { data: ["int256", "int256", "uint160", "uint128", "int24"], indexed: ["address", "address"] },
    [v3.MINT_TOPIC]: { data: ["address", "uint128", "uint256", "uint256"], indexed: ["address", "int24", "int24"] },
    [v3.TRANSFER_TOPIC]: { data: [], indexed: ["address", "address", "uint256"] },
    [v3.INCREASE_TOPIC]: { data: ["uint128", "uint256", "uint256"], indexed: ["uint256"] },
    [v3.DECREASE_TOPIC]: { data: ["uint128", "uint256", "uint256"], indexed: ["uint256"] },
  },
  describe:
    "one amm-v3 pool's swaps (its tick on a slow wave with up to 120 ticks of noise per swap, so positions go in and out of range often), position mints, increases, decreases and transfers",
};

const [USD, ETH] = lr.LENDING_RESERVES as [lr.RecordedReserve, lr.RecordedReserve];
const aave = (reserve: string, usd: number): AssetFeedRule => ({
  match: { matchLabels: { protocol: lend.PROTOCOL_LABEL, reserve } },
  config: { assetType: "erc20", priceFeed: pegged(usd) },
});

/** lending: an Aave V3 market's supplies, withdrawals, borrows, repays and aToken transfers; positions priced by reserve. */
export const lending: Subject = {
  name: "lending",
  adapter: lend.lendingAdapter as AdapterDefinition,
  params: { poolAddress: lr.LENDING_POOL, trackSupply: true, trackBorrow: true },
  firstBlock: lr.LENDING_FIRST_BLOCK,
  rangeFor: lr.lendingRangeFor,
  fingerprint: lr.lendingFingerprint,
  chain: () => new RecordedChain(lr.lendingBlockLogs()),
  async prepare(kv) {
    // The reserves the adapter reads from the Pool at init (getReservesList, getReserveData, decimals), as it caches them.
    await kv.set(`bench:${lend.PROTOCOL_PREFIX}:${lr.LENDING_POOL}:reserves`, JSON.stringify(lr.LENDING_RESERVES));
  },
  pricing: [aave(USD.asset, 1), aave(ETH.asset, 2_451.37)],
  abi: {
    [lend.RESERVE_DATA_UPDATED_TOPIC]: { data: ["uint256", "uint256", "uint256", "uint256", "uint256"], indexed: ["address"] },
    [lend.MINT_TOPIC]: { data: ["uint256", "uint256", "uint256"], indexed: ["address", "address"] },
    [lend.BURN_TOPIC]: { data: ["uint256", "uint256", "uint256"], indexed: ["address", "address"] },
    [lend.BALANCE_TRANSFER_TOPIC]: { data: ["uint256", "uint256"], indexed: ["address", "address"] },
  },
  describe:
    "an Aave V3 market's ReserveDataUpdated, aToken and variable debt token Mint, Burn and BalanceTransfer logs (supplies, withdrawals, variable borrows, repays and aToken transfers of 1,000 users over two reserves)",
};

/** vault: an ERC-4626 vault's deposits, withdrawals and share transfers; shares priced through the vaultshare feed. */
export const vault: Subject = {
  name: "vault",
  adapter: vaultAdapter as AdapterDefinition,
  params: { vaultAddress: vr.VAULT, version: "v2" },
  firstBlock: vr.VAULT_FIRST_BLOCK,
  rangeFor: vr.vaultRangeFor,
  fingerprint: vr.vaultFingerprint,
  chain: (toBlock) => new vr.RecordedVaultChain(toBlock),
  pricing: [
    erc20(vr.VAULT_ASSET, 1),
    { match: { matchLabels: { protocol: "vault" } }, config: { assetType: "erc20", priceFeed: { kind: "vaultshare", version: "v2", underlying: pegged(1) } } },
  ],
  abi: {
    [TRANSFER_TOPIC]: { data: ["uint256"], indexed: ["address", "address"] },
    [ERC4626_DEPOSIT_TOPIC]: { data: ["uint256", "uint256"], indexed: ["address", "address"] },
    [ERC4626_WITHDRAW_TOPIC]: { data: ["uint256", "uint256"], indexed: ["address", "address", "address"] },
  },
  describe: "an ERC-4626 vault's deposits, withdrawals and share transfers by 1,000 holders, its share price raised by a strategy's gains between them",
};
