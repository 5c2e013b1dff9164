// Participant sessions: a hashed refresh token per session, rotated on every refresh, ended by sign-out.
import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "@pointwise/db";
import { AuthError } from "@pointwise/errors";

/** A session's id and the refresh token handed to the participant (only its hash is stored). */
export interface IssuedSession {
  sessionId: string;
  userId: string;
  campaignId: string;
  refreshToken: string;
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const newRefreshToken = () => `pwr_${randomBytes(32).toString("base64url")}`;

/** Starts a session of `userId` that can be refreshed for `ttlS` seconds. */
export async function startSession(db: Queryable, campaignId: string, userId: string, ttlS: number): Promise<IssuedSession> {
  const refreshToken = newRefreshToken();
  const { rows } = await db.query<{ id: string }>(
    "INSERT INTO portal_session(campaign_id, user_id, refresh_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id",
    [campaignId, userId, hash(refreshToken), ttlS],
  );
  return { sessionId: rows[0]?.id as string, userId, campaignId, refreshToken };
}

/**
 * Exchanges a refresh token for a new one; the old one stops working at once, so a copy taken from
 * the participant is worth one exchange at most. Every refusal is 401 `invalid-refresh-token`.
 */
export async function refreshSession(db: Queryable, refreshToken: string): Promise<IssuedSession> {
  const refused = new AuthError("invalid-refresh-token", "the refresh token is unknown, used, expired or signed out; sign in again");
  const next = newRefreshToken();
  const { rows } = await db.query<{ id: string; user_id: string; campaign_id: string }>(
    `UPDATE portal_session SET refresh_hash = $2 WHERE refresh_hash = $1 AND revoked_at IS NULL AND expires_at > now()
     RETURNING id, user_id, campaign_id`,
    [hash(refreshToken), hash(next)],
  );
  const row = rows[0];
  if (!row) throw refused;
  await db.query("DELETE FROM portal_session WHERE expires_at < now() - interval '1 day'");
  return { sessionId: row.id, userId: row.user_id, campaignId: row.campaign_id, refreshToken: next };
}

/** Ends a session: its refresh token and every access token issued for it stop working. */
export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query("UPDATE portal_session SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", [sessionId]);
}

/** True while the session is neither signed out nor past its end. */
export async function sessionActive(db: Queryable, sessionId: string, userId: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM portal_session WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()", [
    sessionId,
    userId,
  ]);
  return rows.length > 0;
}
