// Entry point of the amm-v3 indexer adapter: its definition for the registry, and its named exports.
import { defineAdapter } from "@pointwise/indexer-engine";
import { createAmmV3Adapter } from "./adapter";
import { ammV3Params } from "./params";

/** The amm-v3 adapter definition: swaps of one concentrated-liquidity pool and its position NFTs, active while in range. */
export const ammV3Adapter = defineAdapter({
  id: "amm-v3",
  version: "0.0.1",
  description: "Concentrated-liquidity AMM pool: swaps as priceable actions and position NFTs as liquidity windows, active only while in range.",
  paramsSchema: ammV3Params,
  create: (params, runtime) => createAmmV3Adapter(params, runtime),
});

export {
  CALLS,
  DECREASE_TOPIC,
  decodeInitializeTick,
  decodeLiquidityChange,
  decodeMint,
  decodeSwap,
  INCREASE_TOPIC,
  INITIALIZE_TOPIC,
  MINT_TOPIC,
  positionAsset,
  SWAP_TOPIC,
  signedAt,
  TRANSFER_TOPIC,
} from "./abi";
export { createAmmV3Adapter, swapEvents } from "./adapter";
export { inRange, LP_ACTIVITY, PositionBook, type TrackedPosition } from "./book";
export { decodeKnown, encodeKnown, type KnownPosition, KnownPositions } from "./known";
export { type AmmV3Params, ammV3Params, MANAGER_REQUIRED, NOTHING_TRACKED } from "./params";
export { checkPositionManager, loadPoolFacts, type PoolFacts, PROTOCOL_PREFIX, poolKeyPrefix } from "./pool";
