/**
 * Test vectors published in BIP-350 ("Bech32m format for v1+ witness addresses"),
 * section "Test vectors": https://github.com/bitcoin/bips/blob/master/bip-0350.mediawiki
 * Reproduced as data; the reasons are the BIP's own words.
 */

/** Strings the BIP lists as valid Bech32m (and therefore, by the BIP, invalid Bech32). */
export const BIP350_VALID_BECH32M: readonly string[] = [
  "A1LQFN3A",
  "a1lqfn3a",
  "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
  "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
  "11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8",
  "split1checkupstagehandshakeupstreamerranterredcaperredlc445v",
  "?1v759aa",
];

/** Strings the BIP lists as invalid Bech32m, with its reason. */
export const BIP350_INVALID_BECH32M: readonly (readonly [string, string])[] = [
  ["\u00201xj0phk", "HRP character out of range"],
  ["\u007f1g6xzxy", "HRP character out of range"],
  ["\u00801vctc34", "HRP character out of range"],
  ["an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4", "overall max length exceeded"],
  ["qyrz8wqd2c9m", "No separator character"],
  ["1qyrz8wqd2c9m", "Empty HRP"],
  ["y1b0jsk6g", "Invalid data character"],
  ["lt1igcx5c0", "Invalid data character"],
  ["in1muywd", "Too short checksum"],
  ["mm1crxm3i", "Invalid character in checksum"],
  ["au1s5cgom", "Invalid character in checksum"],
  ["M1VUXWEZ", "checksum calculated with uppercase form of HRP"],
  ["16plkw9", "empty HRP"],
  ["1p2gdwpf", "empty HRP"],
];

/** Addresses the BIP lists as valid v0-v16 segwit addresses, with the scriptPubKey they translate to. */
export const BIP350_VALID_SEGWIT: readonly { address: string; scriptPubKey: string }[] = [
  {
    address: "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
    scriptPubKey: "0014751e76e8199196d454941c45d1b3a323f1433bd6",
  },
  {
    address: "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    scriptPubKey: "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
  },
  {
    address: "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    scriptPubKey: "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
  },
  { address: "BC1SW50QGDZ25J", scriptPubKey: "6002751e" },
  {
    address: "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
    scriptPubKey: "5210751e76e8199196d454941c45d1b3a323",
  },
  {
    address: "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    scriptPubKey: "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  },
  {
    address: "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
    scriptPubKey: "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  },
  {
    address: "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    scriptPubKey: "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
  },
];

/** Addresses the BIP lists as invalid segwit addresses, with its reason. */
export const BIP350_INVALID_SEGWIT: readonly (readonly [string, string])[] = [
  ["tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", "Invalid human-readable part"],
  ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", "Invalid checksum (Bech32 instead of Bech32m)"],
  ["tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", "Invalid checksum (Bech32 instead of Bech32m)"],
  ["BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", "Invalid checksum (Bech32 instead of Bech32m)"],
  ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", "Invalid checksum (Bech32m instead of Bech32)"],
  ["tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", "Invalid checksum (Bech32m instead of Bech32)"],
  ["bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", "Invalid character in checksum"],
  ["BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", "Invalid witness version"],
  ["bc1pw5dgrnzv", "Invalid program length (1 byte)"],
  ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", "Invalid program length (41 bytes)"],
  ["BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", "Invalid program length for witness version 0 (per BIP141)"],
  ["tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", "Mixed case"],
  ["bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", "zero padding of more than 4 bits"],
  ["tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j", "Non-zero padding in 8-to-5 conversion"],
  ["bc1gmk9yu", "Empty data section"],
];
