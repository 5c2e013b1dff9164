// Operator sessions: signs HS256 tokens and guards /api, ending sessions on sign-out, removal or password change.
import { randomUUID } from "node:crypto";
import { checkTokenBounds } from "@pointwise/auth";
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";
import { UUID_PATTERN } from "@pointwise/schemas";
import type { RequestHandler } from "express";
import jwt from "jsonwebtoken";

/** The signed-in operator, as carried by a session token. */
export interface OperatorSession {
  operatorId: string;
  projectId: string;
  /** The token's `jti`, which sign-out revokes; null for tokens signed before sessions had ids. */
  sessionId: string | null;
  /** When the token expires (its `exp`); a revocation is kept until then. */
  expiresAt: Date;
}

/** What a session token is signed for: the operator and the session version it was issued under. */
export interface SessionGrant {
  operatorId: string;
  projectId: string;
  sessionVersion: number;
}

/** How session tokens are signed and checked: the HS256 secret and their life in seconds. */
export interface SessionKeys {
  secret: string;
  /** Tokens are signed for this long, and a token claiming a longer life is refused. */
  maxAgeS: number;
}

const AUDIENCE = "pointwise-admin";

/** Signs a session token for an operator (HS256, `keys.maxAgeS` long) with a new session id. */
export function signSession(keys: SessionKeys, grant: SessionGrant): string {
  return jwt.sign({ pid: grant.projectId, ver: grant.sessionVersion }, keys.secret, {
    algorithm: "HS256",
    subject: grant.operatorId,
    audience: AUDIENCE,
    expiresIn: keys.maxAgeS,
    jwtid: randomUUID(),
  });
}

// A token signed with our secret but naming no uuid (never issued by us) must be a 401, not a failed query.
const isUuid = (value: unknown): value is string => typeof value === "string" && UUID_PATTERN.test(value);

const invalid = (message = "session token is invalid or expired; sign in again") => new AuthError("unauthenticated", message);

function grantOf(token: string, keys: SessionKeys): SessionGrant & Pick<OperatorSession, "sessionId" | "expiresAt"> {
  let verified: jwt.Jwt;
  try {
    verified = jwt.verify(token, keys.secret, { algorithms: ["HS256"], audience: AUDIENCE, complete: true });
  } catch {
    throw invalid();
  }
  const claims = verified.payload as jwt.JwtPayload;
  // Only a holder of the secret can get this far, so saying which bound was broken tells nobody else anything.
  const violation = checkTokenBounds(verified.header as unknown as Record<string, unknown>, claims, keys.maxAgeS);
  if (violation) throw invalid(`${violation.message}; sign in again`);
  // Tokens signed before sessions had versions carry none: they belong to version 0.
  const ver = claims.ver ?? 0;
  const sessionId = claims.jti ?? null;
  if (!isUuid(claims.sub) || !isUuid(claims.pid) || !Number.isSafeInteger(ver) || (sessionId !== null && !isUuid(sessionId))) throw invalid();
  return { operatorId: claims.sub, projectId: claims.pid, sessionVersion: ver, sessionId, expiresAt: new Date((claims.exp as number) * 1000) };
}

// One primary-key read of the operator and one of the revoked sessions, in one round trip.
const SESSION_STATE = `
SELECT o.session_version,
       EXISTS (SELECT 1 FROM revoked_session r WHERE r.session_id = $3::uuid) AS revoked
FROM operator o WHERE o.id = $1 AND o.project_id = $2`;

/**
 * Requires `Authorization: Bearer <session token>` of an operator who still exists in that project,
 * has not changed their password since the token was signed and has not signed this session out;
 * puts the session in `res.locals.session`. The lookup is one read per request, which is what makes
 * signing out, removing an operator or changing a password end sessions at once rather than when
 * tokens expire.
 */
export function requireOperator(keys: SessionKeys, pool: Queryable): RequestHandler {
  return async (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!token) throw new AuthError("unauthenticated", "sign in first: Authorization: Bearer <token> is missing");
    const grant = grantOf(token, keys);
    const { rows } = await pool.query<{ session_version: number; revoked: boolean }>(SESSION_STATE, [grant.operatorId, grant.projectId, grant.sessionId]);
    const row = rows[0];
    if (row === undefined) throw new AuthError("unauthenticated", "this operator no longer exists; sign in again");
    if (row.session_version !== grant.sessionVersion) throw new AuthError("unauthenticated", "this session ended when the password was changed; sign in again");
    if (row.revoked) throw new AuthError("unauthenticated", "this session was signed out; sign in again");
    res.locals.session = {
      operatorId: grant.operatorId,
      projectId: grant.projectId,
      sessionId: grant.sessionId,
      expiresAt: grant.expiresAt,
    } satisfies OperatorSession;
    next();
  };
}

/**
 * Ends one session for good: its id is kept as revoked until the token would have expired anyway
 * (revocations of expired tokens are purged here too). A token signed before sessions had ids cannot
 * be told apart from the operator's other sessions, so signing it out raises the operator's session
 * version, which ends all of them.
 */
export async function revokeSession(pool: Queryable, session: OperatorSession): Promise<void> {
  if (session.sessionId === null) {
    await pool.query("UPDATE operator SET session_version = session_version + 1 WHERE id = $1", [session.operatorId]);
    return;
  }
  await pool.query("INSERT INTO revoked_session (session_id, operator_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (session_id) DO NOTHING", [
    session.sessionId,
    session.operatorId,
    session.expiresAt,
  ]);
  await pool.query("DELETE FROM revoked_session WHERE expires_at < now()");
}

/** The session set by requireOperator. */
export function sessionOf(locals: Record<string, unknown>): OperatorSession {
  return locals.session as OperatorSession;
}
