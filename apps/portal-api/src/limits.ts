// Attempt limits per client address and per identity on sign-in and code entry, counted atomically in PostgreSQL.
import type { Queryable } from "@pointwise/db";
import { RateLimitError } from "@pointwise/errors";

/** How many attempts one key gets per window. */
export interface AttemptLimit {
  attempts: number;
  windowSeconds: number;
}

// One statement, so concurrent attempts cannot all read "9 so far" and all pass: each counts itself
// before anything is checked. A window that has ended starts again with this attempt.
const COUNT_ATTEMPT = `
INSERT INTO portal_attempt AS a (key, attempts, window_start) VALUES ($1, 1, now())
ON CONFLICT (key) DO UPDATE SET
  attempts = CASE WHEN a.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE a.attempts + 1 END,
  window_start = CASE WHEN a.window_start <= now() - make_interval(secs => $2) THEN now() ELSE a.window_start END
RETURNING attempts, ceil(extract(epoch FROM (window_start + make_interval(secs => $2)) - now()))::int AS retry_after`;

/**
 * Counts one attempt of `key` (for example `ip:sign-in:203.0.113.9` or `id:email:a@b.example`) and
 * throws a RateLimitError (429 `too-many-attempts`) once it is over the limit in the window. Unknown
 * identities are counted like known ones, so the answer never tells whether an identity exists.
 */
export async function countAttempt(db: Queryable, key: string, limit: AttemptLimit, what: string): Promise<void> {
  const { rows } = await db.query<{ attempts: number; retry_after: number }>(COUNT_ATTEMPT, [key, limit.windowSeconds]);
  const row = rows[0] as { attempts: number; retry_after: number };
  if (row.attempts <= limit.attempts) return;
  const seconds = Math.max(1, row.retry_after);
  throw new RateLimitError("too-many-attempts", `too many ${what}; try again in ${seconds} s`, seconds);
}

/** Removes windows that have ended, so the table holds only what still counts. */
export async function purgeAttempts(db: Queryable, windowSeconds: number): Promise<void> {
  await db.query("DELETE FROM portal_attempt WHERE window_start <= now() - make_interval(secs => $1)", [windowSeconds]);
}
