// Entry point of the erc20-holdings indexer adapter: its definition for the registry, and its named exports.
import { defineAdapter } from "@pointwise/indexer-engine";
import { createErc20HoldingsAdapter } from "./adapter";
import { erc20HoldingsParams } from "./params";

/** The erc20-holdings adapter definition: every holder's balance of one ERC-20 token, from its Transfer logs. */
export const erc20HoldingsAdapter = defineAdapter({
  id: "erc20-holdings",
  version: "0.0.1",
  description: "ERC-20 token holdings: each holder's balance of one token as time-weighted windows, from its Transfer logs.",
  paramsSchema: erc20HoldingsParams,
  create: (params, runtime) => createErc20HoldingsAdapter(params, runtime),
});

export { createErc20HoldingsAdapter, loadDecimals, PROTOCOL_PREFIX } from "./adapter";
export { type Erc20HoldingsParams, erc20HoldingsParams, HOLDING_ACTIVITIES } from "./params";
