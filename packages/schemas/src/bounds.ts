// What PostgreSQL's columns can hold: parameters are bounded by these before they reach a query.
import { z } from "zod";

/** The largest `bigint` (int8) PostgreSQL stores: 2^63 - 1. */
export const PG_BIGINT_MAX = 9223372036854775807n;

/** The largest `integer` (int4) PostgreSQL stores: 2^31 - 1. */
export const PG_INTEGER_MAX = 2147483647;

/** True when `digits` (a whole number without sign or leading zeros) is from 1 to PG_BIGINT_MAX. */
export function isBigintId(digits: string): boolean {
  return /^[1-9][0-9]{0,18}$/.test(digits) && BigInt(digits) <= PG_BIGINT_MAX;
}

/**
 * Why PostgreSQL's `timestamptz` would refuse an ISO 8601 date-time, or null when it takes it: the year 0000, which
 * its calendar does not have (there, 1 BC follows AD 1), or an instant outside the years 0001 to 9999 in UTC, whose
 * `toISOString()` would no longer be a four-digit year. The text must already be a valid date-time.
 */
export function storedTimeProblem(isoTime: string): string | null {
  if (isoTime.startsWith("0000")) return "must not be in the year 0000, which PostgreSQL's calendar does not have";
  const ms = Date.parse(isoTime);
  if (!(ms >= EARLIEST_STORED_TIME_MS && ms <= LATEST_STORED_TIME_MS)) return "must fall in the years 0001 to 9999 in UTC";
  return null;
}

const EARLIEST_STORED_TIME_MS = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST_STORED_TIME_MS = Date.parse("9999-12-31T23:59:59.999Z");

/** An ISO 8601 date-time with a time zone that a `timestamptz` column stores (see storedTimeProblem). */
export const storedTimeSchema = z.iso
  .datetime({ offset: true, abort: true, message: "must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z" })
  .superRefine((value, ctx) => {
    const problem = storedTimeProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });
