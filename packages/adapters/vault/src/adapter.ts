// The vault adapter: share Transfers become balance deltas, deposits and withdrawals priceable actions.
import { BaseError } from "@pointwise/errors";
import {
  type ActionEvent,
  type Adapter,
  type AdapterRuntime,
  actionKey,
  type BalanceDelta,
  type ChainLog,
  decodeTransferValue,
  type IndexerEvent,
  NULL_ADDRESS,
  TRANSFER_TOPIC,
  transferDeltas,
  unitsFromRaw,
} from "@pointwise/indexer-engine";
import { decodeMove, moveTopics } from "./abi";
import { loadVaultFacts, type VaultFacts } from "./facts";
import type { VaultParams } from "./params";

/** Activity of share windows: a vault share is held. */
export const SHARE_ACTIVITY = "hold";

/**
 * The action kind of each vault move. The spec's kinds are swap, mint, bridge, claim and custom: a deposit mints
 * shares, and a withdrawal has no kind of its own, so it is `custom` (meta.kind says which move it was).
 */
export const MOVE_ACTIVITY = { deposit: "mint", withdraw: "custom" } as const;

/** A burn of vault shares (a Transfer to the null address): whose shares, how many, in which transaction. */
export interface ShareBurn {
  txHash: string;
  owner: string;
  shares: bigint;
}

/**
 * Turns a deposit or withdrawal log into one priceable action of the share owner, valued in the underlying asset
 * (`amount` is the assets moved, in the asset's units); returns nothing for any other log, or for a move of no
 * asset and no share. A v1 (Yearn V2) Withdraw names only the recipient of the underlying: the shares' owner is
 * the `from` of `burn`, the vault's burn of those shares logged just before it in the same transaction, and the
 * recipient goes to `meta.receiver`.
 */
export function moveEvents(params: VaultParams, facts: VaultFacts, log: ChainLog, burn?: ShareBurn): ActionEvent[] {
  const move = decodeMove(params.version, log.topics, log.data);
  if (move === undefined || (move.assets === 0n && move.shares === 0n)) return [];
  if (params.version === "v1" && move.kind === "withdraw" && burn?.txHash === log.transactionHash && burn.shares === move.shares) {
    move.receiver = move.owner;
    move.owner = burn.owner;
  }
  const assets = unitsFromRaw(move.assets, facts.assetDecimals);
  const meta: Record<string, string> = {
    kind: move.kind,
    vault: params.vaultAddress,
    version: params.version,
    shares: unitsFromRaw(move.shares, facts.shareDecimals),
    assets,
  };
  if (move.sender !== undefined) meta.sender = move.sender;
  if (move.receiver !== undefined) meta.receiver = move.receiver;
  return [
    {
      type: "action",
      key: actionKey(log.transactionHash, log.logIndex),
      activity: MOVE_ACTIVITY[move.kind],
      user: move.owner,
      priceable: true,
      amount: { asset: facts.asset, amount: assets },
      meta,
    },
  ];
}

/** Creates the vault adapter for one vault: share balances from its Transfer logs, moves from its Deposit/Withdraw logs. */
export function createVaultAdapter(params: VaultParams, runtime: AdapterRuntime): Adapter {
  const vault = params.vaultAddress;
  const [depositTopic, withdrawTopic] = moveTopics(params.version);
  let facts: VaultFacts | undefined;
  // The vault's last Transfer when it burned shares: a v1 Withdraw right after it takes its owner from it.
  let burn: ShareBurn | undefined;
  return {
    filters: [{ address: vault, topics: [TRANSFER_TOPIC, depositTopic, withdrawTopic], withTransaction: false }],
    contracts: [vault],
    async init() {
      facts = await loadVaultFacts(vault, params.version, runtime);
      // Labels let a feed rule pick the vault's shares (and the share feed read what was already read).
      await runtime.labels.set(vault, {
        protocol: "vault",
        role: "share",
        vaultVersion: params.version,
        asset: facts.asset,
        decimals: String(facts.shareDecimals),
      });
      await runtime.labels.set(facts.asset, { decimals: String(facts.assetDecimals) });
    },
    handle(log): IndexerEvent[] {
      if (log.address !== vault) return [];
      const topic = log.topics[0];
      if (topic !== TRANSFER_TOPIC && topic !== depositTopic && topic !== withdrawTopic) return [];
      if (facts === undefined) throw new BaseError("adapter-failed", "vault: vault facts were not loaded before the first log");
      if (topic === TRANSFER_TOPIC) {
        const deltas = transferDeltas(log, vault, facts.shareDecimals, SHARE_ACTIVITY);
        const [from, to] = deltas as [BalanceDelta, BalanceDelta];
        burn = to.user === NULL_ADDRESS ? { txHash: log.transactionHash, owner: from.user, shares: decodeTransferValue(log.data) } : undefined;
        return deltas;
      }
      const last = burn;
      burn = undefined;
      return moveEvents(params, facts, log, last);
    },
  };
}
