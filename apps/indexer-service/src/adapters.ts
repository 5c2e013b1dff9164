// The set of indexer adapters this service ships, gathered into the registry the engine looks them up in.
import { ammV2Adapter } from "@pointwise/adapter-amm-v2";
import { ammV3Adapter } from "@pointwise/adapter-amm-v3";
import { erc20HoldingsAdapter } from "@pointwise/adapter-erc20-holdings";
import { lendingAdapter } from "@pointwise/adapter-lending";
import { vaultAdapter } from "@pointwise/adapter-vault";
import { AdapterRegistry } from "@pointwise/indexer-engine";

/** The adapters this service ships: adding an adapter package means adding its definition here, not touching the engine. */
export const ADAPTERS = [ammV2Adapter, ammV3Adapter, erc20HoldingsAdapter, lendingAdapter, vaultAdapter] as const;

/** A registry of the shipped adapters. */
export function createRegistry(): AdapterRegistry {
  return new AdapterRegistry([...ADAPTERS]);
}
