// ABI pieces of a UniswapV2-style pool: the Swap topic, read-only calldata and Swap log decoding.
import { wordAt } from "@pointwise/indexer-engine";
import { id } from "ethers";

// The ERC-20 side (Transfer, word and address decoding) is the engine's, shared with every adapter.
export { decodeAddress, decodeTransferValue, decodeUint, TRANSFER_TOPIC } from "@pointwise/indexer-engine";

/** topic0 of the UniswapV2-style `Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)` event. */
export const SWAP_TOPIC = id("Swap(address,uint256,uint256,uint256,uint256,address)");

/** Calldata of the pool's read-only functions. */
export const CALLS = {
  token0: id("token0()").slice(0, 10),
  token1: id("token1()").slice(0, 10),
};

/** Decodes the data of a Swap log: the four amounts in their declared order. */
export function decodeSwapAmounts(data: string): { amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint } {
  return { amount0In: wordAt(data, 0), amount1In: wordAt(data, 1), amount0Out: wordAt(data, 2), amount1Out: wordAt(data, 3) };
}
