// Attempt counters behind the sign-in limits of admin-api (sign_in_attempt) and portal-api (portal_attempt), counted atomically.
import { RateLimitError } from "@pointwise/errors";
import type { Queryable } from "./statement-queue";

/** The tables that count attempts: admin-api's and portal-api's, each a key, its attempts and when its window started. */
export type AttemptTable = "sign_in_attempt" | "portal_attempt";

/** How many attempts one key gets per window, which starts at the key's first attempt. */
export interface AttemptLimit {
  attempts: number;
  windowSeconds: number;
}

// One statement, so concurrent attempts cannot all read "4 so far" and all pass: each counts itself before anything
// is checked. A window that has ended starts again with this attempt. The table name comes from AttemptTable only.
const countSql = (table: AttemptTable) => `
INSERT INTO ${table} AS a (key, attempts, window_start) VALUES ($1, 1, now())
ON CONFLICT (key) DO UPDATE SET
  attempts = CASE WHEN a.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE a.attempts + 1 END,
  window_start = CASE WHEN a.window_start <= now() - make_interval(secs => $2) THEN now() ELSE a.window_start END
RETURNING attempts, ceil(extract(epoch FROM (window_start + make_interval(secs => $2)) - now()))::int AS retry_after`;

/**
 * Counts one attempt of `key` (for example `ip:203.0.113.9` or `email:a@b.example`) and throws a RateLimitError
 * (429 `too-many-attempts`, "too many <what>; try again in N s") once it is over the limit in the window. Count
 * before checking what the attempt offers, and count unknown identities like known ones, so parallel guesses
 * cannot outrun the limit and the answer never tells whether an identity exists.
 */
export async function countAttempt(q: Queryable, table: AttemptTable, key: string, limit: AttemptLimit, what: string): Promise<void> {
  const { rows } = await q.query<{ attempts: number; retry_after: number }>(countSql(table), [key, limit.windowSeconds]);
  const row = rows[0] as { attempts: number; retry_after: number };
  if (row.attempts <= limit.attempts) return;
  const seconds = Math.max(1, row.retry_after);
  throw new RateLimitError("too-many-attempts", `too many ${what}; try again in ${seconds} s`, seconds);
}

/** Forgets the attempts of `keys` (after a success) and every window of the table that has ended. */
export async function forgetAttempts(q: Queryable, table: AttemptTable, keys: readonly string[], windowSeconds: number): Promise<void> {
  await q.query(`DELETE FROM ${table} WHERE key = ANY($1::text[]) OR window_start <= now() - make_interval(secs => $2)`, [keys, windowSeconds]);
}
