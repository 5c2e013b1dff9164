// Bitcoin account ids against the BIP-173 and BIP-350 vectors, base58check examples and random addresses.
import { ValidationError } from "@pointwise/errors";
import { bech32, bech32m, createBase58check } from "@scure/base";
import { getBytes, hexlify, sha256 } from "ethers";
import fc from "fast-check";
import { normalizeAccountId } from "./identity";
import { BASE58_VERSIONS, decodeBase58Address, decodeSegwitAddress, parseBech32, SEGWIT_HRPS } from "./identity-bitcoin";
import { BASE58_EXAMPLES } from "./vectors/addresses";
import { BIP173_INVALID_BECH32, BIP173_INVALID_SEGWIT, BIP173_VALID_BECH32, BIP173_VALID_SEGWIT } from "./vectors/bip173";
import { BIP350_INVALID_BECH32M, BIP350_INVALID_SEGWIT, BIP350_VALID_BECH32M, BIP350_VALID_SEGWIT } from "./vectors/bip350";

const base58check = createBase58check((data) => getBytes(sha256(data)));

/** scriptPubKey of a witness output per BIP-141: OP_0 or OP_1..OP_16 (0x51..0x60), push length, program. */
function scriptPubKey(version: number, program: Uint8Array): string {
  const opcode = version === 0 ? 0 : 0x50 + version;
  return hexlify(new Uint8Array([opcode, program.length, ...program])).slice(2);
}

