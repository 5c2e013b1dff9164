// The participant page's calls to the claim contract and its token: ABI call data written and answers read by hand (no library on the page).

(() => {
  // Function selectors: the first 4 bytes of keccak256 of each signature (docs/claims.md lists the functions).
  const SELECTORS = {
    claim: "0x2e7ba6ef", // claim(uint256,address,uint256,bytes32[])
    claimed: "0x120aa877", // claimed(uint256,address)
    redeem: "0xe1d73339", // redeem(address,uint256,uint256,uint256,bytes)
    voucherUsed: "0x9703396d", // voucherUsed(address,uint256)
    token: "0xfc0c546a", // token()
    decimals: "0x313ce567", // decimals()
    symbol: "0x95d89b41", // symbol()
  };

  /** One 32-byte word (64 hex digits) of an unsigned integer given as decimal text, a bigint or a number. */
  function uint(value) {
    const n = BigInt(value);
    if (n < 0n || n >= 1n << 256n) throw new Error(`${value} is not a uint256`);
    return n.toString(16).padStart(64, "0");
  }

  /** One word of an address (0x and 40 hex digits). */
  function address(value) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`${value} is not an address`);
    return value.slice(2).toLowerCase().padStart(64, "0");
  }

  /** One word of a bytes32 value (0x and 64 hex digits). */
  function bytes32(value) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new Error(`${value} is not a bytes32`);
    return value.slice(2).toLowerCase();
  }

  /** The tail of a dynamic `bytes` value: its length, then its bytes padded to whole words. */
  function bytes(value) {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new Error(`${value} is not hex bytes`);
    const hex = value.slice(2).toLowerCase();
    return uint(hex.length / 2) + hex.padEnd(Math.ceil(hex.length / 64) * 64, "0");
  }

  /** Call data of `claim(epoch, account, amount, proof)`: three words, the proof's offset (4 words in), its length and its words. */
  function claimCall(epoch, account, amount, proof) {
    return SELECTORS.claim + uint(epoch) + address(account) + uint(amount) + uint(4 * 32) + uint(proof.length) + proof.map(bytes32).join("");
  }

  /** Call data of `claimed(epoch, account)`. */
  function claimedCall(epoch, account) {
    return SELECTORS.claimed + uint(epoch) + address(account);
  }

  /** Call data of `redeem(user, amount, nonce, expiry, signature)` for a burn voucher as the portal API gives it. */
  function redeemCall(voucher) {
    return (
      SELECTORS.redeem + address(voucher.user) + uint(voucher.amount) + uint(voucher.nonce) + uint(voucher.expiry) + uint(5 * 32) + bytes(voucher.signature)
    );
  }

  /** Call data of `voucherUsed(user, nonce)`. */
  function voucherUsedCall(voucher) {
    return SELECTORS.voucherUsed + address(voucher.user) + uint(voucher.nonce);
  }

  /** The words of an eth_call answer. */
  function words(answer) {
    if (typeof answer !== "string" || !/^0x([0-9a-fA-F]{64})*$/.test(answer) || answer.length < 66)
      throw new Error("the chain gave no answer (is the wallet on the claim contract's chain?)");
    return answer.slice(2).match(/.{64}/g);
  }

  /** A uint256 answer, as a bigint. */
  function uintAnswer(answer) {
    return BigInt(`0x${words(answer)[0]}`);
  }

  /** A bool answer. */
  function boolAnswer(answer) {
    return uintAnswer(answer) !== 0n;
  }

  /** An address answer, lowercase. */
  function addressAnswer(answer) {
    return `0x${words(answer)[0].slice(24)}`;
  }

  /** A string answer (offset, length, UTF-8 bytes). */
  function stringAnswer(answer) {
    const all = words(answer).join("");
    const offset = Number(BigInt(`0x${all.slice(0, 64)}`)) * 2;
    const length = Number(BigInt(`0x${all.slice(offset, offset + 64)}`));
    const hex = all.slice(offset + 64, offset + 64 + length * 2);
    return new TextDecoder().decode(new Uint8Array(hex.match(/.{2}/g)?.map((b) => Number.parseInt(b, 16)) ?? []));
  }

  /** An amount in a token's base units as decimal text with `decimals` places, trailing zeros dropped ("5", "0.25"). */
  function formatUnits(amount, decimals) {
    const text = BigInt(amount)
      .toString()
      .padStart(decimals + 1, "0");
    const whole = text.slice(0, text.length - decimals);
    const fraction = text.slice(text.length - decimals).replace(/0+$/, "");
    return fraction ? `${whole}.${fraction}` : whole;
  }

  globalThis.PointwiseChain = {
    SELECTORS,
    claimCall,
    claimedCall,
    redeemCall,
    voucherUsedCall,
    uintAnswer,
    boolAnswer,
    addressAnswer,
    stringAnswer,
    formatUnits,
  };
})();
