// The adapter's log decoders against ethers' own ABI decoding of the same logs, on random values of every field's full range.

import { AbiCoder, getAddress, hexlify, Interface, keccak256 } from "ethers";
import fc from "fast-check";
import {
  CALLS,
  DECREASE_TOPIC,
  decodeInitializeTick,
  decodeLiquidityChange,
  decodeMint,
  decodeSwap,
  INCREASE_TOPIC,
  INITIALIZE_TOPIC,
  MINT_TOPIC,
  positionAsset,
  SWAP_TOPIC,
  signedAt,
} from "./abi";

const pool = new Interface([
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Initialize(uint160 sqrtPriceX96, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
]);
const manager = new Interface([
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "function positions(uint256 tokenId)",
  "function ownerOf(uint256 tokenId)",
]);

const bits = (n: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(n)) - 1n });
const signed = (n: number) => fc.bigInt({ min: -(1n << BigInt(n - 1)), max: (1n << BigInt(n - 1)) - 1n });
// Values at and near the ends of a type's range come up as often as values in between.
const int256 = fc.oneof(signed(256), fc.constantFrom(-(1n << 255n), (1n << 255n) - 1n, -1n, 0n, 1n));
const int24 = fc.oneof(fc.integer({ min: -(2 ** 23), max: 2 ** 23 - 1 }), fc.constantFrom(-887272, 887272, -1, 0, 1, -(2 ** 23), 2 ** 23 - 1));
const address = bits(160).map((v) => `0x${v.toString(16).padStart(40, "0")}`);
const RUNS = { numRuns: 300 };
const ADDRESS_A = "0x00000000000000000000000000000000000000a1";

describe("amm-v3 log decoding agrees with ethers' ABI decoding", () => {
  it("topic hashes are the events' and functions' own selectors", () => {
    expect(SWAP_TOPIC).toBe(pool.getEvent("Swap")?.topicHash);
    expect(INITIALIZE_TOPIC).toBe(pool.getEvent("Initialize")?.topicHash);
    expect(MINT_TOPIC).toBe(pool.getEvent("Mint")?.topicHash);
    expect(INCREASE_TOPIC).toBe(manager.getEvent("IncreaseLiquidity")?.topicHash);
    expect(DECREASE_TOPIC).toBe(manager.getEvent("DecreaseLiquidity")?.topicHash);
    fc.assert(
      fc.property(bits(256), (tokenId) => {
        expect(CALLS.positions(tokenId)).toBe(manager.encodeFunctionData("positions", [tokenId]));
        expect(CALLS.ownerOf(tokenId)).toBe(manager.encodeFunctionData("ownerOf", [tokenId]));
      }),
      RUNS,
    );
  });

  it("Swap: signed amounts of either sign, sqrt price and a negative or positive tick", () => {
    fc.assert(
      fc.property(address, address, int256, int256, bits(160), bits(128), int24, (sender, recipient, amount0, amount1, sqrtPriceX96, liquidity, tick) => {
        const log = pool.encodeEventLog("Swap", [sender, recipient, amount0, amount1, sqrtPriceX96, liquidity, tick]);
        const oracle = pool.decodeEventLog("Swap", log.data, log.topics);
        expect(log.topics[0]).toBe(SWAP_TOPIC);
        expect(decodeSwap(log.data)).toEqual({
          amount0: oracle.amount0,
          amount1: oracle.amount1,
          sqrtPriceX96: oracle.sqrtPriceX96,
          tick: Number(oracle.tick),
        });
      }),
      RUNS,
    );
  });

  it("Initialize: the pool's first tick", () => {
    fc.assert(
      fc.property(bits(160), int24, (sqrtPriceX96, tick) => {
        const log = pool.encodeEventLog("Initialize", [sqrtPriceX96, tick]);
        expect(decodeInitializeTick(log.data)).toBe(Number(pool.decodeEventLog("Initialize", log.data, log.topics).tick));
      }),
      RUNS,
    );
  });

  it("Mint: owner and the indexed ticks (negative ones sign-extended in their topics) and the liquidity", () => {
    fc.assert(
      fc.property(address, address, int24, int24, bits(128), bits(256), bits(256), (sender, owner, tickLower, tickUpper, amount, amount0, amount1) => {
        const log = pool.encodeEventLog("Mint", [sender, owner, tickLower, tickUpper, amount, amount0, amount1]);
        const oracle = pool.decodeEventLog("Mint", log.data, log.topics);
        expect(decodeMint(log.topics, log.data)).toEqual({
          owner: (oracle.owner as string).toLowerCase(),
          tickLower: Number(oracle.tickLower),
          tickUpper: Number(oracle.tickUpper),
          amount: oracle.amount,
        });
      }),
      RUNS,
    );
  });

  it("IncreaseLiquidity and DecreaseLiquidity: the indexed token id and the liquidity", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("IncreaseLiquidity", "DecreaseLiquidity"),
        bits(256),
        bits(128),
        bits(256),
        bits(256),
        (event, tokenId, liquidity, amount0, amount1) => {
          const log = manager.encodeEventLog(event, [tokenId, liquidity, amount0, amount1]);
          const oracle = manager.decodeEventLog(event, log.data, log.topics);
          expect(decodeLiquidityChange(log.topics, log.data)).toEqual({ tokenId: oracle.tokenId, liquidity: oracle.liquidity });
        },
      ),
      RUNS,
    );
  });

  it("a position's asset is the last 20 bytes of keccak256 of ethers' abi.encode(positionManager, tokenId), whatever the address's letter case", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (bytes, tokenId) => {
        const address = getAddress(hexlify(bytes));
        const expected = `0x${keccak256(AbiCoder.defaultAbiCoder().encode(["address", "uint256"], [address, tokenId])).slice(-40)}`;
        expect(positionAsset(address, tokenId)).toBe(expected);
        expect(positionAsset(address.toLowerCase(), tokenId)).toBe(expected);
      }),
    );
  });

  it("signedAt reads any word of a sequence as ethers reads an int256 there", () => {
    const coder = AbiCoder.defaultAbiCoder();
    fc.assert(
      fc.property(fc.array(int256, { minLength: 1, maxLength: 5 }), (values) => {
        const data = coder.encode(
          values.map(() => "int256"),
          values,
        );
        values.forEach((v, i) => {
          expect(signedAt(data, i)).toBe(v);
        });
      }),
      RUNS,
    );
  });

  it("a log missing an indexed topic fails with abi-decode-failed, the missing topic read as empty", () => {
    const mint = pool.encodeEventLog("Mint", [ADDRESS_A, ADDRESS_A, -60, 60, 5n, 1n, 1n]);
    for (const n of [1, 2, 3])
      expect(() => decodeMint(mint.topics.slice(0, n), mint.data)).toThrow(
        expect.objectContaining({ code: "abi-decode-failed", message: "expected a 32-byte word at index 0", details: { hex: "" } }),
      );
    const increase = manager.encodeEventLog("IncreaseLiquidity", [7n, 5n, 1n, 1n]);
    expect(() => decodeLiquidityChange(increase.topics.slice(0, 1), increase.data)).toThrow(
      expect.objectContaining({ code: "abi-decode-failed", details: { hex: "" } }),
    );
  });
});
