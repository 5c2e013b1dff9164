// Linking social accounts by OAuth 2.0 authorization code with PKCE, against a real OpenID Connect provider (oidc-provider) run locally.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type Harness, participant, startPortal } from "./harness";
import { type OidcProvider, startOidcProvider } from "./oidc";
import { logEventOf, ownerOf, seedRedemption } from "./spent";

let h: Harness;
let provider: OidcProvider;
const PORTAL_URL = "http://127.0.0.1:4999";
beforeAll(async () => {
  provider = await startOidcProvider(
    { clientId: "portal", clientSecret: "provider-secret", redirectUris: [`${PORTAL_URL}/oauth/x/callback`, `${PORTAL_URL}/oauth/github/callback`] },
    { "1234567890123": "moon_walker", "987654": "octo cat", "555": "second_x", "777": "merge_me", "888": "spent_me", abc: "letters" },
  );
  const endpoints = (scope: string) => ({
    client_id: "portal",
    client_secret: "provider-secret",
    authorize_url: `${provider.issuer}/auth`,
    token_url: `${provider.issuer}/token`,
    userinfo_url: `${provider.issuer}/me`,
    scope,
  });
  h = await startPortal({
    PORTAL_PUBLIC_URL: PORTAL_URL,
    PORTAL_OAUTH_PROVIDERS: JSON.stringify({ x: endpoints("openid profile"), github: endpoints("openid profile") }),
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await provider?.stop();
});

/** The Cookie header a browser sends back for the cookie a start answer set. */
function cookieFrom(started: { headers: Headers }): Record<string, string> {
  const set = started.headers.get("set-cookie") ?? "";
  return { cookie: set.split(";")[0] as string };
}

/** Starts a link; the answer and the Cookie header of the browser that started it. */
async function start(p: { auth: Record<string, string> }, name: string) {
  const started = await h.call("POST", `/me/oauth/${name}/start`, undefined, p.auth);
  return { started, browser: cookieFrom(started) };
}

/** Starts a link, walks through the provider as `accountId` and delivers the provider's redirect to our callback in the same browser. */
async function link(p: { auth: Record<string, string> }, name: string, accountId: string) {
  const { started, browser } = await start(p, name);
  expect(started.status).toBe(200);
  const back = await provider.authorize(started.body.authorization_url, accountId);
  expect(`${back.origin}${back.pathname}`).toBe(`${PORTAL_URL}/oauth/${name}/callback`);
  return { back, browser, reply: await h.call("GET", `/oauth/${name}/callback${back.search}`, undefined, browser) };
}

describe("OAuth linking", () => {
  it("asks for the code with PKCE S256 and a fresh state", async () => {
    const p = await participant(h);
    const url = new URL((await h.call("POST", "/me/oauth/x/start", undefined, p.auth)).body.authorization_url);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("redirect_uri")).toBe(`${PORTAL_URL}/oauth/x/callback`);
  });

  it("links an X account: the provider's id becomes the X_PROVIDER_ID and its username the handle", async () => {
    const p = await participant(h);
    const { reply } = await link(p, "x", "1234567890123");
    expect(reply.status).toBe(200);
    expect(reply.body.identities).toEqual(
      expect.arrayContaining([expect.objectContaining({ identity_type: "X_PROVIDER_ID", account_id: "1234567890123", handle: "moon_walker" })]),
    );
  });

  it("links a GitHub account without a handle, and refuses a second account of one provider with identity-limit-reached", async () => {
    const p = await participant(h);
    const { reply } = await link(p, "github", "987654");
    expect(reply.body.identities).toEqual(
      expect.arrayContaining([expect.objectContaining({ identity_type: "GITHUB_PROVIDER_ID", account_id: "987654", handle: null })]),
    );
    expect((await link(p, "x", "555")).reply.status).toBe(200);
    const second = await link(p, "github", "555");
    expect([second.reply.status, second.reply.body.error.code]).toEqual([409, "identity-limit-reached"]);
  });

  it("moves an account another user linked to the user who proves it now (the merge rule)", async () => {
    const first = await participant(h);
    const second = await participant(h);
    expect((await link(first, "x", "777")).reply.body.merged).toBe(false);
    const moved = await link(second, "x", "777");
    expect(moved.reply.body.merged).toBe(true);
    const { rows } = await h.deps.db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE identity_type = 'X_PROVIDER_ID' AND account_id = '777'");
    expect(rows[0]?.user_id).toBe(second.userId);
  });

  it("keeps an account whose points its holder spent with the holder: the callback answers 409 identity-points-spent", async () => {
    const first = await participant(h);
    const second = await participant(h);
    expect((await link(first, "x", "888")).reply.body.merged).toBe(false);
    await logEventOf(h, "X_PROVIDER_ID", "888");
    await seedRedemption(h, first.userId);
    const refused = await link(second, "x", "888");
    expect([refused.reply.status, refused.reply.body.error.code]).toEqual([409, "identity-points-spent"]);
    expect(await ownerOf(h, "X_PROVIDER_ID", "888")).toBe(first.userId);
  });

  it("binds the state to the browser that started the link: a cookie scoped to the callback, for as long as the state lives", async () => {
    const p = await participant(h);
    const { started } = await start(p, "x");
    const state = new URL(started.body.authorization_url).searchParams.get("state");
    const cookie = started.headers.get("set-cookie") ?? "";
    expect(cookie.split("; ")).toEqual(expect.arrayContaining([`pw_oauth_x=${state}`, "Max-Age=600", "Path=/oauth/x/callback", "HttpOnly", "SameSite=Lax"]));
    // The test's PORTAL_PUBLIC_URL is http, where a Secure cookie would never be sent back.
    expect(cookie).not.toContain("Secure");
  });

  it("scopes the cookie to the callback as the browser reaches it, under PORTAL_PUBLIC_URL's own path", async () => {
    const prefixed = await startPortal({
      PORTAL_PUBLIC_URL: "https://example.test/portal",
      PORTAL_OAUTH_PROVIDERS: JSON.stringify({ x: { client_id: "portal", authorize_url: `${provider.issuer}/auth` } }),
    });
    try {
      const started = await prefixed.call("POST", "/me/oauth/x/start", undefined, (await participant(prefixed)).auth);
      expect(new URL(started.body.authorization_url).searchParams.get("redirect_uri")).toBe("https://example.test/portal/oauth/x/callback");
      expect((started.headers.get("set-cookie") ?? "").split("; ")).toEqual(expect.arrayContaining(["Path=/portal/oauth/x/callback", "Secure"]));
    } finally {
      await prefixed.close();
    }
  });

  it("links nothing when the provider's redirect reaches another browser: a participant's authorization URL sent to someone else", async () => {
    const attacker = await participant(h);
    const { started } = await start(attacker, "x");
    // The victim opens the attacker's URL and authorizes with their own account; their browser holds no state cookie, or another one.
    const back = await provider.authorize(started.body.authorization_url, "1234567890123");
    for (const victimBrowser of [{}, { cookie: "pw_oauth_x=another-state" }] as Record<string, string>[]) {
      const reply = await h.call("GET", `/oauth/x/callback${back.search}`, undefined, victimBrowser);
      expect([reply.status, reply.body.error.code]).toEqual([400, "invalid-oauth-state"]);
    }
    const { rows } = await h.deps.db.query("SELECT 1 FROM identity WHERE user_id = $1 AND identity_type = 'X_PROVIDER_ID'", [attacker.userId]);
    expect(rows).toEqual([]);
  });

  it("answers a callback once: a replayed state is invalid-oauth-state, and so is one never issued", async () => {
    const p = await participant(h);
    const { back, browser, reply } = await link(p, "x", "1234567890123");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("set-cookie")).toMatch(/^pw_oauth_x=; Path=\/oauth\/x\/callback; Expires=Thu, 01 Jan 1970/);
    const again = await h.call("GET", `/oauth/x/callback${back.search}`, undefined, browser);
    expect([again.status, again.body.error.code]).toEqual([400, "invalid-oauth-state"]);
    const forged = await h.call("GET", "/oauth/x/callback?state=made-up&code=abc");
    expect(forged.body.error.code).toBe("invalid-oauth-state");
  });

  it("refuses a code exchanged with a state of another provider, a provider refusal, and an unconfigured provider", async () => {
    const p = await participant(h);
    const { started, browser } = await start(p, "x");
    const back = await provider.authorize(started.body.authorization_url, "1234567890123");
    // The x state delivered to the github callback does not match: the state belongs to the provider it was made for.
    expect((await h.call("GET", `/oauth/github/callback${back.search}`, undefined, browser)).body.error.code).toBe("invalid-oauth-state");
    const second = await start(p, "x");
    const s2 = new URL(second.started.body.authorization_url).searchParams.get("state");
    const denied = await h.call("GET", `/oauth/x/callback?state=${s2}&error=access_denied`, undefined, second.browser);
    expect([denied.status, denied.body.error.code]).toEqual([400, "oauth-failed"]);
    const third = await start(p, "x");
    const s3 = new URL(third.started.body.authorization_url).searchParams.get("state");
    const badCode = await h.call("GET", `/oauth/x/callback?state=${s3}&code=not-a-code`, undefined, third.browser);
    expect([badCode.status, badCode.body.error.code]).toEqual([400, "oauth-failed"]);
    const discord = await h.call("POST", "/me/oauth/discord/start", undefined, p.auth);
    expect([discord.status, discord.body.error.code]).toEqual([404, "provider-not-configured"]);
  });

  it("refuses a provider id that is not numeric (the *_PROVIDER_ID rule) with oauth-failed", async () => {
    const p = await participant(h);
    // The provider's account "abc" has a subject that is no X user id.
    const { started, browser } = await start(p, "x");
    const back = await provider.authorize(started.body.authorization_url, "abc");
    const reply = await h.call("GET", `/oauth/x/callback${back.search}`, undefined, browser);
    expect([reply.status, reply.body.error.code]).toEqual([400, "oauth-failed"]);
  });

  it("sends a browser back to the participant page with the outcome: linked, or the error's code", async () => {
    const p = await participant(h);
    const { started, browser } = await start(p, "x");
    const back = await provider.authorize(started.body.authorization_url, "1234567890123");
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8", ...browser };
    const res = await fetch(`${h.url}/oauth/x/callback${back.search}`, { headers: html, redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([303, `/?campaign=${h.campaignId}&linked=x`]);
    const replay = await fetch(`${h.url}/oauth/x/callback${back.search}`, { headers: html, redirect: "manual" });
    expect([replay.status, replay.headers.get("location")]).toEqual([303, "/?link_error=invalid-oauth-state"]);
  });
});
