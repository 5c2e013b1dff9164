// Actions adapters make from logs: the key every such action carries, and the spec's swap as a sold and a bought leg.
import { hash } from "node:crypto";
import { BaseError } from "@pointwise/errors";
import type { ChainLog, LogContext } from "./adapter";
import { unitsFromRaw } from "./decimal";
import type { IndexerEvent } from "./events";

/** One side of a swap: a token and the amount that changed hands, in the token's base units. */
export interface SwapSide {
  asset: string;
  decimals: number;
  raw: bigint;
}

/** The key of an action made from a log (a swap's legs, a vault move): MD5 of the transaction hash followed by the log index in decimal. */
export function actionKey(txHash: string, logIndex: number): string {
  return hash("md5", `${txHash}${logIndex}`, "hex");
}

/**
 * The two swap actions of a Swap log, sold leg first, for the transaction's sender (lowercase): one key, activity
 * `swap`, both priceable, each leg's amount in token units, and one meta (`fromTkAddress`, `toTkAddress`,
 * `fromTkAmount`, `toTkAmount`) on both. A swap with a zero (or negative) sold or bought amount has no legs. A log
 * whose sender is not known fails with `adapter-failed`, named by `adapterId`: the adapter's filter asked for it.
 */
export function swapLegs(adapterId: string, log: ChainLog, ctx: LogContext, sold: SwapSide, bought: SwapSide): IndexerEvent[] {
  if (sold.raw <= 0n || bought.raw <= 0n) return [];
  const user = ctx.transaction?.from;
  if (user === undefined || user === "") {
    throw new BaseError("adapter-failed", `${adapterId}: transaction.from not found`, { details: { txHash: log.transactionHash, logIndex: log.logIndex } });
  }
  const meta = {
    fromTkAddress: sold.asset,
    toTkAddress: bought.asset,
    fromTkAmount: unitsFromRaw(sold.raw, sold.decimals),
    toTkAmount: unitsFromRaw(bought.raw, bought.decimals),
  };
  const key = actionKey(log.transactionHash, log.logIndex);
  const from = user.toLowerCase();
  return [
    { type: "action", key, activity: "swap", user: from, priceable: true, amount: { asset: sold.asset, amount: meta.fromTkAmount }, meta },
    { type: "action", key, activity: "swap", user: from, priceable: true, amount: { asset: bought.asset, amount: meta.toTkAmount }, meta },
  ];
}