function btcError(address: string): ValidationError {
  try {
    normalizeAccountId("BTC_ADDRESS", address);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(address)} to be rejected`);
}

describe("Bech32 and Bech32m strings (BIP-173, BIP-350 checksum vectors)", () => {
  it.each(BIP173_VALID_BECH32)("accepts %j as bech32", (s) => {
    const parsed = parseBech32(s);
    expect(parsed).toMatchObject({ ok: true, value: { encoding: "bech32" } });
  });

  it.each(BIP350_VALID_BECH32M)("accepts %j as bech32m", (s) => {
    const parsed = parseBech32(s);
    expect(parsed).toMatchObject({ ok: true, value: { encoding: "bech32m" } });
  });

  // The reason each invalid vector is refused with: the first rule of BIP-173 it breaks, in the order
  // the BIP lists them (character range, length, case, separator, human-readable part, data, checksum).
  const reasons: Record<string, string> = {
    "\u00201nwldj5": "character U+0020 is out of range",
    "\u007f1axkwrx": "character U+007F is out of range",
    "\u00801eym55h": "character U+0080 is out of range",
    an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx: "longer than 90 characters",
    pzry9x0s0muk: "has no separator '1'",
    "1pzry9x0s0muk": "has an empty human-readable part",
    x1b4n0q5v: "invalid data character 'b'",
    li1dgmt3: "checksum is shorter than 6 characters",
    "de1lg7wt\u00ff": "character U+00FF is out of range",
    A1G7SGD8: "invalid bech32/bech32m checksum",
    "10a06t8": "has an empty human-readable part",
    "1qzzfhee": "has an empty human-readable part",
    "\u00201xj0phk": "character U+0020 is out of range",
    "\u007f1g6xzxy": "character U+007F is out of range",
    "\u00801vctc34": "character U+0080 is out of range",
    an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4: "longer than 90 characters",
    qyrz8wqd2c9m: "has no separator '1'",
    "1qyrz8wqd2c9m": "has an empty human-readable part",
    y1b0jsk6g: "invalid data character 'b'",
    lt1igcx5c0: "invalid data character 'i'",
    in1muywd: "checksum is shorter than 6 characters",
    mm1crxm3i: "invalid data character 'i'",
    au1s5cgom: "invalid data character 'o'",
    M1VUXWEZ: "invalid bech32/bech32m checksum",
    "16plkw9": "has an empty human-readable part",
    "1p2gdwpf": "has an empty human-readable part",
  };

  it.each([...BIP173_INVALID_BECH32, ...BIP350_INVALID_BECH32M])("rejects %j (%s) with the reason of the first rule it breaks", (s) => {
    expect(parseBech32(s)).toEqual({ ok: false, reason: reasons[s] });
  });

  it("refuses mixed case before looking at the checksum", () => {
    expect(parseBech32("A12uEL5L")).toEqual({ ok: false, reason: "mixes upper and lower case" });
  });

  it("accepts '!' and '~', the ends of the printable range, in the human-readable part", () => {
    const edge = bech32.encode("!~", []);
    expect(parseBech32(edge)).toEqual({ ok: true, value: { hrp: "!~", words: [], encoding: "bech32" } });
  });

  it("reads the human-readable part up to the last '1' and returns the data words", () => {
    // BIP-173's "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w": the data part starts after "split1".
    const parsed = parseBech32("split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w");
    const words = [..."checkupstagehandshakeupstreamerranterredcaperred"].map((c) => "qpzry9x8gf2tvdw0s3jn54khce6mua7l".indexOf(c));
    expect(parsed).toEqual({ ok: true, value: { hrp: "split", words, encoding: "bech32" } });
    expect(parseBech32("11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j")).toMatchObject({
      ok: true,
      value: { hrp: "1" },
    });
  });
});

describe("segwit addresses (BIP-350 vectors)", () => {
  it.each(BIP350_VALID_SEGWIT)("accepts $address and decodes it to its scriptPubKey", ({ address, scriptPubKey: spk }) => {
    const decoded = decodeSegwitAddress(address);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(scriptPubKey(decoded.value.version, decoded.value.program)).toBe(spk);
    expect(normalizeAccountId("BTC_ADDRESS", address)).toBe(address.toLowerCase());
  });

  // The reason each BIP-350 vector is invalid, as this module words it.
  const expectedReason: Record<string, RegExp> = {
    "Invalid human-readable part": /unknown network prefix "tc"/,
    "Invalid checksum (Bech32 instead of Bech32m)": /needs a bech32m checksum, got bech32$/,
    "Invalid checksum (Bech32m instead of Bech32)": /needs a bech32 checksum, got bech32m$/,
    "Invalid character in checksum": /invalid data character 'o'/,
    "Invalid witness version": /witness version 17 is above 16/,
    "Invalid program length (1 byte)": /witness program length 1 is outside 2 to 40 bytes/,
    "Invalid program length (41 bytes)": /witness program length 41 is outside 2 to 40 bytes/,
    "Invalid program length for witness version 0 (per BIP141)": /witness v0 program length 16 is neither 20 nor 32/,
    "Mixed case": /mixes upper and lower case/,
    "zero padding of more than 4 bits": /zero padding of more than 4 bits/,
    "Non-zero padding in 8-to-5 conversion": /non-zero padding bits/,
    "Empty data section": /empty data section/,
  };

  it.each(BIP350_INVALID_SEGWIT)("rejects %j with a reason matching the BIP's (%s)", (address, reason) => {
    const err = btcError(address);
    expect(err.code).toBe("invalid-account-id");
    expect(err.field).toBe("account_id");
    expect(err.message).toMatch(/^account_id is not a valid BTC_ADDRESS: /);
    const pattern = expectedReason[reason];
    if (!pattern) throw new Error(`no expected reason for ${reason}`);
    expect(err.message).toMatch(pattern);
  });
});

describe("segwit addresses (BIP-173 vectors)", () => {
  it.each(BIP173_VALID_SEGWIT.filter((v) => v.stillValid))("still accepts the v0 address $address", ({ address, scriptPubKey: spk }) => {
    const decoded = decodeSegwitAddress(address);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(scriptPubKey(decoded.value.version, decoded.value.program)).toBe(spk);
    expect(normalizeAccountId("BTC_ADDRESS", address)).toBe(address.toLowerCase());
  });

  it.each(BIP173_VALID_SEGWIT.filter((v) => !v.stillValid))("rejects the Bech32-encoded v1+ address $address that BIP-350 made invalid", ({ address }) => {
    expect(btcError(address).message).toMatch(/needs a bech32m checksum, got bech32$/);
  });

  // BIP-173 predates Bech32m: its v1+ vectors now fail on the checksum constant before the length rules.
  const reasons: Record<string, string> = {
    tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty: 'unknown network prefix "tc" (expected bc, tb or bcrt)',
    bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5: "invalid bech32/bech32m checksum",
    BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2: "witness version 17 is above 16",
    bc1rw5uspcuh: "witness version 3 needs a bech32m checksum, got bech32",
    bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90: "witness version 15 needs a bech32m checksum, got bech32",
    BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P: "witness v0 program length 16 is neither 20 nor 32 bytes",
    tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7: "mixes upper and lower case",
    bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du: "witness version 2 needs a bech32m checksum, got bech32",
    tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv: "non-zero padding bits",
    bc1gmk9yu: "empty data section",
  };

  it.each(BIP173_INVALID_SEGWIT)("rejects %j (%s) with the reason of the first rule it breaks", (address) => {
    const err = btcError(address);
    expect(err.code).toBe("invalid-account-id");
    expect(err.message).toBe(`account_id is not a valid BTC_ADDRESS: ${reasons[address]}`);
    expect(err.details).toEqual({ identity_type: "BTC_ADDRESS", reason: reasons[address] });
  });

  it("decodeSegwitAddress refuses a valid Bech32 string of another network by its prefix", () => {
    expect(decodeSegwitAddress("tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty")).toEqual({
      ok: false,
      reason: 'unknown network prefix "tc" (expected bc, tb or bcrt)',
    });
  });

  it("judges a string without a '1' as base58, even when it starts like a segwit prefix", () => {
    // "bcd" in base58 is 34 * 58^2 + 35 * 58 + 36 = 116442 = 0x01c6da: three bytes.
    expect(btcError("bcd").message).toBe("account_id is not a valid BTC_ADDRESS: base58 payload is 3 bytes, expected 25");
    expect(btcError("tbz").message).toMatch(/base58 payload is \d+ bytes, expected 25$/);
  });
});

describe("base58check addresses", () => {
  it.each(BASE58_EXAMPLES)("accepts $address as version $version and stores it as given", ({ address, version, hash }) => {
    const decoded = decodeBase58Address(address);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(decoded.value.version).toBe(version);
    expect(hexlify(decoded.value.hash).slice(2)).toBe(hash);
    expect(normalizeAccountId("BTC_ADDRESS", address)).toBe(address);
  });

  it("decodes the same key hash from the BIP-173 v0 address and its P2PKH address", () => {
    const segwit = decodeSegwitAddress("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4");
    const legacy = decodeBase58Address("1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH");
    if (!segwit.ok || !legacy.ok) throw new Error("expected both to decode");
    expect(hexlify(segwit.value.program)).toBe(hexlify(legacy.value.hash));
  });

  it("rejects a changed character with a checksum mismatch", () => {
    expect(btcError("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3").message).toBe("account_id is not a valid BTC_ADDRESS: base58check checksum mismatch");
  });

  it("accepts the version bytes Bitcoin Core uses for P2PKH and P2SH on mainnet and testnet, named", () => {
    expect([...BASE58_VERSIONS]).toEqual([
      [0x00, "mainnet P2PKH"],
      [0x05, "mainnet P2SH"],
      [0x6f, "testnet P2PKH"],
      [0xc4, "testnet P2SH"],
    ]);
    expect(SEGWIT_HRPS).toEqual(["bc", "tb", "bcrt"]);
  });

  it("rejects a version byte other than 0x00, 0x05, 0x6f and 0xc4", () => {
    const litecoinStyle = base58check.encode(new Uint8Array([0x30, ...new Uint8Array(20).fill(7)]));
    expect(btcError(litecoinStyle).message).toBe("account_id is not a valid BTC_ADDRESS: unsupported version byte 0x30");
    const low = base58check.encode(new Uint8Array([0x01, ...new Uint8Array(20).fill(7)]));
    expect(btcError(low).message).toBe("account_id is not a valid BTC_ADDRESS: unsupported version byte 0x01");
  });

  it("rejects a payload that is not 25 bytes", () => {
    const short = base58check.encode(new Uint8Array([0x00, ...new Uint8Array(19).fill(7)]));
    expect(btcError(short).message).toBe("account_id is not a valid BTC_ADDRESS: base58 payload is 24 bytes, expected 25");
  });

  it("rejects characters outside the base58 alphabet and overlong input", () => {
    expect(btcError("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0").message).toBe("account_id is not a valid BTC_ADDRESS: invalid base58 character '0'");
    expect(btcError("1".repeat(36)).message).toBe("account_id is not a valid BTC_ADDRESS: longer than 35 characters for a base58 address");
    expect(btcError("").message).toBe("account_id is not a valid BTC_ADDRESS: must not be empty");
  });
});

describe("generated Bitcoin addresses", () => {
  const segwitCase = fc
    .record({
      hrp: fc.constantFrom(...SEGWIT_HRPS),
      version: fc.integer({ min: 0, max: 16 }),
      upper: fc.boolean(),
      seed: fc.uint8Array({ minLength: 40, maxLength: 40 }),
      length: fc.integer({ min: 2, max: 40 }),
    })
    .map(({ hrp, version, upper, seed, length }) => {
      const size = version === 0 ? (length % 2 === 0 ? 20 : 32) : length;
      const program = seed.slice(0, size);
      const coder = version === 0 ? bech32 : bech32m;
      const address = coder.encode(hrp, [version, ...coder.toWords(program)]);
      return { address: upper ? address.toUpperCase() : address, lower: address, version, program };
    });

  it("accepts every valid segwit address and stores it lowercased", () => {
    fc.assert(
      fc.property(segwitCase, ({ address, lower, version, program }) => {
        expect(normalizeAccountId("BTC_ADDRESS", address)).toBe(lower);
        const decoded = decodeSegwitAddress(address);
        if (!decoded.ok) throw new Error(decoded.reason);
        expect(decoded.value.version).toBe(version);
        expect(hexlify(decoded.value.program)).toBe(hexlify(program));
      }),
    );
  });

  it("accepts every valid base58check address unchanged", () => {
    fc.assert(
      fc.property(fc.constantFrom(0x00, 0x05, 0x6f, 0xc4), fc.uint8Array({ minLength: 20, maxLength: 20 }), (version, hash) => {
        const address = base58check.encode(new Uint8Array([version, ...hash]));
        expect(normalizeAccountId("BTC_ADDRESS", address)).toBe(address);
      }),
    );
  });

  it("throws nothing but an invalid-account-id ValidationError for arbitrary text", () => {
    const bech32ish = fc
      .tuple(fc.constantFrom("bc1", "tb1", "BC1", "bcrt1", "ltc1", ""), fc.stringMatching(/^[qpzry9x8gf2tvdw0s3jn54khce6mua7lQP]{0,80}$/))
      .map(([prefix, rest]) => prefix + rest);
    const base58ish = fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{20,40}$/);
    fc.assert(
      fc.property(fc.oneof(bech32ish, base58ish, fc.string({ unit: "binary", maxLength: 100 })), (input) => {
        try {
          const stored = normalizeAccountId("BTC_ADDRESS", input);
          // A stored form is a fixed point: validating it again changes nothing.
          expect(normalizeAccountId("BTC_ADDRESS", stored)).toBe(stored);
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect((err as ValidationError).code).toBe("invalid-account-id");
        }
      }),
      { numRuns: 300 },
    );
  });
});
