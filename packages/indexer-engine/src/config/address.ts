// EVM addresses as a config writes them: in one case, or in mixed case that must be a valid EIP-55 checksum.
import { EVM_ADDRESS_PATTERN, isEvmAddress } from "@pointwise/schemas";

/** The rule a string that is no address at all breaks. */
export const NOT_AN_ADDRESS = "must be a 0x-prefixed 20-byte hex address";

/** The rule a mixed-case address whose EIP-55 checksum is wrong breaks: one of its characters is likely mistyped. */
export const BAD_CHECKSUM = "has a bad EIP-55 checksum; check the address or write it in lower case";

/** Why `value` is not an address a config may name (NOT_AN_ADDRESS or BAD_CHECKSUM), or undefined when it is one. */
export function addressProblem(value: string): string | undefined {
  if (!EVM_ADDRESS_PATTERN.test(value)) return NOT_AN_ADDRESS;
  return isEvmAddress(value) ? undefined : BAD_CHECKSUM;
}
