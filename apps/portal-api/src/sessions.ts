// Participant sessions: a hashed refresh token per session, rotated on every refresh, ended by sign-out or by a reused token.
import { createHash, randomBytes, randomUUID } from "node:crypto";
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
const newSecret = () => randomBytes(32).toString("base64url");

/**
 * A refresh token is `pwr_<session id>.<session secret>.<rotation secret>`. The session secret stays for the
 * session's life and the rotation secret changes on every refresh; `refresh_hash` holds
 * `<hash of session secret>:<hash of rotation secret>`. A token with the right session secret but a rotation
 * already used up can only be a copy of an earlier token, so it ends the session (RFC 9700, section 4.14.2):
 * whoever refreshed first, the thief or the participant, the other one's next refresh tells. A session id alone
 * (access tokens carry it) cannot end a session. Tokens of the earlier form `pwr_<secret>` still refresh once.
 */
const REFRESH_TOKEN = /^pwr_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

interface Rotation {
  /** What `refresh_hash` becomes. */
  stored: string;
  /** The token for it, once the session id is known. */
  token(sessionId: string): string;
}

function rotation(sessionSecret: string): Rotation {
  const secret = newSecret();
  return { stored: `${hash(sessionSecret)}:${hash(secret)}`, token: (sessionId) => `pwr_${sessionId}.${sessionSecret}.${secret}` };
}

/** Starts a session of `userId` that can be refreshed for `ttlS` seconds. */
export async function startSession(db: Queryable, campaignId: string, userId: string, ttlS: number): Promise<IssuedSession> {
  const sessionId = randomUUID();
  const first = rotation(newSecret());
  await db.query("INSERT INTO portal_session(id, campaign_id, user_id, refresh_hash, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))", [
    sessionId,
    campaignId,
    userId,
    first.stored,
    ttlS,
  ]);
  return { sessionId, userId, campaignId, refreshToken: first.token(sessionId) };
}

/**
 * Exchanges a refresh token for a new one; the old one stops working at once, and bringing it again
 * ends the session (see REFRESH_TOKEN), so a copy taken from the participant is worth one exchange at
 * most. Every refusal is 401 `invalid-refresh-token`.
 */
export async function refreshSession(db: Queryable, refreshToken: string): Promise<IssuedSession> {
  const refused = new AuthError("invalid-refresh-token", "the refresh token is unknown, used, expired or signed out; sign in again");
  const parts = REFRESH_TOKEN.exec(refreshToken);
  const next = rotation(parts?.[2] ?? newSecret());
  const live = "revoked_at IS NULL AND expires_at > now()";
  const { rows } = await db.query<{ id: string; user_id: string; campaign_id: string }>(
    parts
      ? `UPDATE portal_session SET refresh_hash = $2 WHERE id = $3 AND refresh_hash = $1 AND ${live} RETURNING id, user_id, campaign_id`
      : `UPDATE portal_session SET refresh_hash = $2 WHERE refresh_hash = $1 AND ${live} RETURNING id, user_id, campaign_id`,
    parts ? [`${hash(parts[2] as string)}:${hash(parts[3] as string)}`, next.stored, parts[1]] : [hash(refreshToken), next.stored],
  );
  const row = rows[0];
  if (!row) {
    // The session's own secret with a spent rotation: a copy of an earlier token is in someone's hands.
    if (parts)
      await db.query(`UPDATE portal_session SET revoked_at = now() WHERE id = $1 AND split_part(refresh_hash, ':', 1) = $2 AND ${live}`, [
        parts[1],
        hash(parts[2] as string),
      ]);
    throw refused;
  }
  await db.query("DELETE FROM portal_session WHERE expires_at < now() - interval '1 day'");
  return { sessionId: row.id, userId: row.user_id, campaignId: row.campaign_id, refreshToken: next.token(row.id) };
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
