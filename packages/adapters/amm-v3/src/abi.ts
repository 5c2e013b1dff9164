// ABI pieces of a Uniswap V3-style pool and position manager: event topics, read-only calldata and log decoding.
import { decodeAddress, wordAt } from "@pointwise/indexer-engine";
import { AbiCoder, id, keccak256 } from "ethers";

export { decodeAddress, decodeUint, TRANSFER_TOPIC } from "@pointwise/indexer-engine";

/** topic0 of the pool's `Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)`. */
export const SWAP_TOPIC = id("Swap(address,address,int256,int256,uint160,uint128,int24)");
/** topic0 of the pool's `Initialize(uint160 sqrtPriceX96, int24 tick)`. */
export const INITIALIZE_TOPIC = id("Initialize(uint160,int24)");
/** topic0 of the pool's `Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)`. */
export const MINT_TOPIC = id("Mint(address,address,int24,int24,uint128,uint256,uint256)");
/** topic0 of the position manager's `IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)`. */
export const INCREASE_TOPIC = id("IncreaseLiquidity(uint256,uint128,uint256,uint256)");
/** topic0 of the position manager's `DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)`. */
export const DECREASE_TOPIC = id("DecreaseLiquidity(uint256,uint128,uint256,uint256)");

const selector = (signature: string) => id(signature).slice(0, 10);
const coder = AbiCoder.defaultAbiCoder();

/** Calldata of the pool's and position manager's read-only functions. */
export const CALLS = {
  token0: selector("token0()"),
  token1: selector("token1()"),
  fee: selector("fee()"),
  factory: selector("factory()"),
  slot0: selector("slot0()"),
  positions: (tokenId: bigint) => selector("positions(uint256)") + coder.encode(["uint256"], [tokenId]).slice(2),
  ownerOf: (tokenId: bigint) => selector("ownerOf(uint256)") + coder.encode(["uint256"], [tokenId]).slice(2),
};

/** Reads a 32-byte word as a two's-complement signed integer (int256, or a sign-extended int24). */
export function signedAt(hex: string, index: number): bigint {
  const raw = wordAt(hex, index);
  return raw >= 1n << 255n ? raw - (1n << 256n) : raw;
}

/** Decodes the data of a Swap log: the pool's signed amounts (positive: paid into the pool) and the tick after it. */
export function decodeSwap(data: string): { amount0: bigint; amount1: bigint; sqrtPriceX96: bigint; tick: number } {
  return { amount0: signedAt(data, 0), amount1: signedAt(data, 1), sqrtPriceX96: wordAt(data, 2), tick: Number(signedAt(data, 4)) };
}

/** Decodes the data of an Initialize log: the first tick of the pool. */
export function decodeInitializeTick(data: string): number {
  return Number(signedAt(data, 1));
}

/** Decodes a pool Mint log: who owns the liquidity, its tick range and the liquidity added. */
export function decodeMint(topics: readonly string[], data: string): { owner: string; tickLower: number; tickUpper: number; amount: bigint } {
  return {
    owner: decodeAddress(topics[1] ?? ""),
    tickLower: Number(signedAt(topics[2] ?? "", 0)),
    tickUpper: Number(signedAt(topics[3] ?? "", 0)),
    amount: wordAt(data, 1),
  };
}

/** Decodes an IncreaseLiquidity or DecreaseLiquidity log: the token id and the liquidity added or removed. */
export function decodeLiquidityChange(topics: readonly string[], data: string): { tokenId: bigint; liquidity: bigint } {
  return { tokenId: wordAt(topics[1] ?? "", 0), liquidity: wordAt(data, 0) };
}

/**
 * The asset address of one position NFT: the last 20 bytes of keccak256(abi.encode(positionManager, tokenId)).
 * Every position is its own asset, so each has its own windows, status and labels (tick range, pool, tokens).
 */
export function positionAsset(positionManager: string, tokenId: bigint): string {
  // abi.encode of an address and a uint256 is two 32-byte words, each left-padded with zeros: written out directly,
  // as the ABI coder's general path costs more than the hash on a pool with many mints.
  const words = `0x${positionManager.slice(2).padStart(64, "0")}${tokenId.toString(16).padStart(64, "0")}`;
  return `0x${keccak256(words).slice(-40)}`;
}
