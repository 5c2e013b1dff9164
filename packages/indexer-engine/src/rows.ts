/** Who produced a row: the indexer, chain and adapter (with its version). */
export interface RunnerInfo {
  indexerId: string;
  chainId: number;
  adapterId: string;
  adapterVersion: string;
}

/**
 * One output row. A `window` row is a closed time-weighted balance window; an `action` row is one instantaneous
 * action. Columns that do not apply to a kind are null. Decimals are strings; times are Unix ms.
 */
export interface OutputRow extends RunnerInfo {
  rowType: "window" | "action";
  id: string;
  user: string;
  asset: string | null;
  activity: string;
  /** Window: the balance held; action: amount.amount (token units). */
  amount: string | null;
  priceable: boolean | null;
  active: boolean | null;
  startTs: number | null;
  endTs: number | null;
  durationMs: number | null;
  startBlock: number | null;
  endBlock: number | null;
  ts: number;
  height: number;
  txHash: string | null;
  logIndex: number | null;
  trigger: string | null;
  /** Window: TWAP over the window; action: price at the action's block. */
  priceUsd: string | null;
  /** Window: balance x TWAP; action: amount x price. */
  valueUsd: string | null;
  /** Window only: valueUsd x duration in hours, the figure aggregation sums. */
  usdHours: string | null;
  meta: string | null;
}

/** Column order of the csv sink (and field order of JSON rows). */
export const ROW_COLUMNS = [
  "rowType",
  "id",
  "indexerId",
  "chainId",
  "adapterId",
  "adapterVersion",
  "user",
  "asset",
  "activity",
  "amount",
  "priceable",
  "active",
  "startTs",
  "endTs",
  "durationMs",
  "startBlock",
  "endBlock",
  "ts",
  "height",
  "txHash",
  "logIndex",
  "trigger",
  "priceUsd",
  "valueUsd",
  "usdHours",
  "meta",
] as const satisfies readonly (keyof OutputRow)[];
