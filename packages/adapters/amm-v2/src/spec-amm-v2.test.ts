// Spec rules of the constant-product pool adapter (amm-v2), each checked against a model written out in the test:
// swap direction and legs for every combination of In/Out amounts, exact LP deltas, and the required poolAddress.
import { createHash } from "node:crypto";
import { AdapterRegistry, type ChainLog, validateConfig } from "@pointwise/indexer-engine";
import { AbiCoder, zeroPadValue } from "ethers";
import fc from "fast-check";
import { SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
import { lpTransferEvents, swapEvents } from "./adapter";
import { ammV2Adapter } from "./index";

const POOL = "0x00000000000000000000000000000000000000a0";
const T0 = "0x00000000000000000000000000000000000000f0";
const T1 = "0x00000000000000000000000000000000000000f1";
const SENDER = "0x00000000000000000000000000000000000000c3";
const coder = AbiCoder.defaultAbiCoder();
const word = (address: string) => zeroPadValue(address, 32);

/** Base units as a plain decimal of `decimals` places, trailing zeros dropped, written out with string operations only. */
function units(raw: bigint, decimals: number): string {
  const digits = raw.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

const swapLog = (amounts: [bigint, bigint, bigint, bigint], txHash: string, logIndex: number): ChainLog => ({
  address: POOL,
  topics: [SWAP_TOPIC, word(SENDER), word(SENDER)],
  data: coder.encode(["uint256", "uint256", "uint256", "uint256"], amounts),
  blockNumber: 9,
  transactionHash: txHash,
  logIndex,
});

const amount = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 30n }));
const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${Buffer.from(b).toString("hex")}`);

describe("amm-v2 swap tracking (spec behavior rule 4)", () => {
  it("for any Swap amounts: direction by amount0In > 0, from = In of the sold side, to = Out of the bought side, two legs under MD5(txHash + logIndex)", () => {
    fc.assert(
      fc.property(
        fc.tuple(amount, amount, amount, amount),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 24 }),
        hex32,
        fc.nat({ max: 5000 }),
        ([a0In, a1In, a0Out, a1Out], decimals0, decimals1, txHash, logIndex) => {
          const tokens = { token0: T0, token1: T1, decimals0, decimals1 };
          const ctx = { ts: 1_700_000_000_000, height: 9, txHash, logIndex, transaction: { from: SENDER } };
          const events = swapEvents(tokens, swapLog([a0In, a1In, a0Out, a1Out], txHash, logIndex), ctx);

          // The model: token0 -> token1 exactly when amount0In > 0 (even when amount1In is also set).
          const sold = a0In > 0n ? { asset: T0, raw: a0In, dec: decimals0 } : { asset: T1, raw: a1In, dec: decimals1 };
          const bought = a0In > 0n ? { asset: T1, raw: a1Out, dec: decimals1 } : { asset: T0, raw: a0Out, dec: decimals0 };
          if (sold.raw === 0n || bought.raw === 0n) {
            expect(events).toEqual([]);
            return;
          }
          const key = createHash("md5").update(`${txHash}${logIndex}`).digest("hex");
          const meta = {
            fromTkAddress: sold.asset,
            toTkAddress: bought.asset,
            fromTkAmount: units(sold.raw, sold.dec),
            toTkAmount: units(bought.raw, bought.dec),
          };
          const legOf = (side: typeof sold) => ({
            type: "action",
            key,
            activity: "swap",
            user: SENDER,
            priceable: true,
            amount: { asset: side.asset, amount: units(side.raw, side.dec) },
            meta,
          });
          expect(events).toEqual([legOf(sold), legOf(bought)]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("sells token0 when both In amounts are set, pairing amount0In with amount1Out", () => {
    const ctx = { ts: 0, height: 9, txHash: "0xab", logIndex: 3, transaction: { from: SENDER } };
    const tokens = { token0: T0, token1: T1, decimals0: 0, decimals1: 0 };
    const events = swapEvents(tokens, swapLog([5n, 7n, 11n, 13n], "0xab", 3), ctx);
    expect(events.map((e) => e.type === "action" && [e.amount?.asset, e.amount?.amount])).toEqual([
      [T0, "5"],
      [T1, "13"],
    ]);
  });
});

describe("amm-v2 LP tracking (spec behavior rule 3)", () => {
  it("for any Transfer: the sender's delta is the exact negation of the recipient's, in 18-decimal units of the pool asset, activity hold", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }), (value) => {
        const log: ChainLog = {
          address: POOL,
          topics: [TRANSFER_TOPIC, word(SENDER), word(T0)],
          data: coder.encode(["uint256"], [value]),
          blockNumber: 9,
          transactionHash: "0xab",
          logIndex: 0,
        };
        const shown = units(value, 18);
        expect(lpTransferEvents(POOL, log)).toEqual([
          { type: "balanceDelta", user: SENDER, asset: POOL, amount: `-${shown}`, activity: "hold" },
          { type: "balanceDelta", user: T0, asset: POOL, amount: shown, activity: "hold" },
        ]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("amm-v2 params (spec: poolAddress required)", () => {
  const registry = new AdapterRegistry([ammV2Adapter]);
  const config = (params: Record<string, unknown>) => ({
    kind: "evm",
    indexerId: "spec-amm-v2",
    flushMs: 3_600_000,
    stateStoreUrl: "redis://127.0.0.1:6379",
    network: { chainId: 1 },
    range: { fromBlock: 1 },
    sinkConfig: { sinks: [{ sinkType: "stdout" }] },
    adapterConfig: { adapterId: "amm-v2", params },
  });
  const problems = (params: Record<string, unknown>) => {
    const result = validateConfig(config(params), registry);
    return result.ok ? [] : result.issues.map((i) => i.path);
  };

  it("refuses a config whose amm-v2 params lack poolAddress or hold null, naming adapterConfig.params.poolAddress", () => {
    expect(problems({ poolAddress: POOL, trackSwaps: true })).toEqual([]);
    expect(problems({ trackSwaps: true })).toContain("adapterConfig.params.poolAddress");
    expect(problems({ poolAddress: null, trackLP: true })).toContain("adapterConfig.params.poolAddress");
    expect(ammV2Adapter.paramsSchema.safeParse({ trackSwaps: true, trackLP: true }).success).toBe(false);
  });

  it("accepts each flag alone as true, whatever the other one says", () => {
    for (const flags of [{ trackSwaps: true }, { trackLP: true }, { trackSwaps: true, trackLP: false }, { trackSwaps: false, trackLP: true }]) {
      expect({ flags, problems: problems({ poolAddress: POOL, ...flags }) }).toEqual({ flags, problems: [] });
    }
  });
});
