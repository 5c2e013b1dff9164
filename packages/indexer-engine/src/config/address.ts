// EVM addresses as a config writes them: in one case, or in mixed case that must be a valid EIP-55 checksum.
import { getAddress } from "ethers";

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The rule a string that is no address at all breaks. */
export const NOT_AN_ADDRESS = "must be a 0x-prefixed 20-byte hex address";

/** The rule a mixed-case address whose EIP-55 checksum is wrong breaks: one of its characters is likely mistyped. */
export const BAD_CHECKSUM = "has a bad EIP-55 checksum; check the address or write it in lower case";

/**
 * Why `value` is not an address a config may name (NOT_AN_ADDRESS or BAD_CHECKSUM), or undefined when it is one.
 * Hex in one case carries no checksum and is taken as written; mixed case is a checksum (EIP-55) and must match.
 */
export function addressProblem(value: string): string | undefined {
  if (!HEX_ADDRESS.test(value)) return NOT_AN_ADDRESS;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return undefined;
  return getAddress(value.toLowerCase()) === value ? undefined : BAD_CHECKSUM;
}
