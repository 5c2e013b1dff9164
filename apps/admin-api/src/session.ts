// Operator sessions: signs HS256 tokens and guards /api, ending sessions on removal or password change.
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";
import { UUID_PATTERN } from "@pointwise/schemas";
import type { RequestHandler } from "express";
import jwt from "jsonwebtoken";

/** The signed-in operator, as carried by a session token. */
export interface OperatorSession {
  operatorId: string;
  projectId: string;
}

/** What a session token is signed for: the operator and the session version it was issued under. */
export interface SessionGrant extends OperatorSession {
  sessionVersion: number;
}

const AUDIENCE = "pointwise-admin";
const TTL_SECONDS = 12 * 3600;

/** Signs a session token for an operator (HS256, 12 hours). */
export function signSession(secret: string, grant: SessionGrant): string {
  return jwt.sign({ pid: grant.projectId, ver: grant.sessionVersion }, secret, {
    algorithm: "HS256",
    subject: grant.operatorId,
    audience: AUDIENCE,
    expiresIn: TTL_SECONDS,
  });
}

// A token signed with our secret but naming no uuid (never issued by us) must be a 401, not a failed query.
const isUuid = (value: unknown): value is string => typeof value === "string" && UUID_PATTERN.test(value);

function grantOf(token: string, secret: string): SessionGrant {
  try {
    const claims = jwt.verify(token, secret, { algorithms: ["HS256"], audience: AUDIENCE }) as jwt.JwtPayload;
    // Tokens signed before sessions had versions carry none: they belong to version 0.
    const ver = claims.ver ?? 0;
    if (!isUuid(claims.sub) || !isUuid(claims.pid) || !Number.isSafeInteger(ver)) throw new Error("claims");
    return { operatorId: claims.sub, projectId: claims.pid, sessionVersion: ver };
  } catch {
    throw new AuthError("unauthenticated", "session token is invalid or expired; sign in again");
  }
}

/**
 * Requires `Authorization: Bearer <session token>` of an operator who still exists in that project
 * and has not changed their password since the token was signed; puts the session in
 * `res.locals.session`. The lookup is one primary-key read per request, which is what makes removing
 * an operator or changing a password end their sessions at once rather than when tokens expire.
 */
export function requireOperator(secret: string, pool: Queryable): RequestHandler {
  return async (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!token) throw new AuthError("unauthenticated", "sign in first: Authorization: Bearer <token> is missing");
    const grant = grantOf(token, secret);
    const { rows } = await pool.query<{ session_version: number }>("SELECT session_version FROM operator WHERE id = $1 AND project_id = $2", [
      grant.operatorId,
      grant.projectId,
    ]);
    const current = rows[0]?.session_version;
    if (current === undefined) throw new AuthError("unauthenticated", "this operator no longer exists; sign in again");
    if (current !== grant.sessionVersion) throw new AuthError("unauthenticated", "this session ended when the password was changed; sign in again");
    res.locals.session = { operatorId: grant.operatorId, projectId: grant.projectId } satisfies OperatorSession;
    next();
  };
}

/** The session set by requireOperator. */
export function sessionOf(locals: Record<string, unknown>): OperatorSession {
  return locals.session as OperatorSession;
}
