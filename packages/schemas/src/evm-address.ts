// EVM addresses as people write them: 0x and 40 hex digits, in one case or in the mixed case of an EIP-55 checksum.
import { getAddress } from "ethers";

/** The shape of an EVM address: 0x and 40 hex digits, in any case. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** The zero address as stored: 0x and 40 zeros (no letters, so every spelling of it normalises to this). */
export const ZERO_EVM_ADDRESS = `0x${"0".repeat(40)}`;

const ZERO_ADDRESS = /^0x0{40}$/;

/** True for the zero address, 0x and 40 zeros: where tokens are minted from and burned to; nobody holds its key. */
export function isZeroEvmAddress(value: string): boolean {
  return ZERO_ADDRESS.test(value);
}

/**
 * True when `value` has EVM_ADDRESS_PATTERN's shape and, written in mixed case, is its own EIP-55 checksum (as viem's
 * strict isAddress). Hex in one case carries no checksum and is taken as written; mixed case that is no checksum most
 * likely holds a mistyped character.
 */
export function isEvmAddress(value: string): boolean {
  if (!EVM_ADDRESS_PATTERN.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return getAddress(value.toLowerCase()) === value;
}
