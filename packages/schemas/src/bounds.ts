// What PostgreSQL's columns can hold: parameters are bounded by these before they reach a query.

/** The largest `bigint` (int8) PostgreSQL stores: 2^63 - 1. */
export const PG_BIGINT_MAX = 9223372036854775807n;

/** The largest `integer` (int4) PostgreSQL stores: 2^31 - 1. */
export const PG_INTEGER_MAX = 2147483647;

/** True when `digits` (a whole number without sign or leading zeros) is from 1 to PG_BIGINT_MAX. */
export function isBigintId(digits: string): boolean {
  return /^[1-9][0-9]{0,18}$/.test(digits) && BigInt(digits) <= PG_BIGINT_MAX;
}
