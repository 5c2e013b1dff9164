// ERC-20 decoding: ABI words and addresses, and Transfer logs as signed balance deltas.
import { AbiCoder, zeroPadValue } from "ethers";
import type { ChainLog } from "./adapter";
import { DECIMALS_CALL, decimalsOf, decodeAddress, decodeTransferValue, decodeUint, readTokenDecimals, TRANSFER_TOPIC, transferDeltas, wordAt } from "./erc20";

const coder = AbiCoder.defaultAbiCoder();
const topic = (address: string) => zeroPadValue(address, 32);
const TOKEN = "0x00000000000000000000000000000000000000c0";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";

function transferLog(value: bigint): ChainLog {
  return {
    address: TOKEN,
    topics: [TRANSFER_TOPIC, topic(ALICE), topic(BOB)],
    data: coder.encode(["uint256"], [value]),
    blockNumber: 1,
    transactionHash: "0x01",
    logIndex: 0,
  };
}

describe("ERC-20 decoding", () => {
  it("decodes words and addresses exactly as the ABI encodes them and rejects malformed data", () => {
    expect(decodeAddress(topic("0xAbCdEf0000000000000000000000000000000001"))).toBe("0xabcdef0000000000000000000000000000000001");
    expect(decodeAddress(`0x${"0".repeat(24)}${"Ab".repeat(20)}`)).toBe(`0x${"ab".repeat(20)}`);
    expect(() => decodeAddress(`0x${"f".repeat(64)}`)).toThrow("an address word has non-zero upper bytes");
    expect(decodeTransferValue(coder.encode(["uint256"], [2n ** 256n - 1n]))).toBe(2n ** 256n - 1n);
    expect(decodeTransferValue(`0x${"0".repeat(60)}AbCd`)).toBe(0xabcdn);
    // What BigInt alone would let through: a word ending in whitespace, or a non-hex character inside it.
    expect(() => decodeTransferValue(`0x${"0".repeat(62)}1 `)).toThrow("expected a 32-byte word at index 0");
    expect(() => decodeTransferValue(`0x${"0".repeat(31)}g${"0".repeat(32)}`)).toThrow("expected a 32-byte word at index 0");
    expect(() => decodeTransferValue("0x")).toThrow("expected a 32-byte word at index 0");
    // 31 bytes of valid hex: one byte short of a word.
    expect(() => decodeTransferValue(`0x${"ab".repeat(31)}`)).toThrow("expected a 32-byte word at index 0");
  });

  it("refuses a word ending in any whitespace BigInt would trim, and names the data in the error", () => {
    for (const space of [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u2028", "\ufeff"]) {
      expect(() => decodeUint(`0x${"0".repeat(63)}${space}`)).toThrow("expected a 32-byte word at index 0");
    }
    const long = `0x${"0".repeat(300)}`;
    expect(() => wordAt(long, 5)).toThrow(expect.objectContaining({ code: "abi-decode-failed", details: { hex: long.slice(0, 200) } }));
  });

  it("refuses address words that are short, longer before the 0x, or not hex, whatever their shape", () => {
    for (const word of [`0x0${"ab".repeat(20)}`, `0x${"0".repeat(24)}a`, `0x${"0".repeat(24)}${"g".repeat(40)}`, `zz0x${"0".repeat(24)}${"ab".repeat(20)}`]) {
      expect(() => decodeAddress(word)).toThrow(expect.objectContaining({ code: "abi-decode-failed" }));
    }
  });

  it("knows the Transfer topic and the decimals() selector as every ERC-20 tool spells them", () => {
    expect(TRANSFER_TOPIC).toBe("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
    expect(DECIMALS_CALL).toBe("0x313ce567");
  });

  it("accepts a word ending in any hex digit of either case and refuses the characters next to them", () => {
    const word = (last: string) => `0x${"0".repeat(63)}${last}`;
    for (const [last, value] of [
      ["0", 0n],
      ["9", 9n],
      ["a", 10n],
      ["f", 15n],
      ["A", 10n],
      ["F", 15n],
    ] as const)
      expect(decodeUint(word(last))).toBe(value);
    // "/" and ":" surround 0-9, "`" and "g" surround a-f, "@" and "G" surround A-F.
    for (const last of ["/", ":", "`", "g", "@", "G"]) expect(() => decodeUint(word(last))).toThrow("expected a 32-byte word at index 0");
  });

  it("reads the word at an index, with the index in its error", () => {
    const data = coder.encode(["uint256", "uint256", "uint256"], [1n, 2n, 3n]);
    expect([0, 1, 2].map((i) => wordAt(data, i))).toEqual([1n, 2n, 3n]);
    expect(() => wordAt(data, 3)).toThrow("expected a 32-byte word at index 3");
    expect(() => wordAt(data, 3)).toThrow(expect.objectContaining({ code: "abi-decode-failed" }));
  });

  it("decodes an address from the first word of longer return data, keeping its leading zeros", () => {
    const data = coder.encode(["address", "uint256"], ["0x0000000000000000000000000000000000000001", 7n]);
    expect(decodeAddress(data)).toBe("0x0000000000000000000000000000000000000001");
    // The largest address: 160 bits set; one bit more is an upper byte.
    expect(decodeAddress(`0x${"0".repeat(24)}${"f".repeat(40)}00`)).toBe(`0x${"f".repeat(40)}`);
    expect(() => decodeAddress(`0x${"0".repeat(23)}1${"0".repeat(40)}`)).toThrow("an address word has non-zero upper bytes");
  });

  it("turns a Transfer into -value for the sender and +value for the recipient, in the given decimals and activity", () => {
    expect(transferDeltas(transferLog(1_234_500n), TOKEN, 6, "stake")).toEqual([
      { type: "balanceDelta", user: ALICE, asset: TOKEN, amount: "-1.2345", activity: "stake" },
      { type: "balanceDelta", user: BOB, asset: TOKEN, amount: "1.2345", activity: "stake" },
    ]);
    // A zero transfer moves nothing: no "-0".
    expect(transferDeltas(transferLog(0n), TOKEN, 18).map((d) => [d.amount, d.activity])).toEqual([
      ["0", "hold"],
      ["0", "hold"],
    ]);
  });

  it("refuses a Transfer without exactly three topics", () => {
    const log = transferLog(1n);
    expect(() => transferDeltas({ ...log, topics: [TRANSFER_TOPIC, topic(ALICE)] }, TOKEN, 18)).toThrow(
      `a Transfer of ${TOKEN} has 2 topics, an ERC-20 Transfer has 3 (is it an ERC-721?)`,
    );
    expect(() => transferDeltas({ ...log, topics: [...log.topics, topic(BOB)], logIndex: 4 }, TOKEN, 18)).toThrow(
      expect.objectContaining({ code: "abi-decode-failed", details: { txHash: "0x01", logIndex: 4 } }),
    );
  });
});

describe("readTokenDecimals", () => {
  const names = { adapter: "test", what: `token ${TOKEN}`, details: { token: TOKEN } };
  const answering = (answer: string | Error) => ({
    calls: [] as string[],
    async call(to: string, data: string) {
      this.calls.push(`${to}|${data}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });

  it("reads decimals() of the token, up to 77", async () => {
    for (const n of [0n, 6n, 18n, 77n]) {
      const chain = answering(coder.encode(["uint256"], [n]));
      expect(await readTokenDecimals(chain, TOKEN, names)).toBe(Number(n));
      expect(chain.calls).toEqual([`${TOKEN}|0x313ce567`]);
    }
  });

  it("fails with adapter-init-failed naming the token for an answer above 77 or a call that fails", async () => {
    await expect(readTokenDecimals(answering(coder.encode(["uint256"], [78n])), TOKEN, names)).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `test: token ${TOKEN} answered decimals() with 78, which no ERC-20 uses`,
      details: { token: TOKEN },
    });
    const reverted = new Error("execution reverted");
    await expect(readTokenDecimals(answering(reverted), TOKEN, names)).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `test: could not read decimals() of token ${TOKEN}`,
      cause: reverted,
    });
    await expect(readTokenDecimals(answering("0x"), TOKEN, names)).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `test: could not read decimals() of token ${TOKEN}`,
      cause: { code: "abi-decode-failed" },
    });
  });

  it("prints an answer beyond a JS number's precision exactly", async () => {
    // 2^64 as a JS number prints 18446744073709552000.
    await expect(readTokenDecimals(answering(coder.encode(["uint256"], [2n ** 64n])), TOKEN, names)).rejects.toMatchObject({
      message: `test: token ${TOKEN} answered decimals() with 18446744073709551616, which no ERC-20 uses`,
    });
  });
});

describe("decimalsOf", () => {
  const refusal = { code: "some-code", subject: "who: token 0xabc", details: { token: "0xabc" } };

  it("decodes the answer as a uint256 up to 77", () => {
    for (const n of [0, 6, 18, 77]) expect(decimalsOf(coder.encode(["uint256"], [n]), refusal)).toBe(n);
  });

  it("refuses an answer above 77 with the code it is given, the exact answer in the message, not masked to a uint8", () => {
    for (const [answer, printed] of [
      [78n, "78"],
      [256n, "256"],
      [2n ** 255n, "57896044618658097711785492504343953926634992332820282019728792003956564819968"],
    ] as const) {
      expect(() => decimalsOf(coder.encode(["uint256"], [answer]), refusal)).toThrow(
        expect.objectContaining({
          code: "some-code",
          message: `who: token 0xabc answered decimals() with ${printed}, which no ERC-20 uses`,
          details: { token: "0xabc" },
        }),
      );
    }
  });

  it("fails with abi-decode-failed for an answer that is no 32-byte word", () => {
    expect(() => decimalsOf("0x", refusal)).toThrow(expect.objectContaining({ code: "abi-decode-failed" }));
  });
});
