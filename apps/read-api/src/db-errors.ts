import { BaseError, RetryableError } from "@pointwise/errors";

// SQLSTATE classes and codes that mean "the server is away or refusing work", not "the query is wrong".
const RETRYABLE_SQLSTATE = /^(08|57P0[1-3]|53300|40001|40P01)/;
const RETRYABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const RETRYABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection error/i,
  /not queryable/i,
  /cannot use a pool after/i,
];

/** True when a PostgreSQL or driver error says the database is unreachable or shedding load. */
export function isDatabaseOutage(err: unknown): boolean {
  // Duck-typed on purpose: socket errors may come from another realm (jest's sandbox), where instanceof fails.
  if (typeof err !== "object" || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === "string" && (RETRYABLE_NODE_CODES.has(code) || RETRYABLE_SQLSTATE.test(code))) return true;
  if (Array.isArray(errors) && errors.some(isDatabaseOutage)) return true;
  return typeof message === "string" && RETRYABLE_MESSAGES.some((re) => re.test(message));
}

/** Runs a database step; an outage becomes a RetryableError `database-unavailable`, anything else passes through. */
export async function fromDatabase<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof BaseError) && isDatabaseOutage(err))
      throw new RetryableError("database-unavailable", "database unavailable, try again shortly", { cause: err });
    throw err;
  }
}
