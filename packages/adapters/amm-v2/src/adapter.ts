// The amm-v2 adapter: turns a pool's LP Transfers into balance deltas and its Swaps into priced actions.
import { hash } from "node:crypto";
import { BaseError } from "@pointwise/errors";
import { type Adapter, type AdapterRuntime, type ChainLog, type IndexerEvent, type LogContext, transferDeltas, unitsFromRaw } from "@pointwise/indexer-engine";
import { decodeSwapAmounts, SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
import type { AmmV2Params } from "./params";
import { loadPoolTokens, type PoolTokens } from "./tokens";

/** LP tokens of a constant-product pool always have 18 decimals. */
export const LP_DECIMALS = 18;

/** The action key of a swap: MD5 of the transaction hash concatenated with the log index (decimal). */
export function swapKey(txHash: string, logIndex: number): string {
  return hash("md5", `${txHash}${logIndex}`, "hex");
}

/** Turns an LP-token Transfer into two balance deltas: the sender loses the value, the recipient gains it. */
export function lpTransferEvents(pool: string, log: ChainLog): IndexerEvent[] {
  return transferDeltas(log, pool, LP_DECIMALS);
}

/**
 * Turns a Swap log into two priceable swap actions (sold leg, bought leg) sharing one key. The direction is
 * token0 -> token1 when amount0In > 0, else token1 -> token0; swaps with a zero from- or to-amount are skipped.
 */
export function swapEvents(tokens: PoolTokens, log: ChainLog, ctx: LogContext): IndexerEvent[] {
  const { amount0In, amount1In, amount0Out, amount1Out } = decodeSwapAmounts(log.data);
  const zeroToOne = amount0In > 0n;
  const fromAmount = zeroToOne ? amount0In : amount1In;
  const toAmount = zeroToOne ? amount1Out : amount0Out;
  if (fromAmount === 0n || toAmount === 0n) return [];
  const user = ctx.transaction?.from;
  if (user === undefined || user === "") {
    throw new BaseError("adapter-failed", "amm-v2: transaction.from not found", { details: { txHash: log.transactionHash, logIndex: log.logIndex } });
  }
  const [fromAsset, fromDecimals, toAsset, toDecimals] = zeroToOne
    ? [tokens.token0, tokens.decimals0, tokens.token1, tokens.decimals1]
    : [tokens.token1, tokens.decimals1, tokens.token0, tokens.decimals0];
  const meta = {
    fromTkAddress: fromAsset,
    toTkAddress: toAsset,
    fromTkAmount: unitsFromRaw(fromAmount, fromDecimals),
    toTkAmount: unitsFromRaw(toAmount, toDecimals),
  };
  const key = swapKey(log.transactionHash, log.logIndex);
  return [
    { type: "action", key, activity: "swap", user: user.toLowerCase(), priceable: true, amount: { asset: fromAsset, amount: meta.fromTkAmount }, meta },
    { type: "action", key, activity: "swap", user: user.toLowerCase(), priceable: true, amount: { asset: toAsset, amount: meta.toTkAmount }, meta },
  ];
}

/** Creates the amm-v2 adapter for one pool. */
export function createAmmV2Adapter(params: AmmV2Params, runtime: AdapterRuntime): Adapter {
  const pool = params.poolAddress;
  let tokens: PoolTokens | undefined;
  const filters = [];
  if (params.trackLP === true) filters.push({ address: pool, topics: [TRANSFER_TOPIC], withTransaction: false });
  if (params.trackSwaps === true) filters.push({ address: pool, topics: [SWAP_TOPIC], withTransaction: true });

  return {
    filters,
    contracts: [pool],
    async init() {
      await runtime.labels.set(pool, { protocol: "amm-v2", role: "lp", decimals: String(LP_DECIMALS) });
      if (params.trackSwaps === true) {
        tokens = await loadPoolTokens(pool, runtime);
        // Labels let asset feed rules (and the ammv2nav pricer) use what was already read.
        await runtime.labels.set(pool, { token0: tokens.token0, token1: tokens.token1 });
        await runtime.labels.set(tokens.token0, { decimals: String(tokens.decimals0) });
        await runtime.labels.set(tokens.token1, { decimals: String(tokens.decimals1) });
      }
    },
    handle(log, ctx) {
      if (log.address !== pool) return [];
      const topic = log.topics[0];
      if (topic === TRANSFER_TOPIC && params.trackLP === true) return lpTransferEvents(pool, log);
      if (topic === SWAP_TOPIC && params.trackSwaps === true) {
        if (tokens === undefined) throw new BaseError("adapter-failed", "amm-v2: pool tokens were not loaded before the first swap");
        return swapEvents(tokens, log, ctx);
      }
      return [];
    },
  };
}
