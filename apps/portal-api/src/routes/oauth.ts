// Linking an X, Discord or GitHub account: OAuth 2.0 authorization code with PKCE (S256), state kept in PostgreSQL and
// bound to the browser that started the link by a cookie.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { BaseError, NotFoundError, RetryableError, ValidationError } from "@pointwise/errors";
import { parseWith } from "@pointwise/runtime";
import { type IdentityType, normalizeAccountId } from "@pointwise/schemas";
import { type CookieOptions, type Response as ExpressResponse, type Request, Router } from "express";
import { z } from "zod";
import { participantOf, requireParticipant } from "../bearer";
import type { Deps } from "../deps";
import { OAUTH_PROVIDERS, type OAuthProviderName } from "../env";
import { identitiesOf, linkIdentity } from "../users";
import { linkLimits } from "./me";

const STATE_TTL_S = 600;
const X_HANDLE = /^[A-Za-z0-9_]{1,15}$/;
const callbackSchema = z.object({
  state: z.string().min(1, "must not be empty").max(200),
  code: z.string().min(1, "must not be empty").max(2000).optional(),
  error: z.string().max(200).optional(),
});

interface Client {
  name: OAuthProviderName;
  identityType: IdentityType;
  clientId: string;
  clientSecret: string | undefined;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
}

function clientOf(deps: Deps, name: string): Client {
  const defaults = Object.hasOwn(OAUTH_PROVIDERS, name) ? OAUTH_PROVIDERS[name as OAuthProviderName] : undefined;
  const settings = defaults ? deps.env.PORTAL_OAUTH_PROVIDERS[name as OAuthProviderName] : undefined;
  if (!defaults || !settings) {
    const known = Object.keys(deps.env.PORTAL_OAUTH_PROVIDERS);
    throw new NotFoundError(`provider ${name} is not configured (configured: ${known.join(", ") || "none"})`, { code: "provider-not-configured" });
  }
  return {
    name: name as OAuthProviderName,
    identityType: defaults.identityType,
    clientId: settings.client_id,
    clientSecret: settings.client_secret,
    authorizeUrl: settings.authorize_url ?? defaults.authorize_url,
    tokenUrl: settings.token_url ?? defaults.token_url,
    userinfoUrl: settings.userinfo_url ?? defaults.userinfo_url,
    scope: settings.scope ?? defaults.scope,
  };
}

const redirectUri = (deps: Deps, provider: string) => `${deps.env.PORTAL_PUBLIC_URL}/oauth/${provider}/callback`;

/** The cookie that carries a link's state in the browser that started it, read only by that provider's callback. */
const stateCookie = (provider: string) => `pw_oauth_${provider}`;
const cookieOptions = (deps: Deps, provider: string): CookieOptions => ({
  httpOnly: true,
  // Lax: sent on the provider's top-level redirect back to the callback, not on requests other sites make.
  sameSite: "lax",
  secure: deps.env.PORTAL_PUBLIC_URL.startsWith("https://"),
  // The callback's path as the browser sees it: PORTAL_PUBLIC_URL may put the service under a path of its own.
  path: new URL(redirectUri(deps, provider)).pathname,
});

/** The value of cookie `name` in a Cookie header, if it is there. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether the callback's browser holds the state it brings, i.e. is the browser that started the link. */
function sameBrowser(req: Request, provider: string, state: string): boolean {
  const held = Buffer.from(cookieValue(req.get("cookie"), stateCookie(provider)) ?? "");
  const brought = Buffer.from(state);
  return held.length === brought.length && timingSafeEqual(held, brought);
}

const failed = (message: string) => new ValidationError(message, { code: "oauth-failed" });

async function providerJson(url: string, init: RequestInit, what: string): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new RetryableError("provider-unavailable", `the provider could not be reached for the ${what}; try again`, { cause: err });
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || body === null || typeof body !== "object") throw failed(`the provider refused the ${what} (HTTP ${res.status})`);
  return body;
}

// X answers {data: {id, username}}, Discord {id, username}, GitHub {id, login}, an OpenID Connect provider {sub, preferred_username}.
function accountOf(info: Record<string, unknown>): { id: string; handle: string | null } {
  const source = (typeof info.data === "object" && info.data !== null ? info.data : info) as Record<string, unknown>;
  const rawId = source.id ?? source.sub;
  const id = typeof rawId === "number" && Number.isSafeInteger(rawId) ? String(rawId) : rawId;
  if (typeof id !== "string") throw failed("the provider's user info has no id");
  const handle = source.username ?? source.login ?? source.preferred_username;
  return { id, handle: typeof handle === "string" ? handle : null };
}

