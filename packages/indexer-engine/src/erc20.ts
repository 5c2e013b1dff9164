// ERC-20 log and call decoding that adapters share. Every value these logs and calls carry is a static
// 32-byte word, so decoding is slicing hex. A generic ABI decoder parses the type strings and builds result
// objects on every call, which costs more than the rest of the pipeline together (see bench/indexer).
import { BaseError } from "@pointwise/errors";
import { id } from "ethers";
import type { ChainCalls, ChainLog } from "./adapter";
import { unitsFromRaw } from "./decimal";
import type { BalanceDelta } from "./events";

/** topic0 of the ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)` event. */
export const TRANSFER_TOPIC = id("Transfer(address,address,uint256)");

/** Calldata of `decimals()`, which every ERC-20 token this engine prices or tracks answers. */
export const DECIMALS_CALL = id("decimals()").slice(0, 10);

/** Decimals above this are no ERC-20 anyone deploys: such an answer was read from something that is not one. */
export const MAX_TOKEN_DECIMALS = 77;

/** Who refuses an absurd `decimals()` answer: the error code, the message's subject (`<subject> answered decimals() ...`), details. */
export interface DecimalsRefusal {
  code: string;
  subject: string;
  details: Record<string, unknown>;
}

/**
 * Decodes a `decimals()` answer as the uint256 it is and returns it, refusing an answer above MAX_TOKEN_DECIMALS with
 * `refusal.code` (`<subject> answered decimals() with <n>, which no ERC-20 uses`, `n` exact). A malformed answer fails
 * with `abi-decode-failed`. Decoding as `uint8` would mask instead (256 read as 0), and an unbounded answer would fail
 * only where amounts are scaled by it, without a code.
 */
export function decimalsOf(answer: string, refusal: DecimalsRefusal): number {
  const decimals = decodeUint(answer);
  if (decimals > BigInt(MAX_TOKEN_DECIMALS))
    throw new BaseError(refusal.code, `${refusal.subject} answered decimals() with ${decimals}, which no ERC-20 uses`, { details: refusal.details });
  return Number(decimals);
}

/**
 * Reads `decimals()` of `token`, for an adapter's start-up. Fails with `adapter-init-failed` when the call fails or its
 * answer is no uint (`<adapter>: could not read decimals() of <what>`) or answers above MAX_TOKEN_DECIMALS (`<adapter>:
 * <what> answered decimals() with <n>, which no ERC-20 uses`): scaling amounts by such an answer would fail only at the
 * first log, and without a code. `what` names the token as the message shows it (`token 0x...`, `reserve asset 0x...`).
 */
export async function readTokenDecimals(
  chain: ChainCalls,
  token: string,
  names: { adapter: string; what: string; details: Record<string, unknown> },
): Promise<number> {
  const unreadable = (err: unknown) =>
    new BaseError("adapter-init-failed", `${names.adapter}: could not read decimals() of ${names.what}`, { cause: err, details: names.details });
  let answer: string;
  try {
    answer = await chain.call(token, DECIMALS_CALL);
  } catch (err) {
    throw unreadable(err);
  }
  try {
    return decimalsOf(answer, { code: "adapter-init-failed", subject: `${names.adapter}: ${names.what}`, details: names.details });
  } catch (err) {
    // Only the bound is refused as an absurd answer; one that is no uint at all was not read.
    if (err instanceof BaseError && err.code === "abi-decode-failed") throw unreadable(err);
    throw err;
  }
}

/** The `index`-th 32-byte word of ABI-encoded hex as an unsigned integer. */
export function wordAt(hex: string, index: number): bigint {
  const start = 2 + index * 64;
  const word = hex.slice(start, start + 64);
  // BigInt itself rejects every non-hex character but whitespace at the very end. Hex digits lie between "0" (48) and
  // "f" (102) and every character BigInt trims lies outside that range, so checking the last one rules the whitespace
  // out, and a word cut short has no 64th character (NaN) to pass; a pattern test per word cost as much as the parse.
  const last = word.charCodeAt(63);
  if (last >= 48 && last <= 102) {
    try {
      return BigInt(`0x${word}`);
    } catch {
      // Reported below with the index.
    }
  }
  throw new BaseError("abi-decode-failed", `expected a 32-byte word at index ${index}`, { details: { hex: hex.slice(0, 200) } });
}

const ADDRESS_WORD = /^0x0{24}[0-9a-fA-F]{40}$/;

/** Decodes an address from an indexed topic or a returned word, lowercased. */
export function decodeAddress(word: string): string {
  // The usual word is 12 zero bytes and the address: slicing it skips a bigint round trip per topic.
  // Stryker disable next-line ConditionalExpression: without the shortcut the bigint path decodes the same address
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

/**
 * Turns an ERC-20 Transfer log into two balance deltas in token units: `-value` for the sender and `+value`
 * for the recipient. Mints and burns (the null address on one side) are emitted as they are; the engine
 * ignores the null address.
 */
export function transferDeltas(log: ChainLog, asset: string, decimals: number, activity = "hold"): BalanceDelta[] {
  // ERC-721 shares the Transfer signature but indexes its token id as a fourth topic: such a log is no
  // amount of an ERC-20, and reading its data as one would invent a balance.
  if (log.topics.length !== 3) {
    throw new BaseError("abi-decode-failed", `a Transfer of ${log.address} has ${log.topics.length} topics, an ERC-20 Transfer has 3 (is it an ERC-721?)`, {
      details: { txHash: log.transactionHash, logIndex: log.logIndex },
    });
  }
  const from = decodeAddress(log.topics[1] as string);
  const to = decodeAddress(log.topics[2] as string);
  const units = unitsFromRaw(decodeTransferValue(log.data), decimals);
  const negated = units === "0" ? "0" : `-${units}`;
  return [
    { type: "balanceDelta", user: from, asset, amount: negated, activity },
    { type: "balanceDelta", user: to, asset, amount: units, activity },
  ];
}
