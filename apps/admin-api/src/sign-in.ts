// Per-e-mail rate limit on password checks, counted atomically in PostgreSQL.
import type { Queryable } from "@pointwise/db";
import { RateLimitError } from "@pointwise/errors";

/** How many password checks one e-mail gets per window. */
export interface SignInLimit {
  attempts: number;
  windowSeconds: number;
}

// One statement, so concurrent attempts cannot all read "4 so far" and all pass: each one counts
// itself before any password is checked. A window that has ended starts again with this attempt.
const COUNT_ATTEMPT = `
INSERT INTO sign_in_attempt AS s (email, attempts, window_start) VALUES ($1, 1, now())
ON CONFLICT (email) DO UPDATE SET
  attempts = CASE WHEN s.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE s.attempts + 1 END,
  window_start = CASE WHEN s.window_start <= now() - make_interval(secs => $2) THEN now() ELSE s.window_start END
RETURNING attempts, ceil(extract(epoch FROM (window_start + make_interval(secs => $2)) - now()))::int AS retry_after`;

/**
 * Counts an attempt to check a password of an e-mail (lower-cased by the caller) and throws a
 * RateLimitError (429 `too-many-attempts`) once it is over `limit.attempts` in the window, which
 * starts at the window's first attempt. Unknown e-mails are counted the same way, so the answer
 * never tells who has an account; refused attempts are counted too.
 */
export async function countSignInAttempt(pool: Queryable, email: string, limit: SignInLimit): Promise<void> {
  const { rows } = await pool.query<{ attempts: number; retry_after: number }>(COUNT_ATTEMPT, [email, limit.windowSeconds]);
  const row = rows[0] as { attempts: number; retry_after: number };
  if (row.attempts <= limit.attempts) return;
  const seconds = Math.max(1, row.retry_after);
  throw new RateLimitError("too-many-attempts", `too many password attempts for this e-mail; try again in ${seconds} s`, seconds);
}

/** Forgets an e-mail's attempts after a successful sign-in, and ended windows of any e-mail. */
export async function clearSignInAttempts(pool: Queryable, email: string, limit: SignInLimit): Promise<void> {
  await pool.query("DELETE FROM sign_in_attempt WHERE email = $1 OR window_start <= now() - make_interval(secs => $2)", [email, limit.windowSeconds]);
}
