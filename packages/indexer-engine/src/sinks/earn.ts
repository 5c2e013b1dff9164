// Maps output rows to Pointwise earn events under the config's per-activity earn mappings.
import { formatFixed, formatScaled, parseFixed } from "@pointwise/fixed";
import type { EarnMapping } from "../config/schema";
import { OUTPUT_DECIMALS } from "../decimal";
import type { OutputRow } from "../rows";

/** One raw earn event of the Pointwise ingest API. */
export interface EarnEvent {
  account_id: string;
  identity_type: "EVM_ADDRESS";
  amount: string;
  reg_event_id: string;
}

const HOUR_MS = 3_600_000n;

/**
 * The amount a row is worth under a mapping, as sent (exact, at most 18 places, rounded half to even once), or
 * undefined when the row lacks it (for example an unpriced row).
 */
export function earnAmount(row: OutputRow, mapping: EarnMapping): string | undefined {
  switch (mapping.amount) {
    case "usd":
      return row.valueUsd === null ? undefined : formatFixed(parseFixed(row.valueUsd), OUTPUT_DECIMALS);
    case "usdHours":
      return row.usdHours === null ? undefined : formatFixed(parseFixed(row.usdHours), OUTPUT_DECIMALS);
    case "amount":
      return row.amount === null ? undefined : formatFixed(parseFixed(row.amount), OUTPUT_DECIMALS);
    case "amountHours":
      return row.amount === null || row.durationMs === null
        ? undefined
        : formatScaled(parseFixed(row.amount), BigInt(row.durationMs), HOUR_MS, OUTPUT_DECIMALS);
    case "count":
      return "1";
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
  // Rounded once at 18 places: zero means not positive, or too small to send.
  if (amount === undefined || amount === "0" || amount.startsWith("-")) return undefined;
  return { account_id: row.user, identity_type: "EVM_ADDRESS", amount, reg_event_id: mapping.regEventId };
}
