// Entry point of the amm-v2 indexer adapter: its definition for the registry, and its named exports.
import { defineAdapter } from "@pointwise/indexer-engine";
import { createAmmV2Adapter } from "./adapter";
import { ammV2Params } from "./params";

/** The amm-v2 adapter definition: LP balances (Transfer) and swaps (Swap) of one constant-product pool. */
export const ammV2Adapter = defineAdapter({
  id: "amm-v2",
  version: "0.0.1",
  description: "Constant-product AMM pool: LP-token balances as time-weighted windows and swaps as priceable actions.",
  paramsSchema: ammV2Params,
  create: (params, runtime) => createAmmV2Adapter(params, runtime),
});

export { decodeAddress, decodeSwapAmounts, decodeTransferValue, SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
export { createAmmV2Adapter, LP_DECIMALS, lpTransferEvents, swapEvents } from "./adapter";
export { type AmmV2Params, ammV2Params, NOTHING_TRACKED } from "./params";
export { loadPoolTokens, type PoolTokens, PROTOCOL_PREFIX, poolKeyPrefix } from "./tokens";
