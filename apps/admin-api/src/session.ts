import { AuthError } from "@pointwise/errors";
import type { RequestHandler } from "express";
import jwt from "jsonwebtoken";

/** The signed-in operator, as carried by a session token. */
export interface OperatorSession {
  operatorId: string;
  projectId: string;
}

const AUDIENCE = "pointwise-admin";
const TTL_SECONDS = 12 * 3600;

/** Signs a session token for an operator (HS256, 12 hours). */
export function signSession(secret: string, session: OperatorSession): string {
  return jwt.sign({ pid: session.projectId }, secret, { algorithm: "HS256", subject: session.operatorId, audience: AUDIENCE, expiresIn: TTL_SECONDS });
}

/** Requires `Authorization: Bearer <session token>`; puts the session in `res.locals.session`. */
export function requireOperator(secret: string): RequestHandler {
  return (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!token) throw new AuthError("unauthenticated", "sign in first: Authorization: Bearer <token> is missing");
    try {
      const claims = jwt.verify(token, secret, { algorithms: ["HS256"], audience: AUDIENCE }) as jwt.JwtPayload;
      if (typeof claims.sub !== "string" || typeof claims.pid !== "string") throw new Error("claims");
      res.locals.session = { operatorId: claims.sub, projectId: claims.pid } satisfies OperatorSession;
      next();
    } catch {
      throw new AuthError("unauthenticated", "session token is invalid or expired; sign in again");
    }
  };
}

/** The session set by requireOperator. */
export function sessionOf(locals: Record<string, unknown>): OperatorSession {
  return locals.session as OperatorSession;
}