/** OAuth routes: start a link (signed in) and the provider's callback. */
export function oauthRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  router.post("/me/oauth/:provider/start", requireParticipant(deps.keys, db), async (req, res) => {
    const me = participantOf(res.locals);
    const client = clientOf(deps, req.params.provider as string);
    const state = randomBytes(32).toString("base64url");
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    await db.query(
      `INSERT INTO portal_oauth_state(state, campaign_id, user_id, provider, code_verifier, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [state, me.campaignId, me.userId, client.name, verifier, STATE_TTL_S],
    );
    await db.query("DELETE FROM portal_oauth_state WHERE expires_at < now()");
    const url = new URL(client.authorizeUrl);
    // A state must come back in the browser that asked for it: without this, a participant could send their own
    // authorization URL to someone else, whose provider account would then be linked to the sender's user
    // (the CSRF of RFC 9700, section 4.7).
    res.cookie(stateCookie(client.name), state, { ...cookieOptions(deps, client.name), maxAge: STATE_TTL_S * 1000 });
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: redirectUri(deps, client.name),
      scope: client.scope,
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }).toString();
    res.json({ authorization_url: url.toString(), expires_in: STATE_TTL_S });
  });

  // The provider sends the participant's browser here. A browser (Accept: text/html first) is sent
  // back to the participant page with the outcome in the query; any other client gets JSON.
  router.get("/oauth/:provider/callback", async (req, res) => {
    if (req.accepts(["application/json", "text/html"]) !== "text/html") {
      res.json(await completeLink(req, res));
      return;
    }
    let outcome: URLSearchParams;
    try {
      const linked = await completeLink(req, res);
      outcome = new URLSearchParams({ campaign: linked.campaign_id, linked: linked.provider });
    } catch (err) {
      if (!(err instanceof BaseError)) throw err;
      outcome = new URLSearchParams({ link_error: err.code });
    }
    res.redirect(303, `/?${outcome}`);
  });

  async function completeLink(req: Request, res: ExpressResponse) {
    const client = clientOf(deps, req.params.provider as string);
    const query = parseWith(callbackSchema, req.query);
    // The state is used up whatever happens next: a callback can be answered once.
    const { rows } = await db.query<{ campaign_id: string; user_id: string; code_verifier: string }>(
      "DELETE FROM portal_oauth_state WHERE state = $1 AND provider = $2 AND expires_at > now() RETURNING campaign_id, user_id, code_verifier",
      [query.state, client.name],
    );
    const pending = rows[0];
    if (!pending) throw new ValidationError("the OAuth state is unknown, used or expired; start linking again", { code: "invalid-oauth-state" });
    res.clearCookie(stateCookie(client.name), cookieOptions(deps, client.name));
    if (!sameBrowser(req, client.name, query.state)) {
      throw new ValidationError("this link was started in another browser; start linking again from the page you are signed in on", {
        code: "invalid-oauth-state",
      });
    }
    if (query.error !== undefined || query.code === undefined) throw failed(`the provider did not authorize the link (${query.error ?? "no code"})`);
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code: query.code,
      redirect_uri: redirectUri(deps, client.name),
      code_verifier: pending.code_verifier,
      client_id: client.clientId,
    });
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
    if (client.clientSecret !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64")}`;
    }
    const token = await providerJson(client.tokenUrl, { method: "POST", headers, body: form }, "token exchange");
    if (typeof token.access_token !== "string") throw failed("the provider's token answer has no access_token");
    const info = await providerJson(
      client.userinfoUrl,
      { headers: { authorization: `Bearer ${token.access_token}`, accept: "application/json" } },
      "user info",
    );
    const account = accountOf(info);
    let accountId: string;
    try {
      accountId = normalizeAccountId(client.identityType, account.id);
    } catch {
      throw failed(`the provider's user id ${account.id.slice(0, 40)} is not a numeric ${client.identityType}`);
    }
    // Only X's handle is shown (as x_username); it must be a valid X username to be kept.
    const handle = client.identityType === "X_PROVIDER_ID" && account.handle !== null && X_HANDLE.test(account.handle) ? account.handle : undefined;
    const outcome = await linkIdentity(
      db,
      pending.campaign_id,
      pending.user_id,
      { type: client.identityType, accountId, ...(handle ? { handle } : {}) },
      linkLimits(deps),
    );
    if (outcome.movedFromUserId)
      deps.logger.info({ campaign_id: pending.campaign_id, user_id: pending.user_id, from_user_id: outcome.movedFromUserId }, "identity moved by its owner");
    return {
      provider: client.name,
      campaign_id: pending.campaign_id,
      identity_id: outcome.identityId,
      merged: outcome.movedFromUserId !== null,
      recompute_job_id: outcome.recomputeJobId,
      identities: await identitiesOf(db, pending.user_id),
    };
  }

  return router;
}
