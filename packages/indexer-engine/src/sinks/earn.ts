// Maps output rows to Pointwise earn events under the config's per-activity earn mappings.
import { createHash } from "node:crypto";
import { formatFixed, formatScaled, parseFixed } from "@pointwise/fixed";
import type { EarnMapping } from "../config/schema";
import { OUTPUT_DECIMALS } from "../decimal";
import type { OutputRow } from "../rows";

/** One raw earn event of the Pointwise ingest API, with the time it happened and its per-row idempotency key. */
export interface EarnEvent {
  account_id: string;
  identity_type: "EVM_ADDRESS";
  amount: string;
  reg_event_id: string;
  /** When the activity happened on the chain (RFC 3339, UTC, milliseconds): an action's block time, a window's end. */
  occurred_at: string;
  /** Derived from the indexer id, the row and the event type, so the service logs the event once however often it is sent. */
  idempotency_key: string;
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
 * The moment a row's activity happened, in Unix ms: an action at its block's time; a time-weighted window when it
 * closed (its end), since that is when the holding it pays for is complete.
 */
export function occurredAtMs(row: OutputRow): number {
  return row.rowType === "window" && row.endTs !== null ? row.endTs : row.ts;
}

/** Unix ms as the ingest API's occurred_at: RFC 3339 in UTC with `Z` and milliseconds. */
export function formatOccurredAt(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The idempotency key of the event a row maps to under one event type: hex SHA-256 of the indexer id, the row
 * type, the row id and the reg_event_id. Row ids are stable (an action's adapter key; a window's position and start
 * time), so a restart or a re-run from the same block yields the same keys and the service logs each row once; the
 * event type is part of it so two sinks may map one row to two event types of a campaign.
 */
export function rowIdempotencyKey(row: Pick<OutputRow, "indexerId" | "rowType" | "id">, regEventId: string): string {
  return createHash("sha256").update(`${row.indexerId}|${row.rowType}|${row.id}|${regEventId.toLowerCase()}`).digest("hex");
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
  return {
    account_id: row.user,
    identity_type: "EVM_ADDRESS",
    amount,
    reg_event_id: mapping.regEventId,
    occurred_at: formatOccurredAt(occurredAtMs(row)),
    idempotency_key: rowIdempotencyKey(row, mapping.regEventId),
  };
}
