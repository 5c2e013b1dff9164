// EIP-55 checksummed addresses for the participant page: wallets such as MetaMask answer addresses in lowercase, and an
// EIP-4361 message must carry the checksummed form. Keccak-256 (the original Keccak padding, as Ethereum uses it) is
// written out from the Keccak reference (keccak.team, "The Keccak reference", round constants and rotation offsets of
// Keccak-f[1600]), on 64-bit lanes held as BigInt: slow, and plenty for 40 characters.

(() => {
  const MASK = (1n << 64n) - 1n;
  /** Rotation offsets of lane x + 5y (the rho step). */
  const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14].map(BigInt);
  /** Round constants of the iota step, made by the reference's LFSR (x^8 + x^6 + x^5 + x^4 + 1). */
  const ROUND_CONSTANTS = (() => {
    const constants = [];
    let r = 1;
    for (let round = 0; round < 24; round++) {
      let c = 0n;
      for (let j = 0; j < 7; j++) {
        if (r & 1) c |= 1n << BigInt((1 << j) - 1);
        r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : (r << 1) & 0xff;
      }
      constants.push(c);
    }
    return constants;
  })();
  const rotl = (x, n) => (n === 0n ? x : ((x << n) | (x >> (64n - n))) & MASK);

  /** Keccak-f[1600] on 25 lanes, in place. */
  function permute(a) {
    for (let round = 0; round < 24; round++) {
      const c = [0, 1, 2, 3, 4].map((x) => a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]);
      for (let x = 0; x < 5; x++) {
        const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1n);
        for (let y = 0; y < 25; y += 5) a[x + y] ^= d;
      }
      const b = new Array(25);
      for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROTATIONS[x + 5 * y]);
      for (let y = 0; y < 25; y += 5) for (let x = 0; x < 5; x++) a[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y]);
      a[0] ^= ROUND_CONSTANTS[round];
    }
  }

  /** Keccak-256 of `bytes` (a Uint8Array), as 32 bytes. */
  function keccak256(bytes) {
    const rate = 136;
    const padded = new Uint8Array(Math.floor(bytes.length / rate) * rate + rate);
    padded.set(bytes);
    padded[bytes.length] ^= 0x01;
    padded[padded.length - 1] ^= 0x80;
    const state = new Array(25).fill(0n);
    for (let block = 0; block < padded.length; block += rate) {
      for (let lane = 0; lane < rate / 8; lane++) {
        let word = 0n;
        for (let i = 7; i >= 0; i--) word = (word << 8n) | BigInt(padded[block + lane * 8 + i]);
        state[lane] ^= word;
      }
      permute(state);
    }
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn);
    return out;
  }

  /** `0x` and 40 hex digits in EIP-55 form: a letter is upper case where the Keccak-256 of the lowercase hex has a nibble >= 8. */
  function checksumAddress(address) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not an EVM address: ${address}`);
    const hex = address.slice(2).toLowerCase();
    const hash = keccak256(new TextEncoder().encode(hex));
    let out = "0x";
    for (let i = 0; i < 40; i++) {
      const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
      out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
    }
    return out;
  }

  globalThis.PointwiseEip55 = { keccak256, checksumAddress };
})();
