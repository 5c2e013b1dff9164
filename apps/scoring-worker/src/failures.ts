// How the worker sorts a failure: transient (retry, uncounted), about one event (count, then dead-letter), or about the system (hold back).
import { InvalidValueError, isDbError } from "@pointwise/db";
import { BaseError, isRetryable } from "@pointwise/errors";

/**
 * Whether a failure may go away by itself (the database was down or busy, a deadlock was broken),
 * as opposed to one that will repeat for the same input. Transient failures are retried without
 * counting against MAX_DELIVER; the others count and end in the dead-letter table.
 */
export function isTransient(err: unknown): boolean {
  return isRetryable(err);
}

// Engine errors caused by the event itself; others (corrupt state, ordering) are about the system.
// decay-range-exceeded is about the rule version: its decay epoch is too early for the event's time,
// and every later event fails the same way until a version with a later epoch is active, so the
// events wait for it instead of going one by one to the dead-letter table.
const EVENT_ENGINE_CODES = new Set(["event-invalid", "campaign-mismatch"]);

/**
 * Whether a failure is caused by the content of the event being applied (a value PostgreSQL
 * refuses, an amount the engine cannot score), so that the same event fails the same way every
 * time while other events go through. Only such failures count towards the dead-letter table; a
 * failure about the system itself (a missing index, a bug, corrupt state) must hold the events
 * back until it is fixed, not send every one of them to the dead-letter table.
 */
export function isEventSpecific(err: unknown): boolean {
  if (isTransient(err)) return false;
  if (err instanceof InvalidValueError) return true;
  return err instanceof BaseError && !isDbError(err) && EVENT_ENGINE_CODES.has(err.code);
}

/** A short, single-line description of a failure for the dead-letter table and logs: PostgreSQL's SQLSTATE or the error's code, then its message. */
export function describeFailure(err: unknown): string {
  if (err instanceof Error) {
    const code = isDbError(err) ? (err.sqlState ?? err.code) : (err as { code?: unknown }).code;
    return `${typeof code === "string" ? `${code}: ` : ""}${err.message}`.slice(0, 2000);
  }
  return String(err).slice(0, 2000);
}
