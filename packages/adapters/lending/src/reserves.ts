// Reads the market's reserves from its Pool once (aToken, variable debt token, decimals) and caches them.
import { BaseError } from "@pointwise/errors";
import { type AdapterRuntime, contractNotFound, decodeAddress, readTokenDecimals, wordAt } from "@pointwise/indexer-engine";
import { AbiCoder, ZeroAddress } from "ethers";
import { GET_RESERVE_DATA, GET_RESERVES_LIST, RESERVE_DATA_WORDS } from "./abi";
import type { ReserveState } from "./ray";

/** Protocol part of the adapter's state-store keys. */
export const PROTOCOL_PREFIX = "lending";

/** One reserve of the market: its underlying token, the tokens that carry supply and variable debt, and decimals. */
export interface Reserve {
  asset: string;
  aToken: string;
  debtToken: string;
  decimals: number;
}

const coder = AbiCoder.defaultAbiCoder();
const word = (hex: string, index: number) => `0x${hex.slice(2 + index * 64, 2 + (index + 1) * 64)}`;

/** Pool.getReserveData(asset) at `blockTag`; a failed or short answer means the address is no Aave V3 Pool. */
export async function readReserveData(runtime: AdapterRuntime, pool: string, asset: string, blockTag?: number): Promise<string> {
  let data: string;
  try {
    data = await runtime.chain.call(pool, GET_RESERVE_DATA + coder.encode(["address"], [asset]).slice(2), blockTag);
  } catch (err) {
    throw notAPool(pool, "getReserveData(address) failed", err);
  }
  if (data.length < 2 + RESERVE_DATA_WORDS.count * 64) throw notAPool(pool, "getReserveData(address) gave no ReserveData");
  return data;
}

/** The interest state in a getReserveData answer. */
export function reserveStateOf(data: string): ReserveState {
  return {
    liquidityIndex: wordAt(data, RESERVE_DATA_WORDS.liquidityIndex),
    liquidityRate: wordAt(data, RESERVE_DATA_WORDS.liquidityRate),
    variableBorrowIndex: wordAt(data, RESERVE_DATA_WORDS.variableBorrowIndex),
    variableBorrowRate: wordAt(data, RESERVE_DATA_WORDS.variableBorrowRate),
    updatedAt: wordAt(data, RESERVE_DATA_WORDS.lastUpdateTimestamp),
  };
}

function notAPool(pool: string, why: string, cause?: unknown): BaseError {
  return contractNotFound({ cause, details: { reason: `${pool} is not an Aave V3 Pool: ${why}`, address: pool } });
}

async function reservesList(runtime: AdapterRuntime, pool: string): Promise<string[]> {
  try {
    const [list] = coder.decode(["address[]"], await runtime.chain.call(pool, GET_RESERVES_LIST)) as unknown as [string[]];
    return list.map((a) => a.toLowerCase());
  } catch (err) {
    throw notAPool(pool, "getReservesList() failed", err);
  }
}

function readDecimals(runtime: AdapterRuntime, asset: string): Promise<number> {
  return readTokenDecimals(runtime.chain, asset, { adapter: "lending", what: `reserve asset ${asset}`, details: { asset } });
}

/**
 * The reserves to track: `assets`, or every reserve the Pool lists. Read once and cached in the state store under
 * the adapter-config hash, so a restart tracks the same reserves (a reserve listed later is not picked up mid-index).
 */
export async function loadReserves(runtime: AdapterRuntime, pool: string, assets: readonly string[] | undefined): Promise<Reserve[]> {
  const key = `${runtime.adapterConfigHash}:${PROTOCOL_PREFIX}:${pool}:reserves`;
  const cached = await runtime.store.get(key);
  if (cached !== undefined) return JSON.parse(cached) as Reserve[];
  const list = assets ?? (await reservesList(runtime, pool));
  if (list.length === 0) throw new BaseError("adapter-init-failed", `lending: the Aave V3 Pool ${pool} lists no reserves`, { details: { pool } });
  const reserves: Reserve[] = [];
  for (const asset of list) {
    const data = await readReserveData(runtime, pool, asset);
    const aToken = decodeAddress(word(data, RESERVE_DATA_WORDS.aToken));
    const debtToken = decodeAddress(word(data, RESERVE_DATA_WORDS.variableDebtToken));
    // getReserveData answers an empty ReserveData (the zero address as aToken) for an asset that is no reserve.
    if (aToken === ZeroAddress)
      throw new BaseError("reserve-not-found", `lending: ${asset} is not a reserve of the Aave V3 Pool ${pool}`, { details: { pool, asset } });
    reserves.push({ asset, aToken, debtToken, decimals: await readDecimals(runtime, asset) });
  }
  await runtime.store.set(key, JSON.stringify(reserves));
  runtime.logger.info({ pool, reserves: reserves.map((r) => r.asset) }, "lending reserves loaded");
  return reserves;
}
