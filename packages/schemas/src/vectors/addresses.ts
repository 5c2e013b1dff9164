/**
 * Published example addresses used as fixed test points beside the generated ones.
 */

/**
 * The examples of EIP-55 ("Mixed-case checksum address encoding"), section "Test Cases":
 * https://eips.ethereum.org/EIPS/eip-55
 */
export const EIP55_CHECKSUMMED: readonly string[] = [
  // All caps
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  // All lower
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  // Normal
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

/**
 * Widely published base58check addresses (Bitcoin wiki and Bitcoin Core examples) with the
 * version byte and hash160 they carry.
 */
export const BASE58_EXAMPLES: readonly { address: string; version: number; hash: string }[] = [
  { address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", version: 0x00, hash: "77bff20c60e522dfaa3350c39b030a5d004e839a" },
  { address: "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", version: 0x05, hash: "b472a266d0bd89c13706a4132ccfb16f7c3b9fcb" },
  { address: "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", version: 0x6f, hash: "243f1394f44554f4ce3fd68649c19adc483ce924" },
  { address: "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", version: 0xc4, hash: "4e9f39ca4688ff102128ea4ccda34105324305b0" },
  // The P2PKH address of private key 1 (compressed): the same hash160 as the first BIP-173 vector.
  { address: "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", version: 0x00, hash: "751e76e8199196d454941c45d1b3a323f1433bd6" },
];

/** Well-known Solana program and mint addresses (each a 32-byte public key). */
export const SOLANA_EXAMPLES: readonly string[] = [
  "11111111111111111111111111111111", // System Program: 32 zero bytes
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", // SPL Token Program
  "So11111111111111111111111111111111111111112", // Wrapped SOL mint
  "EPjFWdd5AufqSSqeM2qN1xydpJi6Ayq8t1q8CFwrfHRR", // USDC mint: 44 characters, the longest a 32-byte key spells
];
