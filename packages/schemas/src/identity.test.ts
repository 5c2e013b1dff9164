// Identity types and account-id normalisation for EVM (EIP-55), Solana and provider ids.
import { ValidationError } from "@pointwise/errors";
import { base58 } from "@scure/base";
import { getAddress, hexlify, ZeroAddress } from "ethers";
import fc from "fast-check";
import { type AccountIdOptions, IDENTITY_TYPES, type IdentityType, isIdentityType, MAX_PROVIDER_ID, normalizeAccountId } from "./identity";
import { EIP55_CHECKSUMMED, SOLANA_EXAMPLES } from "./vectors/addresses";

const PROVIDER_TYPES = ["DISCORD_PROVIDER_ID", "X_PROVIDER_ID", "GITHUB_PROVIDER_ID"] as const;

function rejection(type: IdentityType, accountId: unknown, options: AccountIdOptions = {}): ValidationError {
  try {
    normalizeAccountId(type, accountId, options);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected ${String(accountId)} to be rejected as ${type}`);
}

function flipCase(char: string): string {
  return char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
}

describe("isIdentityType", () => {
  it.each(IDENTITY_TYPES)("accepts %s", (type) => {
    expect(isIdentityType(type)).toBe(true);
  });

  it.each(["evm_address", " EVM_ADDRESS", "EVM_ADDRESS ", "EVM", "", "toString", "__proto__", 1, null, undefined, {}])("rejects %j", (value) => {
    expect(isIdentityType(value)).toBe(false);
  });
});

describe("normalizeAccountId: shared rules", () => {
  it("rejects an identity_type outside the list with the interface's message", () => {
    const err = rejection("SOMETHING" as IdentityType, "x");
    expect(err.message).toBe("invalid identity_type");
    expect(err.code).toBe("validation-failed");
    expect(err.field).toBe("identity_type");
  });

  it.each(IDENTITY_TYPES)("rejects a non-string account_id for %s with a message naming the type", (type) => {
    for (const value of [null, undefined, true, {}, [], 12]) {
      const err = rejection(type, value);
      expect(err.code).toBe("invalid-account-id");
      expect(err.field).toBe("account_id");
      expect(err.message).toMatch(new RegExp(`^account_id is not a valid ${type}: must be a string, got `));
      expect(err.details).toMatchObject({ identity_type: type });
    }
  });

  it.each(PROVIDER_TYPES)("tells a client sending %s as a JSON number that precision would be lost", (type) => {
    expect(rejection(type, 123456789).message).toBe(`account_id is not a valid ${type}: must be a string, got a number (a number would lose precision)`);
  });

  it("gives the precision hint only to a number sent as a provider id", () => {
    expect(rejection("DISCORD_PROVIDER_ID", null).message).toBe("account_id is not a valid DISCORD_PROVIDER_ID: must be a string, got null");
    expect(rejection("GITHUB_PROVIDER_ID", true).message).toBe("account_id is not a valid GITHUB_PROVIDER_ID: must be a string, got a boolean");
    expect(rejection("EVM_ADDRESS", 12).message).toBe("account_id is not a valid EVM_ADDRESS: must be a string, got a number");
    expect(rejection("EMAIL", 12).message).toBe("account_id is not a valid EMAIL: must be a string, got a number");
  });

  it.each(IDENTITY_TYPES)("throws nothing but invalid-account-id for arbitrary input as %s", (type) => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 80 }), fc.anything()), (input) => {
        try {
          const stored = normalizeAccountId(type, input);
          expect(normalizeAccountId(type, stored)).toBe(stored);
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect((err as ValidationError).code).toBe("invalid-account-id");
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("EVM_ADDRESS", () => {
  it.each(EIP55_CHECKSUMMED)("accepts the EIP-55 example %s and stores it lowercase", (address) => {
    expect(normalizeAccountId("EVM_ADDRESS", address)).toBe(address.toLowerCase());
  });

  it("accepts the lowercase and uppercase spellings of a checksummed address as the same identity", () => {
    const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const hex = address.slice(2);
    const forms = [address, `0x${hex.toLowerCase()}`, `0x${hex.toUpperCase()}`];
    expect(new Set(forms.map((f) => normalizeAccountId("EVM_ADDRESS", f)))).toEqual(new Set([address.toLowerCase()]));
  });

  it("rejects a mixed-case address whose letter case breaks the checksum", () => {
    const broken = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
    expect(rejection("EVM_ADDRESS", broken).message).toBe("account_id is not a valid EVM_ADDRESS: EIP-55 checksum mismatch");
  });

  it.each([
    ["5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", /must start with 0x/],
    ["0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", /must start with 0x/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea", /must have 40 hex digits after 0x, got 38/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00", /must have 40 hex digits after 0x, got 42/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", /not a hex digit/],
    ["0xg5aaeb6053f3e94c9b9a09f33669435e7ef1beae", /not a hex digit/],
    ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1be ed", /not a hex digit/],
    [" 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", /must start with 0x/],
    ["", /must start with 0x/],
  ])("rejects %j", (input, reason) => {
    const err = rejection("EVM_ADDRESS", input);
    expect(err.code).toBe("invalid-account-id");
    expect(err.message).toMatch(reason);
  });

  // ethers' constant; digits have no case, so its lower, upper and EIP-55 spellings are one string.
  const zeroForms = [ZeroAddress, `0x${ZeroAddress.slice(2).toUpperCase()}`, getAddress(ZeroAddress), "0x0000000000000000000000000000000000000000"];

  it("reads the zero address as a stored identity (for lookups and exclusions), stored as 0x and 40 zeros", () => {
    for (const form of zeroForms) expect(normalizeAccountId("EVM_ADDRESS", form)).toBe("0x0000000000000000000000000000000000000000");
    expect(normalizeAccountId("EVM_ADDRESS", ZeroAddress, { entry: false })).toBe("0x0000000000000000000000000000000000000000");
  });

  it("refuses the zero address where an identity comes in ({ entry: true }) in every spelling that has the 0x prefix, naming the rule", () => {
    for (const form of zeroForms) {
      const err = rejection("EVM_ADDRESS", form, { entry: true });
      expect(err.code).toBe("invalid-account-id");
      expect(err.field).toBe("account_id");
      expect(err.message).toBe("account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds");
    }
    // With a capital X it is refused by the prefix rule before its digits are read.
    expect(rejection("EVM_ADDRESS", ZeroAddress.toUpperCase(), { entry: true }).message).toBe("account_id is not a valid EVM_ADDRESS: must start with 0x");
  });

  it("takes every identity but the zero address at entry exactly as when it is read", () => {
    expect(normalizeAccountId("EVM_ADDRESS", "0x0000000000000000000000000000000000000001", { entry: true })).toBe("0x0000000000000000000000000000000000000001");
    expect(normalizeAccountId("EMAIL", "Zero@Example.com", { entry: true })).toBe("zero@example.com");
    expect(normalizeAccountId("DISCORD_PROVIDER_ID", "80351110224678912", { entry: true })).toBe("80351110224678912");
  });

  it("accepts 0x…01, the address right after the zero address, as written", () => {
    expect(normalizeAccountId("EVM_ADDRESS", "0x0000000000000000000000000000000000000001")).toBe("0x0000000000000000000000000000000000000001");
  });

  // The zero address has its own tests (above); every other 20 bytes is a wallet.
  const randomAddress = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .filter((bytes) => bytes.some((b) => b !== 0))
    .map((bytes) => getAddress(hexlify(bytes)));

  it("accepts every generated address in checksummed, lower and upper case and stores it lowercase", () => {
    fc.assert(
      fc.property(randomAddress, (checksummed) => {
        const lower = checksummed.toLowerCase();
        expect(normalizeAccountId("EVM_ADDRESS", checksummed)).toBe(lower);
        expect(normalizeAccountId("EVM_ADDRESS", lower)).toBe(lower);
        expect(normalizeAccountId("EVM_ADDRESS", `0x${checksummed.slice(2).toUpperCase()}`)).toBe(lower);
      }),
    );
  });

  it("rejects every checksummed address with the case of one letter flipped while still mixed case", () => {
    fc.assert(
      fc.property(randomAddress, fc.nat(), (checksummed, pick) => {
        const letters = [...checksummed.slice(2)].flatMap((c, i) => (/[a-f]/i.test(c) ? [i + 2] : []));
        fc.pre(letters.length > 0);
        const at = letters[pick % letters.length] ?? 2;
        const mutated = checksummed.slice(0, at) + flipCase(checksummed.charAt(at)) + checksummed.slice(at + 1);
        const hex = mutated.slice(2);
        // A single-case result carries no checksum and is valid by design.
        fc.pre(hex !== hex.toLowerCase() && hex !== hex.toUpperCase());
        expect(rejection("EVM_ADDRESS", mutated).message).toMatch(/EIP-55 checksum mismatch$/);
      }),
    );
  });
});

describe("SOLANA_ADDRESS", () => {
  it.each(SOLANA_EXAMPLES)("accepts %s and stores it as given", (address) => {
    expect(normalizeAccountId("SOLANA_ADDRESS", address)).toBe(address);
  });

  it("accepts a 44-character address, the longest spelling of a 32-byte key", () => {
    // 32 bytes of 0xff is the largest key: 2^256 - 1 needs ceil(256 / log2(58)) = 44 base58 digits.
    const largest = base58.encode(new Uint8Array(32).fill(255));
    for (const address of ["EPjFWdd5AufqSSqeM2qN1xydpJi6Ayq8t1q8CFwrfHRR", largest]) {
      expect(address).toHaveLength(44);
      expect(normalizeAccountId("SOLANA_ADDRESS", address)).toBe(address);
    }
  });

  it("refuses 31 and 45 characters by their length, before decoding", () => {
    expect(rejection("SOLANA_ADDRESS", "1".repeat(31)).message).toBe("account_id is not a valid SOLANA_ADDRESS: must be 32 to 44 base58 characters, got 31");
    expect(rejection("SOLANA_ADDRESS", "2".repeat(45)).message).toBe("account_id is not a valid SOLANA_ADDRESS: must be 32 to 44 base58 characters, got 45");
  });

  it("rejects base58 that decodes to a length other than 32 bytes", () => {
    const long = base58.encode(new Uint8Array(33).fill(255));
    expect(rejection("SOLANA_ADDRESS", long).message).toMatch(/must be 32 to 44 base58 characters, got 46/);
    // 33 zero bytes spell 33 '1's: short enough to pass the length bound, one byte too many.
    expect(rejection("SOLANA_ADDRESS", "1".repeat(33)).message).toMatch(/decodes to 33 bytes, expected 32/);
    const shortBytes = base58.encode(new Uint8Array(31).fill(255));
    expect(rejection("SOLANA_ADDRESS", shortBytes).message).toMatch(/decodes to 31 bytes, expected 32/);
  });

  it("rejects characters outside the base58 alphabet", () => {
    const withZero = `0${SOLANA_EXAMPLES[1]?.slice(1)}`;
    expect(rejection("SOLANA_ADDRESS", withZero).message).toBe("account_id is not a valid SOLANA_ADDRESS: invalid base58 character '0'");
    expect(rejection("SOLANA_ADDRESS", `${SOLANA_EXAMPLES[1]?.slice(0, -1)} `).message).toMatch(/invalid base58 character U\+0020/);
  });

  it("accepts every generated 32-byte key unchanged and rejects other lengths", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        const address = base58.encode(bytes);
        if (bytes.length === 32) expect(normalizeAccountId("SOLANA_ADDRESS", address)).toBe(address);
        else expect(rejection("SOLANA_ADDRESS", address).code).toBe("invalid-account-id");
      }),
    );
  });
});

describe.each(PROVIDER_TYPES)("%s", (type) => {
  it("accepts 1 and 2^64-1 unchanged", () => {
    expect(normalizeAccountId(type, "1")).toBe("1");
    expect(normalizeAccountId(type, MAX_PROVIDER_ID)).toBe(MAX_PROVIDER_ID);
    expect(MAX_PROVIDER_ID).toBe((2n ** 64n - 1n).toString());
  });

  it.each([
    ["18446744073709551616", /must be at most 18446744073709551615/],
    ["99999999999999999999", /must be at most 18446744073709551615/],
    ["100000000000000000000", /must be at most 18446744073709551615/],
    ["0", /must be at least 1/],
    ["007", /must not have leading zeros/],
    ["", /must not be empty/],
    ["-1", /only the decimal digits/],
    ["+1", /only the decimal digits/],
    ["1.0", /only the decimal digits/],
    ["1e3", /only the decimal digits/],
    [" 12", /only the decimal digits/],
    ["١٢٣", /only the decimal digits/],
  ])("rejects %j", (input, reason) => {
    const err = rejection(type, input);
    expect(err.message).toMatch(new RegExp(`^account_id is not a valid ${type}: `));
    expect(err.message).toMatch(reason);
  });

  it("accepts every id from 1 to 2^64-1 as its decimal string and rejects every larger one", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 2n ** 64n, max: 2n ** 80n }), (id, tooBig) => {
        expect(normalizeAccountId(type, id.toString())).toBe(id.toString());
        expect(rejection(type, tooBig.toString()).message).toMatch(/must be at most/);
      }),
    );
  });
});
