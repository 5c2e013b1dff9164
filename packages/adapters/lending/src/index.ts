// Entry point of the lending indexer adapter: its definition for the registry, and its named exports.
import { defineAdapter } from "@pointwise/indexer-engine";
import { createLendingAdapter } from "./adapter";
import { lendingParams } from "./params";

/** The lending adapter definition: supplied and variable-debt balances of an Aave V3 market, growing with interest. */
export const lendingAdapter = defineAdapter({
  id: "lending",
  version: "0.0.1",
  description: "Aave V3 lending market: each user's supplied and borrowed balances as time-weighted windows, with interest.",
  paramsSchema: lendingParams,
  create: (params, runtime) => createLendingAdapter(params, runtime),
});

export { BALANCE_TRANSFER_TOPIC, BURN_TOPIC, MINT_TOPIC, RESERVE_DATA_UPDATED_TOPIC } from "./abi";
export { BORROW_ACTIVITY, createLendingAdapter, PROTOCOL_LABEL, SUPPLY_ACTIVITY } from "./adapter";
export { type LendingParams, lendingParams, NOTHING_TRACKED } from "./params";
export { compoundedInterest, linearInterest, normalizedDebt, normalizedIncome, RAY, type ReserveState, rayDiv, rayMul, SECONDS_PER_YEAR } from "./ray";
export { loadReserves, PROTOCOL_PREFIX, type Reserve } from "./reserves";
