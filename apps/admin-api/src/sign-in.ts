// Operator sign-in limits: password checks per e-mail and sign-in attempts per client address, counted in PostgreSQL.
import { countAttempt, forgetAttempts, type Queryable } from "@pointwise/db";

/** How many password checks one e-mail, and how many sign-ins one client address, gets per window. */
export interface SignInLimit {
  attempts: number;
  attemptsPerAddress: number;
  windowSeconds: number;
}

const emailKey = (email: string) => `email:${email}`;

/**
 * Counts an attempt to check a password of an e-mail (lower-cased by the caller) and throws a RateLimitError
 * (429 `too-many-attempts`) once it is over `limit.attempts` in the window. Unknown e-mails are counted the same
 * way, so the answer never tells who has an account; refused attempts are counted too.
 */
export async function countSignInAttempt(db: Queryable, email: string, limit: SignInLimit): Promise<void> {
  await countAttempt(db, "sign_in_attempt", emailKey(email), limit, "password attempts for this e-mail");
}

/**
 * Counts a sign-in from a client address and throws a RateLimitError (429 `too-many-attempts`) once it is over
 * `limit.attemptsPerAddress` in the window: one address trying a password on many e-mails gets no more guesses
 * than that, whatever each e-mail's own count. A success does not reset it.
 */
export async function countSignInAddress(db: Queryable, address: string, limit: SignInLimit): Promise<void> {
  await countAttempt(
    db,
    "sign_in_attempt",
    `ip:${address}`,
    { attempts: limit.attemptsPerAddress, windowSeconds: limit.windowSeconds },
    "sign-in attempts from this address",
  );
}

/** Forgets an e-mail's attempts after a successful sign-in, and ended windows of any key. */
export async function clearSignInAttempts(db: Queryable, email: string, limit: SignInLimit): Promise<void> {
  await forgetAttempts(db, "sign_in_attempt", [emailKey(email)], limit.windowSeconds);
}
