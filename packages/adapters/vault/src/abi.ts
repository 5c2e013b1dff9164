// ABI pieces of the two vault interfaces: event topics, read-only calldata and log decoding.
import { decodeAddress, wordAt } from "@pointwise/indexer-engine";
import { id } from "ethers";
import type { VaultVersion } from "./params";

/** topic0 of ERC-4626 `Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)`. */
export const ERC4626_DEPOSIT_TOPIC = id("Deposit(address,address,uint256,uint256)");
/** topic0 of ERC-4626 `Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)`. */
export const ERC4626_WITHDRAW_TOPIC = id("Withdraw(address,address,address,uint256,uint256)");
/** topic0 of the Yearn V2 vault's `Deposit(address indexed recipient, uint256 shares, uint256 amount)`. */
export const V1_DEPOSIT_TOPIC = id("Deposit(address,uint256,uint256)");
/** topic0 of the Yearn V2 vault's `Withdraw(address indexed recipient, uint256 shares, uint256 amount)`. */
export const V1_WITHDRAW_TOPIC = id("Withdraw(address,uint256,uint256)");

/** Calldata of the vaults' read-only functions the adapter uses. */
export const CALLS = {
  /** ERC-4626: the underlying asset. */
  asset: id("asset()").slice(0, 10),
  /** Yearn V2: the underlying token. */
  token: id("token()").slice(0, 10),
  /** Yearn V2: underlying units per whole share. */
  pricePerShare: id("pricePerShare()").slice(0, 10),
};

/** The underlying-asset getter of each vault version. */
export function underlyingCall(version: VaultVersion): string {
  return version === "v2" ? CALLS.asset : CALLS.token;
}

/** A deposit or withdrawal read from a vault log: whose shares, how many, and for how much underlying. */
export interface VaultMove {
  kind: "deposit" | "withdraw";
  /**
   * The owner of the shares: minted to on a deposit, burned from on a withdrawal. A v1 Withdraw names only the
   * recipient of the underlying, decoded here; moveEvents takes the owner from the shares' burn before it.
   */
  owner: string;
  shares: bigint;
  assets: bigint;
  /** ERC-4626 only: the caller, and on a withdrawal the receiver of the assets. */
  sender?: string;
  receiver?: string;
}

/** The topics a vault version's deposits and withdrawals carry as topic0. */
export function moveTopics(version: VaultVersion): [deposit: string, withdraw: string] {
  return version === "v2" ? [ERC4626_DEPOSIT_TOPIC, ERC4626_WITHDRAW_TOPIC] : [V1_DEPOSIT_TOPIC, V1_WITHDRAW_TOPIC];
}

/** Decodes a deposit or withdrawal log of a vault version, or undefined when topic0 is neither. */
export function decodeMove(version: VaultVersion, topics: string[], data: string): VaultMove | undefined {
  const topic = topics[0];
  if (version === "v2") {
    // ERC-4626 puts assets before shares in the data of both events.
    if (topic === ERC4626_DEPOSIT_TOPIC) {
      return {
        kind: "deposit",
        sender: decodeAddress(topicAt(topics, 1)),
        owner: decodeAddress(topicAt(topics, 2)),
        assets: wordAt(data, 0),
        shares: wordAt(data, 1),
      };
    }
    if (topic === ERC4626_WITHDRAW_TOPIC) {
      return {
        kind: "withdraw",
        sender: decodeAddress(topicAt(topics, 1)),
        receiver: decodeAddress(topicAt(topics, 2)),
        owner: decodeAddress(topicAt(topics, 3)),
        assets: wordAt(data, 0),
        shares: wordAt(data, 1),
      };
    }
    return undefined;
  }
  // Yearn V2 puts shares before the underlying amount.
  if (topic === V1_DEPOSIT_TOPIC) return { kind: "deposit", owner: decodeAddress(topicAt(topics, 1)), shares: wordAt(data, 0), assets: wordAt(data, 1) };
  if (topic === V1_WITHDRAW_TOPIC) return { kind: "withdraw", owner: decodeAddress(topicAt(topics, 1)), shares: wordAt(data, 0), assets: wordAt(data, 1) };
  return undefined;
}

function topicAt(topics: string[], index: number): string {
  // A missing topic decodes as an empty word, which decodeAddress refuses with abi-decode-failed.
  return topics[index] ?? "0x";
}
