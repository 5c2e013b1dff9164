/**
 * Test vectors published in BIP-173 ("Base32 address format for native v0-16 witness outputs"),
 * section "Test vectors": https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki
 * Reproduced as data; the reasons are the BIP's own words.
 */

/** Strings the BIP lists as valid Bech32 (any human-readable part). */
export const BIP173_VALID_BECH32: readonly string[] = [
  "A12UEL5L",
  "a12uel5l",
  "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
  "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
  "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
  "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
  "?1ezyfcl",
];

/** Strings the BIP lists as invalid Bech32, with its reason. */
export const BIP173_INVALID_BECH32: readonly (readonly [string, string])[] = [
  ["\u00201nwldj5", "HRP character out of range"],
  ["\u007f1axkwrx", "HRP character out of range"],
  ["\u00801eym55h", "HRP character out of range"],
  ["an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx", "overall max length exceeded"],
  ["pzry9x0s0muk", "No separator character"],
  ["1pzry9x0s0muk", "Empty HRP"],
  ["x1b4n0q5v", "Invalid data character"],
  ["li1dgmt3", "Too short checksum"],
  ["de1lg7wt\u00ff", "Invalid character in checksum"],
  ["A1G7SGD8", "checksum calculated with uppercase form of HRP"],
  ["10a06t8", "empty HRP"],
  ["1qzzfhee", "empty HRP"],
];

/**
 * Addresses the BIP lists as valid segwit addresses, with the scriptPubKey they translate to.
 * BIP-350 later replaced the checksum of witness versions 1 and above, so only the v0 entries
 * are still valid; `stillValid` records that (the v1+ entries reappear re-encoded in BIP-350).
 */
export const BIP173_VALID_SEGWIT: readonly {
  address: string;
  scriptPubKey: string;
  stillValid: boolean;
}[] = [
  {
    address: "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
    scriptPubKey: "0014751e76e8199196d454941c45d1b3a323f1433bd6",
    stillValid: true,
  },
  {
    address: "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    scriptPubKey: "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
    stillValid: true,
  },
  {
    address: "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx",
    scriptPubKey: "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
    stillValid: false,
  },
  { address: "BC1SW50QA3JX3S", scriptPubKey: "6002751e", stillValid: false },
  {
    address: "bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj",
    scriptPubKey: "5210751e76e8199196d454941c45d1b3a323",
    stillValid: false,
  },
  {
    address: "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    scriptPubKey: "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
    stillValid: true,
  },
];

/** Addresses the BIP lists as invalid segwit addresses, with its reason. */
export const BIP173_INVALID_SEGWIT: readonly (readonly [string, string])[] = [
  ["tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty", "Invalid human-readable part"],
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "Invalid checksum"],
  ["BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2", "Invalid witness version"],
  ["bc1rw5uspcuh", "Invalid program length"],
  ["bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90", "Invalid program length"],
  ["BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "Invalid program length for witness version 0 (per BIP141)"],
  ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", "Mixed case"],
  ["bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du", "zero padding of more than 4 bits"],
  ["tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv", "Non-zero padding in 8-to-5 conversion"],
  ["bc1gmk9yu", "Empty data section"],
];
