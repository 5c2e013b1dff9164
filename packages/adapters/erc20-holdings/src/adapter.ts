// The erc20-holdings adapter: each Transfer of one token moves two holders' balances; decimals cached.
import { BaseError } from "@pointwise/errors";
import { type Adapter, type AdapterRuntime, readTokenDecimals, TRANSFER_TOPIC, transferDeltas } from "@pointwise/indexer-engine";
import type { Erc20HoldingsParams } from "./params";

/** Protocol part of the adapter's state-store keys. */
export const PROTOCOL_PREFIX = "erc20-holdings";

/**
 * Reads a token's decimals once: from the state store when cached (under the adapter-config hash, the
 * protocol prefix and the token), otherwise from the chain, then caches them. A failed or absurd read
 * fails the adapter, since no amount could be scaled without it.
 */
export async function loadDecimals(token: string, runtime: AdapterRuntime): Promise<number> {
  const key = `${runtime.adapterConfigHash}:${PROTOCOL_PREFIX}:${token}:decimals`;
  const cached = await runtime.store.get(key);
  if (cached !== undefined) return Number(cached);
  const decimals = await readTokenDecimals(runtime.chain, token, { adapter: "erc20-holdings", what: `token ${token}`, details: { token } });
  await runtime.store.set(key, String(decimals));
  runtime.logger.info({ token, decimals }, "erc20-holdings token decimals fetched");
  return decimals;
}

/** Creates the erc20-holdings adapter for one token: each Transfer moves the two holders' balances. */
export function createErc20HoldingsAdapter(params: Erc20HoldingsParams, runtime: AdapterRuntime): Adapter {
  const token = params.tokenAddress;
  let decimals: number | undefined;
  return {
    filters: [{ address: token, topics: [TRANSFER_TOPIC], withTransaction: false }],
    contracts: [token],
    async init() {
      decimals = await loadDecimals(token, runtime);
      // The same label amm-v2 gives a pool's tokens, so a feed rule or the pricer can use it.
      await runtime.labels.set(token, { decimals: String(decimals) });
    },
    handle(log) {
      if (log.address !== token || log.topics[0] !== TRANSFER_TOPIC) return [];
      if (decimals === undefined) throw new BaseError("adapter-failed", "erc20-holdings: token decimals were not loaded before the first transfer");
      return transferDeltas(log, token, decimals, params.activity);
    },
  };
}
