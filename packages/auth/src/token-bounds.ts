// Bounds every signed token must respect beyond its signature: an expiry, no unknown critical header, a bounded life.
import { AuthError } from "@pointwise/errors";

/** Why a correctly signed token is still refused. */
export type TokenBoundsRule = "exp-missing" | "crit-unsupported" | "lifetime-too-long";

/** A refusal: the rule broken and a message naming the claim and the rule. */
export interface TokenBoundsViolation {
  rule: TokenBoundsRule;
  message: string;
}

/**
 * Checks a verified token's header and claims: `exp` must be a number; `crit` must be absent (RFC 7515
 * §4.1.11: a recipient must refuse a token whose `crit` lists an extension it does not understand,
 * and we understand none); and the life it claims must not exceed `maxLifetimeS`. The life is the
 * longer of `exp - iat` and `exp - now`, so neither leaving out `iat` nor putting it in the future
 * buys a longer one. Returns null when the token is within bounds.
 */
export function checkTokenBounds(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  maxLifetimeS: number,
  nowS: number = Math.floor(Date.now() / 1000),
): TokenBoundsViolation | null {
  if ("crit" in header) {
    const listed = Array.isArray(header.crit) ? header.crit.map(String).join(", ") : String(header.crit);
    return { rule: "crit-unsupported", message: `token header crit lists extensions this service does not understand: ${listed || "(empty)"}` };
  }
  const { exp, iat } = payload;
  if (typeof exp !== "number" || !Number.isFinite(exp)) return { rule: "exp-missing", message: "token must carry exp" };
  if (iat !== undefined && (typeof iat !== "number" || !Number.isFinite(iat))) return { rule: "lifetime-too-long", message: "token iat must be a number" };
  const lifetime = Math.max(exp - (iat ?? nowS), exp - nowS);
  if (lifetime > maxLifetimeS) {
    return { rule: "lifetime-too-long", message: `token lifetime (exp - iat) must be at most ${maxLifetimeS} s; this one claims ${Math.ceil(lifetime)} s` };
  }
  return null;
}

/**
 * The error a bearer of a portal token gets for a broken bound, the same from every service that checks one:
 * `token-lifetime-too-long` for the life it claims (what a user fixes by asking for a shorter-lived token),
 * `invalid-token` for the rest.
 */
export function tokenBoundsError(violation: TokenBoundsViolation): AuthError {
  return new AuthError(violation.rule === "lifetime-too-long" ? "token-lifetime-too-long" : "invalid-token", violation.message);
}
