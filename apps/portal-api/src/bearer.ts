// The signed-in participant of a request: a portal access token of a session that is still open.

import type { Database } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";
import type { RequestHandler } from "express";
import type { AccessClaims, TokenKeys } from "./keys";
import { sessionActive } from "./sessions";

/** Checks `Authorization: Bearer <access token>` and puts the claims in `res.locals.participant`; 401 otherwise. */
export function requireParticipant(keys: TokenKeys, db: Database): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) throw new AuthError("missing-credentials", "send Authorization: Bearer <access token>");
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match?.[1]) throw new AuthError("invalid-token", "Authorization must be Bearer <access token>");
    const claims = keys.verify(match[1]);
    // Signed out sessions end at once here; the read API, which cannot ask, honours the token until its short exp.
    if (!(await sessionActive(db, claims.sessionId, claims.userId)))
      throw new AuthError("session-ended", "this session was signed out or has expired; sign in again");
    res.locals.participant = claims;
    next();
  };
}

/** The participant `requireParticipant` admitted. */
export function participantOf(locals: Record<string, unknown>): AccessClaims {
  return locals.participant as AccessClaims;
}
