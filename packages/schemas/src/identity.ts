/**
 * The identity types an earn event may target, and the rules that validate and normalise an
 * account_id for each. Two spellings of one identity (an EVM address in lower case and in its
 * EIP-55 form) must become one stored value, or a user's points would split across two rows.
 */
import { ValidationError } from "@pointwise/errors";
import { base58 } from "@scure/base";
import { isEvmAddress, isZeroEvmAddress } from "./evm-address";
import { normalizeBitcoinAddress } from "./identity-bitcoin";
import { type Checked, describeChar, describeType, fail, ok } from "./identity-check";
import { normalizeEmail } from "./identity-email";
import { JsonNumberText } from "./json-number";

/** The allowed values of identity_type, exactly as the interface spells them. */
export const IDENTITY_TYPES = ["EVM_ADDRESS", "SOLANA_ADDRESS", "BTC_ADDRESS", "EMAIL", "DISCORD_PROVIDER_ID", "X_PROVIDER_ID", "GITHUB_PROVIDER_ID"] as const;

/** One of the seven allowed identity types. */
export type IdentityType = (typeof IDENTITY_TYPES)[number];

/** Largest provider id accepted: 2^64-1, compared as a string so it never passes through a JS number. */
export const MAX_PROVIDER_ID = "18446744073709551615";

const NOT_HEX = /[^0-9a-fA-F]/;
const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
// 32 bytes need at least 32 base58 digits (all leading zero bytes) and at most 44.
const SOLANA_MIN_LENGTH = 32;
const SOLANA_MAX_LENGTH = 44;
const SOLANA_KEY_BYTES = 32;
const DECIMAL_DIGITS = /^[0-9]+$/;

/** True for one of the seven allowed values (exact, case-sensitive). */
export function isIdentityType(value: unknown): value is IdentityType {
  // includes() compares with SameValueZero, so no value of another type can match.
  return (IDENTITY_TYPES as readonly unknown[]).includes(value);
}

function checkEvmAddress(id: string): Checked<string> {
  if (!id.startsWith("0x")) return fail("must start with 0x");
  const hex = id.slice(2);
  if (hex.length !== 40) return fail(`must have 40 hex digits after 0x, got ${hex.length}`);
  if (NOT_HEX.test(hex)) return fail("contains a character that is not a hex digit");
  if (!isEvmAddress(id)) return fail("EIP-55 checksum mismatch");
  return ok(`0x${hex.toLowerCase()}`);
}

function checkSolanaAddress(id: string): Checked<string> {
  if (id.length < SOLANA_MIN_LENGTH || id.length > SOLANA_MAX_LENGTH) {
    return fail(`must be ${SOLANA_MIN_LENGTH} to ${SOLANA_MAX_LENGTH} base58 characters, got ${id.length}`);
  }
  for (const char of id) {
    if (!BASE58_ALPHABET.includes(char)) return fail(`invalid base58 character ${describeChar(char)}`);
  }
  const bytes = base58.decode(id);
  if (bytes.length !== SOLANA_KEY_BYTES) {
    return fail(`decodes to ${bytes.length} bytes, expected ${SOLANA_KEY_BYTES}`);
  }
  // Stored as given: base58 is case-sensitive and its encoding of 32 bytes is unique.
  return ok(id);
}

function checkProviderId(id: string): Checked<string> {
  if (id.length === 0) return fail("must not be empty");
  if (!DECIMAL_DIGITS.test(id)) return fail("must contain only the decimal digits 0-9");
  // No platform issues id 0; a "0" is almost always an unset field defaulted by the client.
  if (id === "0") return fail("must be at least 1");
  if (id.startsWith("0")) return fail("must not have leading zeros");
  // Equal-length decimal strings without leading zeros order like the numbers they spell.
  const tooLarge = id.length > MAX_PROVIDER_ID.length || (id.length === MAX_PROVIDER_ID.length && id > MAX_PROVIDER_ID);
  if (tooLarge) return fail(`must be at most ${MAX_PROVIDER_ID} (2^64-1)`);
  return ok(id);
}

const RULES: Record<IdentityType, (id: string) => Checked<string>> = {
  EVM_ADDRESS: checkEvmAddress,
  SOLANA_ADDRESS: checkSolanaAddress,
  BTC_ADDRESS: normalizeBitcoinAddress,
  EMAIL: normalizeEmail,
  DISCORD_PROVIDER_ID: checkProviderId,
  X_PROVIDER_ID: checkProviderId,
  GITHUB_PROVIDER_ID: checkProviderId,
};

/**
 * Why an identity may be read but not come in (as new points or a new link), or null. The zero address is a
 * well-formed address whose key nobody holds (tokens are minted from and burned to it): points sent to it are
 * an integrator's bug, but one that earned points before it was refused must still be found and excluded.
 */
function entryProblem(type: IdentityType, accountId: string): string | null {
  if (type === "EVM_ADDRESS" && isZeroEvmAddress(accountId)) return "must not be the zero address, which no wallet holds";
  return null;
}

function invalidAccountId(type: IdentityType, reason: string): ValidationError {
  return new ValidationError(`account_id is not a valid ${type}: ${reason}`, {
    field: "account_id",
    code: "invalid-account-id",
    details: { identity_type: type, reason },
  });
}

/** How an account id is read. */
export interface AccountIdOptions {
  /**
   * True where an identity comes in: an earn event or adjustment (new points), a link or a sign-in (a new
   * identity). It refuses, besides what every read refuses, an identity nobody can hold (the EVM zero address);
   * lookups and exclusions leave it false, so such an identity already stored can still be found and excluded.
   */
  entry?: boolean;
}

/**
 * Validates account_id for its type and returns the stored (normalised) form; throws
 * ValidationError({ field: "account_id", code: "invalid-account-id" }) whose message names the type,
 * e.g. "account_id is not a valid EVM_ADDRESS: EIP-55 checksum mismatch".
 * `accountId` is typed `unknown` so a parsed request body can be passed as is; a non-string is refused.
 */
export function normalizeAccountId(type: IdentityType, accountId: unknown, options: AccountIdOptions = {}): string {
  if (!isIdentityType(type)) {
    throw new ValidationError("invalid identity_type", { field: "identity_type" });
  }
  if (typeof accountId !== "string") {
    // Provider ids above 2^53 lose digits as JSON numbers, so numbers are refused for every type.
    const hint =
      type.endsWith("_PROVIDER_ID") && (typeof accountId === "number" || accountId instanceof JsonNumberText) ? " (a number would lose precision)" : "";
    throw invalidAccountId(type, `must be a string, got ${describeType(accountId)}${hint}`);
  }
  const result = RULES[type](accountId);
  if (!result.ok) throw invalidAccountId(type, result.reason);
  const refused = options.entry ? entryProblem(type, result.value) : null;
  if (refused !== null) throw invalidAccountId(type, refused);
  return result.value;
}
