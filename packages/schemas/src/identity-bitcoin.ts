/**
 * Bitcoin address rules: base58check (P2PKH/P2SH) and native segwit in Bech32 (BIP-173, witness v0)
 * or Bech32m (BIP-350, witness v1..16), on mainnet (`bc`), testnet/signet (`tb`) and regtest (`bcrt`).
 * The checksum arithmetic comes from @scure/base; the structural rules the BIPs add on top of the
 * checksum (character range, case, padding, witness version and program length) are checked here
 * so each failure gets its own reason.
 */
import { base58, bech32, bech32m, createBase58check } from "@scure/base";
import { getBytes, sha256 } from "ethers";
import { type Checked, describeChar, fail, ok } from "./identity-check";

/** Which checksum constant a Bech32-family string verifies with. */
export type Bech32Encoding = "bech32" | "bech32m";

/** A Bech32 or Bech32m string split into its lowercased human-readable part and its 5-bit data words. */
export interface Bech32String {
  hrp: string;
  words: number[];
  encoding: Bech32Encoding;
}

/** A decoded native segwit address. */
export interface SegwitAddress {
  hrp: SegwitHrp;
  version: number;
  program: Uint8Array;
}

/** A decoded base58check address: its version byte and 20-byte hash. */
export interface Base58Address {
  version: number;
  hash: Uint8Array;
}

/** Human-readable parts accepted for segwit addresses: mainnet, testnet/signet, regtest. */
export const SEGWIT_HRPS = ["bc", "tb", "bcrt"] as const;

/** One of the accepted segwit human-readable parts. */
export type SegwitHrp = (typeof SEGWIT_HRPS)[number];

/** Base58check version bytes accepted, and what each one means. */
export const BASE58_VERSIONS: ReadonlyMap<number, string> = new Map([
  [0x00, "mainnet P2PKH"],
  [0x05, "mainnet P2SH"],
  [0x6f, "testnet P2PKH"],
  [0xc4, "testnet P2SH"],
]);

const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BECH32_MAX_LENGTH = 90;
const CHECKSUM_LENGTH = 6;
const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
// 25 bytes (version, 20-byte hash, 4-byte checksum) never need more than 35 base58 digits;
// the bound also keeps the quadratic base58 decoder away from long hostile input.
const BASE58_MAX_LENGTH = 35;
const BASE58_PAYLOAD_BYTES = 25;

const base58check = createBase58check((data) => getBytes(sha256(data)));

function isSegwitHrp(hrp: string): hrp is SegwitHrp {
  return (SEGWIT_HRPS as readonly string[]).includes(hrp);
}

/** Parses a Bech32 or Bech32m string of any human-readable part, following BIP-173 and BIP-350. */
export function parseBech32(input: string): Checked<Bech32String> {
  if (input.length > BECH32_MAX_LENGTH) return fail(`longer than ${BECH32_MAX_LENGTH} characters`);
  for (const char of input) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 33 || code > 126) return fail(`character ${describeChar(char)} is out of range`);
  }
  const lower = input.toLowerCase();
  if (input !== lower && input !== input.toUpperCase()) return fail("mixes upper and lower case");
  const separator = lower.lastIndexOf("1");
  if (separator === -1) return fail("has no separator '1'");
  if (separator === 0) return fail("has an empty human-readable part");
  const data = lower.slice(separator + 1);
  if (data.length < CHECKSUM_LENGTH) return fail("checksum is shorter than 6 characters");
  for (const char of data) {
    if (!BECH32_CHARSET.includes(char)) return fail(`invalid data character ${describeChar(char)}`);
  }
  const hrp = lower.slice(0, separator);
  const asBech32 = bech32.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  if (asBech32) return ok({ hrp, words: asBech32.words, encoding: "bech32" });
  const asBech32m = bech32m.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  if (asBech32m) return ok({ hrp, words: asBech32m.words, encoding: "bech32m" });
  return fail("invalid bech32/bech32m checksum");
}

/** Decodes a native segwit address and enforces the witness version and program length rules. */
export function decodeSegwitAddress(input: string): Checked<SegwitAddress> {
  const parsed = parseBech32(input);
  if (!parsed.ok) return parsed;
  const { hrp, words, encoding } = parsed.value;
  if (!isSegwitHrp(hrp)) return fail(`unknown network prefix "${hrp}" (expected bc, tb or bcrt)`);
  const [version, ...programWords] = words;
  if (version === undefined) return fail("empty data section");
  if (version > 16) return fail(`witness version ${version} is above 16`);
  // BIP-350: v0 keeps the original Bech32 constant, every later version must use Bech32m.
  const expected: Bech32Encoding = version === 0 ? "bech32" : "bech32m";
  if (encoding !== expected) {
    return fail(`witness version ${version} needs a ${expected} checksum, got ${encoding}`);
  }
  if ((programWords.length * 5) % 8 > 4) return fail("zero padding of more than 4 bits");
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program) return fail("non-zero padding bits");
  if (program.length < 2 || program.length > 40) {
    return fail(`witness program length ${program.length} is outside 2 to 40 bytes`);
  }
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return fail(`witness v0 program length ${program.length} is neither 20 nor 32 bytes`);
  }
  return ok({ hrp, version, program });
}

/** Decodes a base58check P2PKH/P2SH address for mainnet or testnet. */
export function decodeBase58Address(input: string): Checked<Base58Address> {
  if (input.length === 0) return fail("must not be empty");
  if (input.length > BASE58_MAX_LENGTH) {
    return fail(`longer than ${BASE58_MAX_LENGTH} characters for a base58 address`);
  }
  for (const char of input) {
    if (!BASE58_ALPHABET.includes(char)) return fail(`invalid base58 character ${describeChar(char)}`);
  }
  const bytes = base58.decode(input);
  if (bytes.length !== BASE58_PAYLOAD_BYTES) {
    return fail(`base58 payload is ${bytes.length} bytes, expected ${BASE58_PAYLOAD_BYTES}`);
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(input);
  } catch {
    return fail("base58check checksum mismatch");
  }
  // The payload was checked to be 25 bytes with its checksum, so 21 remain and byte 0 exists.
  const version = payload[0] as number;
  if (!BASE58_VERSIONS.has(version)) {
    return fail(`unsupported version byte 0x${version.toString(16).padStart(2, "0")}`);
  }
  return ok({ version, hash: payload.slice(1) });
}

/**
 * Validates a Bitcoin address and returns its stored form: segwit lowercased (its canonical form),
 * base58 as given (base58 is case-sensitive, so it is already canonical).
 */
export function normalizeBitcoinAddress(input: string): Checked<string> {
  const lower = input.toLowerCase();
  // Without a '1' there is no prefix (slice(0, -1) would cut off the last character instead).
  const prefix = lower.slice(0, Math.max(lower.lastIndexOf("1"), 0));
  // A base58 address with an accepted version byte starts with 1, 3, m, n or 2, so it never
  // begins with a segwit prefix followed by '1'; the prefix alone decides which format applies.
  if (isSegwitHrp(prefix)) {
    const segwit = decodeSegwitAddress(input);
    return segwit.ok ? ok(lower) : segwit;
  }
  const legacy = decodeBase58Address(input);
  if (legacy.ok) return ok(input);
  // A well-formed Bech32 string with another prefix is most likely another chain's address.
  const other = parseBech32(input);
  if (other.ok) return fail(`unknown network prefix "${other.value.hrp}" (expected bc, tb or bcrt)`);
  return legacy;
}
