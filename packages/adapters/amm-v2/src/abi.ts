import { BaseError } from "@pointwise/errors";
import { id } from "ethers";

/** topic0 of the ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)` event. */
export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");
/** topic0 of the UniswapV2-style `Swap(address indexed sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address indexed to)` event. */
export const SWAP_TOPIC = id("Swap(address,uint256,uint256,uint256,uint256,address)");

/** Calldata of the pool's and tokens' read-only functions. */
export const CALLS = {
  token0: id("token0()").slice(0, 10),
  token1: id("token1()").slice(0, 10),
  decimals: id("decimals()").slice(0, 10),
};

// Every value these logs and calls carry is a static 32-byte word, so decoding is slicing hex. A generic ABI
// decoder parses the type strings and builds result objects on every call, which costs more than the rest of
// the pipeline together (see bench/indexer).

/** The `index`-th 32-byte word of ABI-encoded hex as an unsigned integer. */
export function wordAt(hex: string, index: number): bigint {
  const start = 2 + index * 64;
  const word = hex.slice(start, start + 64);
  // BigInt itself rejects every non-hex character except whitespace at the very end, which the last-character
  // check rules out; a separate pattern test per word cost as much as the parse.
  if (word.length === 64 && isHexDigit(word.charCodeAt(63))) {
    try {
      return BigInt(`0x${word}`);
    } catch {
      // Reported below with the index.
    }
  }
  throw new BaseError("abi-decode-failed", `expected a 32-byte word at index ${index}`, { details: { hex: hex.slice(0, 200) } });
}

function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
}

const ADDRESS_WORD = /^0x0{24}[0-9a-fA-F]{40}$/;

/** Decodes an address from an indexed topic or a returned word, lowercased. */
export function decodeAddress(word: string): string {
  // The usual word is 12 zero bytes and the address: slicing it skips a bigint round trip per topic.
  if (ADDRESS_WORD.test(word)) return `0x${word.slice(26).toLowerCase()}`;
  const value = wordAt(word, 0);
  if (value >> 160n !== 0n) throw new BaseError("abi-decode-failed", "an address word has non-zero upper bytes");
  return `0x${value.toString(16).padStart(40, "0")}`;
}

/** Decodes a returned uint. */
export function decodeUint(word: string): bigint {
  return wordAt(word, 0);
}

/** Decodes the data of a Transfer log: the value moved. */
export function decodeTransferValue(data: string): bigint {
  return wordAt(data, 0);
}

/** Decodes the data of a Swap log: the four amounts in their declared order. */
export function decodeSwapAmounts(data: string): { amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint } {
  return { amount0In: wordAt(data, 0), amount1In: wordAt(data, 1), amount0Out: wordAt(data, 2), amount1Out: wordAt(data, 3) };
}
