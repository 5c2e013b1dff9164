// Reads a pool's immutable facts once (tokens, decimals, fee, factory), cached in the indexer's state store.
import { BaseError } from "@pointwise/errors";
import { type AdapterRuntime, readTokenDecimals } from "@pointwise/indexer-engine";
import { CALLS, decodeAddress, decodeUint } from "./abi";

/** The two tokens of a pool (lowercased) with their decimals, the pool's fee tier and its factory. */
export interface PoolFacts {
  token0: string;
  token1: string;
  decimals0: number;
  decimals1: number;
  fee: number;
  factory: string;
}

/** Protocol part of the adapter's state-store keys. */
export const PROTOCOL_PREFIX = "amm-v3";

/** The state-store key prefix of a pool's cached facts: adapter-config hash, protocol prefix, pool address. */
export function poolKeyPrefix(adapterConfigHash: string, pool: string): string {
  return `${adapterConfigHash}:${PROTOCOL_PREFIX}:${pool.toLowerCase()}`;
}

const KEYS = ["token0", "token1", "decimals0", "decimals1", "fee", "factory"] as const;

/** Reads a pool's facts from the state store when cached, otherwise from the chain; any failed read fails the adapter. */
export async function loadPoolFacts(pool: string, runtime: AdapterRuntime): Promise<PoolFacts> {
  const prefix = poolKeyPrefix(runtime.adapterConfigHash, pool);
  const cached = await Promise.all(KEYS.map((k) => runtime.store.get(`${prefix}:${k}`)));
  const [t0, t1, d0, d1, fee, factory] = cached;
  if (cached.every((v) => v !== undefined))
    return { token0: t0 as string, token1: t1 as string, decimals0: Number(d0), decimals1: Number(d1), fee: Number(fee), factory: factory as string };
  try {
    const token0 = decodeAddress(await runtime.chain.call(pool, CALLS.token0));
    const token1 = decodeAddress(await runtime.chain.call(pool, CALLS.token1));
    const decimalsOf = (token: string) =>
      readTokenDecimals(runtime.chain, token, { adapter: "amm-v3", what: `token ${token} of pool ${pool}`, details: { pool, token } });
    const facts: PoolFacts = {
      token0,
      token1,
      decimals0: await decimalsOf(token0),
      decimals1: await decimalsOf(token1),
      fee: Number(decodeUint(await runtime.chain.call(pool, CALLS.fee))),
      factory: decodeAddress(await runtime.chain.call(pool, CALLS.factory)),
    };
    for (const k of KEYS) await runtime.store.set(`${prefix}:${k}`, String(facts[k]));
    runtime.logger.info({ pool, token0, token1, fee: facts.fee }, "amm-v3 pool facts fetched");
    return facts;
  } catch (err) {
    if (err instanceof BaseError && err.code === "adapter-init-failed") throw err;
    throw new BaseError("adapter-init-failed", `amm-v3: could not read token0/token1/fee of pool ${pool}`, { cause: err, details: { pool } });
  }
}

/** Checks that the position manager mints positions of the pool's factory; a position manager of another factory fails the adapter. */
export async function checkPositionManager(manager: string, pool: string, facts: PoolFacts, runtime: AdapterRuntime): Promise<void> {
  let factory: string;
  try {
    factory = decodeAddress(await runtime.chain.call(manager, CALLS.factory));
  } catch (err) {
    throw new BaseError("adapter-init-failed", `amm-v3: could not read factory() of position manager ${manager}`, { cause: err, details: { manager } });
  }
  if (factory !== facts.factory)
    throw new BaseError(
      "adapter-init-failed",
      `amm-v3: positionManagerAddress ${manager} belongs to factory ${factory}, but pool ${pool} was created by factory ${facts.factory}`,
      { details: { manager, pool, managerFactory: factory, poolFactory: facts.factory } },
    );
}
