import type { EarnMapping } from "../config/schema";
import { Dec, formatDecimal } from "../decimal";
import type { OutputRow } from "../rows";

/** One raw earn event of the Pointwise ingest API. */
export interface EarnEvent {
  account_id: string;
  identity_type: "EVM_ADDRESS";
  amount: string;
  reg_event_id: string;
}

const HOUR_MS = new Dec(3_600_000);

/** The amount a row is worth under a mapping, or undefined when the row lacks it (for example an unpriced row). */
export function earnAmount(row: OutputRow, mapping: EarnMapping): Dec | undefined {
  switch (mapping.amount) {
    case "usd":
      return row.valueUsd === null ? undefined : new Dec(row.valueUsd);
    case "usdHours":
      return row.usdHours === null ? undefined : new Dec(row.usdHours);
    case "amount":
      return row.amount === null ? undefined : new Dec(row.amount);
    case "amountHours":
      return row.amount === null || row.durationMs === null ? undefined : new Dec(row.amount).times(row.durationMs).div(HOUR_MS);
    case "count":
      return new Dec(1);
  }
}

/**
 * Maps a row to an earn event: the mapping of the row's activity applies when its rowType matches; inactive
 * windows, rows without the chosen amount and amounts that are not positive produce nothing.
 */
export function toEarnEvent(row: OutputRow, events: Readonly<Record<string, EarnMapping>>): EarnEvent | undefined {
  const mapping = Object.hasOwn(events, row.activity) ? events[row.activity] : undefined;
  if (mapping === undefined || mapping.rowType !== row.rowType || row.active === false) return undefined;
  const amount = earnAmount(row, mapping);
  if (amount === undefined || !amount.gt(0)) return undefined;
  const text = formatDecimal(amount);
  if (text === "0") return undefined;
  return { account_id: row.user, identity_type: "EVM_ADDRESS", amount: text, reg_event_id: mapping.regEventId };
}
