// Who may read a user's scores: portal JWTs for their own user, campaign API keys for the whole campaign.
import { apiKeyMatches, apiKeyPrefix, hashApiKey } from "@pointwise/auth";
import type { Database } from "@pointwise/db";
import { AuthError, ValidationError } from "@pointwise/errors";
import { fromDatabase } from "./db-errors";
import { sharedInFlight } from "./in-flight";
import type { PortalVerifier } from "./jwt";
import { campaignOfUser } from "./queries";
import { userNotFound } from "./user-scores";

/** The credential headers of a request, as express gives them. */
export interface CredentialHeaders {
  authorization?: string | undefined;
  "x-api-key"?: string | string[] | undefined;
}

interface Remembered<T> {
  value: T;
  expires: number;
}

const MAX_REMEMBERED = 10_000;

/**
 * Decides who may read a user's scores. A portal token may read only its own user (`sub`); a campaign
 * API key may read any user of its campaign and gets the same answer for a user of another campaign as
 * for an unknown one. Every check runs before any cached response is looked at. A key's lookup is
 * trusted for `keyCacheMs` from the moment it starts (before PostgreSQL sees it), so a revoked key is refused by
 * every request that arrives more than `keyCacheMs` after the revocation was committed.
 */
export function createScoresAuthorizer(db: Database, verifier: PortalVerifier | null, keyCacheMs: number) {
  // Keyed by the key's hash so no raw key sits in memory longer than the request. The lookup itself
  // is remembered (not only its result), so requests arriving while it runs share it instead of each
  // querying PostgreSQL; its window starts when it started, so sharing cannot stretch the bound.
  const keys = new Map<string, Remembered<Promise<string | null>>>();
  // A user never changes campaign, so a found one can be remembered without expiry.
  const campaigns = new Map<string, string>();
  // Campaign lookups in flight, by user, shared by the requests that arrive while they run.
  const findingCampaigns = new Map<string, Promise<string | null>>();

  async function lookUpKey(key: string, prefix: string): Promise<string | null> {
    const { rows } = await fromDatabase(() =>
      db.query<{ campaign_id: string; hash: string }>("SELECT campaign_id, hash FROM api_key WHERE prefix = $1 AND revoked_at IS NULL", [prefix]),
    );
    const row = rows[0];
    return row && apiKeyMatches(key, row.hash) ? row.campaign_id : null;
  }

  function campaignOfKey(key: string): Promise<string | null> {
    const prefix = apiKeyPrefix(key);
    if (!prefix) return Promise.resolve(null);
    if (keyCacheMs <= 0) return lookUpKey(key, prefix);
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = keys.get(hash);
    if (hit && hit.expires > now) return hit.value;
    const lookup = lookUpKey(key, prefix);
    if (keys.size >= MAX_REMEMBERED) keys.clear();
    keys.set(hash, { value: lookup, expires: now + keyCacheMs });
    // A failed lookup (PostgreSQL away) is not an answer: the next request tries again.
    lookup.catch(() => {
      if (keys.get(hash)?.value === lookup) keys.delete(hash);
    });
    return lookup;
  }

  function campaignOf(userId: string): Promise<string | null> {
    const known = campaigns.get(userId);
    if (known) return Promise.resolve(known);
    return sharedInFlight(findingCampaigns, userId, async () => {
      const campaignId = await campaignOfUser(db, userId);
      if (campaignId !== null) {
        if (campaigns.size >= MAX_REMEMBERED) campaigns.clear();
        campaigns.set(userId, campaignId);
      }
      return campaignId;
    });
  }

  return {
    /**
     * Resolves when the credentials may read `userId`'s scores; otherwise throws:
     * 401 `missing-credentials` / `invalid-token` / `token-expired` / `invalid-api-key`,
     * 400 `ambiguous-credentials`, 403 `forbidden` (token of another user), 404 `user-not-found` (key).
     */
    async authorize(headers: CredentialHeaders, userId: string): Promise<void> {
      const authorization = headers.authorization;
      const apiKey = headers["x-api-key"];
      if (authorization === undefined && apiKey === undefined) {
        throw new AuthError("missing-credentials", "send Authorization: Bearer <portal JWT> or X-API-Key: <campaign API key>");
      }
      if (authorization !== undefined && apiKey !== undefined) {
        throw new ValidationError("send either Authorization or X-API-Key, not both", { code: "ambiguous-credentials" });
      }
      if (authorization !== undefined) {
        const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
        if (!match?.[1]) throw new AuthError("invalid-token", "Authorization must be Bearer <portal JWT>");
        const token = match[1];
        if (apiKeyPrefix(token)) throw new AuthError("invalid-token", "API keys go in the X-API-Key header, not in Authorization");
        if (!verifier)
          throw new AuthError("invalid-token", "portal tokens are not accepted: no PORTAL_JWT_SECRET, PORTAL_JWT_PUBLIC_KEY or PORTAL_JWKS_URL is set");
        await verifier.prepare(token);
        const subject = verifier.verify(token);
        if (subject.toLowerCase() !== userId) throw new AuthError("forbidden", "a portal token may only read its own user's scores");
        return;
      }
      if (typeof apiKey !== "string") throw new AuthError("invalid-api-key", "invalid API key");
      const keyCampaign = await campaignOfKey(apiKey.trim());
      if (keyCampaign === null) throw new AuthError("invalid-api-key", "invalid API key");
      if ((await campaignOf(userId)) !== keyCampaign) throw userNotFound(userId);
    },
  };
}

/** The authorizer of one read-api process. */
export type ScoresAuthorizer = ReturnType<typeof createScoresAuthorizer>;
