// Aave V3 event topics and call data the lending adapter reads: the Pool's ReserveDataUpdated, scaled-token events.
import { id } from "ethers";

/** Pool: `ReserveDataUpdated(reserve indexed, liquidityRate, stableBorrowRate, variableBorrowRate, liquidityIndex, variableBorrowIndex)`. */
export const RESERVE_DATA_UPDATED_TOPIC = id("ReserveDataUpdated(address,uint256,uint256,uint256,uint256,uint256)");
/** aToken and variable debt token: `Mint(caller indexed, onBehalfOf indexed, value, balanceIncrease, index)`. */
export const MINT_TOPIC = id("Mint(address,address,uint256,uint256,uint256)");
/** aToken and variable debt token: `Burn(from indexed, target indexed, value, balanceIncrease, index)`. */
export const BURN_TOPIC = id("Burn(address,address,uint256,uint256,uint256)");
/** aToken: `BalanceTransfer(from indexed, to indexed, value, index)`, `value` in scaled units. */
export const BALANCE_TRANSFER_TOPIC = id("BalanceTransfer(address,address,uint256,uint256)");

/** Selector of Pool.getReservesList(). */
export const GET_RESERVES_LIST = id("getReservesList()").slice(0, 10);
/** Selector of Pool.getReserveData(address). */
export const GET_RESERVE_DATA = id("getReserveData(address)").slice(0, 10);

/** Words of Pool.getReserveData's answer (Aave V3.0 ReserveData, 15 static words). */
export const RESERVE_DATA_WORDS = {
  liquidityIndex: 1,
  liquidityRate: 2,
  variableBorrowIndex: 3,
  variableBorrowRate: 4,
  lastUpdateTimestamp: 6,
  aToken: 8,
  variableDebtToken: 10,
  count: 15,
} as const;
