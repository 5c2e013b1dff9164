// Turns a database that is away or shedding work into one answer for the client: 503 database-unavailable.
import { DbBusyError, DbConnectionError, SerializationError } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";

/** True when a database error says the database is unreachable or shedding load, so a retry later can succeed. */
export function isDatabaseOutage(err: unknown): boolean {
  return err instanceof DbConnectionError || err instanceof DbBusyError || err instanceof SerializationError;
}

/** Runs a database step; an outage becomes a RetryableError `database-unavailable`, anything else passes through. */
export async function fromDatabase<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (isDatabaseOutage(err)) throw new RetryableError("database-unavailable", "database unavailable, try again shortly", { cause: err });
    throw err;
  }
}
