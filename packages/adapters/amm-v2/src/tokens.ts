// Resolves a pool's token0/token1 and their decimals once, cached in the indexer's state store.
import { BaseError } from "@pointwise/errors";
import { type AdapterRuntime, readTokenDecimals } from "@pointwise/indexer-engine";
import { CALLS, decodeAddress } from "./abi";

/** The two tokens of a pool, lowercased, with their decimals. */
export interface PoolTokens {
  token0: string;
  token1: string;
  decimals0: number;
  decimals1: number;
}

/** Protocol part of the adapter's state-store keys. */
export const PROTOCOL_PREFIX = "amm-v2";

/** The state-store key prefix of a pool's cached facts: adapter-config hash, protocol prefix, pool address. */
export function poolKeyPrefix(adapterConfigHash: string, pool: string): string {
  return `${adapterConfigHash}:${PROTOCOL_PREFIX}:${pool.toLowerCase()}`;
}

/**
 * Reads token0/token1 (and their decimals) of a pool once: from the state store when cached, otherwise from the
 * chain, then caches them. Any failed read fails the adapter, since swaps cannot be attributed without them.
 */
export async function loadPoolTokens(pool: string, runtime: AdapterRuntime): Promise<PoolTokens> {
  const prefix = poolKeyPrefix(runtime.adapterConfigHash, pool);
  const keys = ["token0", "token1", "decimals0", "decimals1"] as const;
  const cached = await Promise.all(keys.map((k) => runtime.store.get(`${prefix}:${k}`)));
  const [c0, c1, d0, d1] = cached;
  if (c0 !== undefined && c1 !== undefined && d0 !== undefined && d1 !== undefined)
    return { token0: c0, token1: c1, decimals0: Number(d0), decimals1: Number(d1) };
  try {
    const token0 = decodeAddress(await runtime.chain.call(pool, CALLS.token0));
    const token1 = decodeAddress(await runtime.chain.call(pool, CALLS.token1));
    const decimalsOf = (token: string) =>
      readTokenDecimals(runtime.chain, token, { adapter: "amm-v2", what: `token ${token} of pool ${pool}`, details: { pool, token } });
    const decimals0 = await decimalsOf(token0);
    const decimals1 = await decimalsOf(token1);
    const tokens = { token0, token1, decimals0, decimals1 };
    for (const k of keys) await runtime.store.set(`${prefix}:${k}`, String(tokens[k]));
    runtime.logger.info({ pool, token0, token1 }, "amm-v2 pool tokens fetched");
    return tokens;
  } catch (err) {
    if (err instanceof BaseError && err.code === "adapter-init-failed") throw err;
    throw new BaseError("adapter-init-failed", `amm-v2: could not read token0/token1 of pool ${pool}`, { cause: err, details: { pool } });
  }
}
