// The amm-v2 adapter: turns a pool's LP Transfers into balance deltas and its Swaps into priced actions.
import { BaseError } from "@pointwise/errors";
import { type Adapter, type AdapterRuntime, type ChainLog, type IndexerEvent, type LogContext, swapLegs, transferDeltas } from "@pointwise/indexer-engine";
import { decodeSwapAmounts, SWAP_TOPIC, TRANSFER_TOPIC } from "./abi";
import type { AmmV2Params } from "./params";
import { loadPoolTokens, type PoolTokens } from "./tokens";

/** LP tokens of a constant-product pool always have 18 decimals. */
export const LP_DECIMALS = 18;

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
  const token0 = { asset: tokens.token0, decimals: tokens.decimals0, raw: zeroToOne ? amount0In : amount0Out };
  const token1 = { asset: tokens.token1, decimals: tokens.decimals1, raw: zeroToOne ? amount1Out : amount1In };
  return zeroToOne ? swapLegs("amm-v2", log, ctx, token0, token1) : swapLegs("amm-v2", log, ctx, token1, token0);
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
