// Actions from logs: the key rule, and the spec's swap as two priceable legs with the MD5 key of txHash + logIndex, amounts in token units, zero legs skipped.
import { createHash } from "node:crypto";
import { actionKey, swapLegs } from "./actions";

const TX = `0x${"ab".repeat(32)}`;
const USDC = "0x00000000000000000000000000000000000000c1";
const WETH = "0x00000000000000000000000000000000000000e1";
const log = { address: "0x00000000000000000000000000000000000000f1", topics: [], data: "0x", blockNumber: 9, transactionHash: TX, logIndex: 14 };
const ctx = { ts: 1_000, height: 9, txHash: TX, logIndex: 14, transaction: { from: "0x00000000000000000000000000000000000000AA" } };

describe("actionKey", () => {
  it("is the MD5 of the transaction hash followed by the log index in decimal", () => {
    expect(actionKey(TX, 14)).toBe(createHash("md5").update(`${TX}14`).digest("hex"));
    expect(actionKey(TX, 14)).not.toBe(actionKey(TX, 1));
  });
});

describe("swapLegs", () => {
  it("emits the sold leg then the bought leg for the lowercased sender, with one key and one meta in token units", () => {
    const legs = swapLegs("amm-x", log, ctx, { asset: USDC, decimals: 6, raw: 2_500_000n }, { asset: WETH, decimals: 18, raw: 10n ** 15n });
    const key = createHash("md5").update(`${TX}14`).digest("hex");
    const meta = { fromTkAddress: USDC, toTkAddress: WETH, fromTkAmount: "2.5", toTkAmount: "0.001" };
    const user = "0x00000000000000000000000000000000000000aa";
    expect(legs).toEqual([
      { type: "action", key, activity: "swap", user, priceable: true, amount: { asset: USDC, amount: "2.5" }, meta },
      { type: "action", key, activity: "swap", user, priceable: true, amount: { asset: WETH, amount: "0.001" }, meta },
    ]);
  });

  it.each([
    ["nothing sold", 0n, 5n],
    ["nothing bought", 5n, 0n],
    ["a negative sold amount", -5n, 5n],
    ["a negative bought amount", 5n, -5n],
  ])("has no legs for %s", (_name, sold, bought) => {
    expect(swapLegs("amm-x", log, ctx, { asset: USDC, decimals: 6, raw: sold }, { asset: WETH, decimals: 18, raw: bought })).toEqual([]);
  });

  it.each([
    ["no transaction", { ts: 1_000, height: 9, txHash: TX, logIndex: 14 }],
    ["an empty sender", { ...ctx, transaction: { from: "" } }],
  ])("fails with adapter-failed naming the adapter when the log has %s", (_name, without) => {
    const sides = [
      { asset: USDC, decimals: 6, raw: 1n },
      { asset: WETH, decimals: 18, raw: 1n },
    ] as const;
    expect(() => swapLegs("amm-x", log, without, ...sides)).toThrow(
      expect.objectContaining({ code: "adapter-failed", message: "amm-x: transaction.from not found", details: { txHash: TX, logIndex: 14 } }),
    );
  });
});
