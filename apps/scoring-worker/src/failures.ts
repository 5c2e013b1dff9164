import { BaseError, isRetryable } from "@pointwise/errors";

// PostgreSQL error classes a later attempt can get past: connection exceptions, transaction
// rollbacks (deadlock, serialization), insufficient resources, operator intervention, system errors.
const TRANSIENT_SQLSTATE_CLASSES = new Set(["08", "40", "53", "57", "58"]);
const TRANSIENT_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether a failure may go away by itself (a dependency was down, a deadlock was broken), as
 * opposed to one that will repeat for the same input. Transient failures are retried without
 * counting against MAX_DELIVER; the others count and end in the dead-letter table.
 */
export function isTransient(err: unknown): boolean {
  if (isRetryable(err)) return true;
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
    if (TRANSIENT_NODE_CODES.has(code)) return true;
  }
  const message = String((err as { message?: unknown }).message ?? "");
  // node-postgres reports a dropped or refused connection without a SQLSTATE.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
    message,
  );
}

// Engine errors caused by the event itself; others (corrupt state, ordering) are about the system.
const EVENT_ENGINE_CODES = new Set(["event-invalid", "campaign-mismatch", "decay-range-exceeded"]);

/**
 * Whether a failure is caused by the content of the event being applied (a value PostgreSQL
 * refuses, an amount the engine cannot score), so that the same event fails the same way every
 * time while other events go through. Only such failures count towards the dead-letter table; a
 * failure about the system itself (a missing index, a bug, corrupt state) must hold the events
 * back until it is fixed, not send every one of them to the dead-letter table.
 */
export function isEventSpecific(err: unknown): boolean {
  if (isTransient(err) || typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (err instanceof BaseError) return EVENT_ENGINE_CODES.has(err.code);
  // SQLSTATE class 22: data exception (numeric overflow, invalid date/time, invalid text, ...).
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}

/** A short, single-line description of a failure for the dead-letter table and logs. */
export function describeFailure(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${typeof code === "string" ? `${code}: ` : ""}${err.message}`.slice(0, 2000);
  }
  return String(err).slice(0, 2000);
}
