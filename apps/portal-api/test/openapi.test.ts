// Every answer portal-api gives in these calls matches docs/api/portal.openapi.yaml (path, method, status and body).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { listRoutes, loadOpenApi, seedApiKey, seedReward } from "@pointwise/testkit";
import { bearer, type Harness, newWallet, signIn, startPortal } from "./harness";

let h: Harness;
const api = loadOpenApi("portal");
beforeAll(async () => {
  h = await startPortal({ PORTAL_ATTEMPTS_PER_IDENTITY: "2" });
});
afterAll(() => h.close());

async function checked(method: string, template: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const res = await h.call(method, path, body, headers);
  api.check(method, template, res.status, res.status === 204 ? undefined : res.body);
  return res;
}

describe("docs/api/portal.openapi.yaml", () => {
  it("describes every answer of the main paths", async () => {
    await checked("GET", "/.well-known/jwks.json", "/.well-known/jwks.json");
    await checked("POST", "/auth/nonce", "/auth/nonce", { campaign_id: "zzzz-9999" });
    await checked("POST", "/auth/nonce", "/auth/nonce", { campaign_id: "Nope" });
    const wallet = newWallet();
    const body = await signIn(h, wallet);
    const tokens = (await checked("POST", "/auth/wallet", "/auth/wallet", body)).body;
    await checked("POST", "/auth/wallet", "/auth/wallet", body);
    const auth = bearer(tokens.access_token);
    await checked("GET", "/me", "/me", undefined, auth);
    await checked("PATCH", "/me", "/me", { display_name: "Ok Name" }, auth);
    await checked("PATCH", "/me", "/me", { display_name: 5 }, auth);
    await checked("POST", "/me/referrer", "/me/referrer", { referral_code: "ZZZZZZZZ" }, auth);
    const link = await signIn(h, newWallet());
    await checked("POST", "/me/wallets", "/me/wallets", { message: link.message, signature: link.signature }, auth);
    const linked = (await h.call("GET", "/me", undefined, auth)).body.identities as { id: string }[];
    await checked("DELETE", "/me/identities/{identity_id}", `/me/identities/${linked[1]?.id}`, undefined, auth);
    await checked("DELETE", "/me/identities/{identity_id}", `/me/identities/${linked[0]?.id}`, undefined, auth);
    await checked("DELETE", "/me/identities/{identity_id}", "/me/identities/nope", undefined, auth);
    await checked("POST", "/me/email/start", "/me/email/start", { email: "linked@example.org" }, auth);
    await checked("POST", "/me/email/start", "/me/email/start", { email: "nope" }, auth);
    await checked("POST", "/me/email/verify", "/me/email/verify", { email: "linked@example.org", code: h.mails[h.mails.length - 1]?.code }, auth);
    await checked("POST", "/me/email/verify", "/me/email/verify", { email: "other@example.org", code: "000000" }, auth);
    await checked("GET", "/me/ledger", "/me/ledger", undefined, auth);
    await h.deps.db.query(
      "INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_email) VALUES ($1, $2, 'xp', '-1.5', 'r', 'o@example.org')",
      [h.campaignId, tokens.user_id],
    );
    await checked("GET", "/me/adjustments", "/me/adjustments", undefined, auth);
    await checked("GET", "/me/adjustments", "/me/adjustments?before=x", undefined, auth);
    await checked("GET", "/me/ledger", "/me/ledger?limit=0", undefined, auth);
    // Rewards: the catalogue, a redemption and its retry, refusals, the list, one redemption, claims, and on behalf with an API key.
    await h.deps.db.query("INSERT INTO score(campaign_id, user_id, currency, score, total) VALUES ($1, $2, 'xp', 50, 50)", [h.campaignId, tokens.user_id]);
    const rewardId = await seedReward(h.deps.db, h.campaignId, { name: "Mug", price: "20" });
    await checked("GET", "/me/rewards", "/me/rewards", undefined, auth);
    const spent = await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: rewardId }, { ...auth, "idempotency-key": "doc-1" });
    await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: rewardId }, { ...auth, "idempotency-key": "doc-1" });
    await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: rewardId, account: "0x1" }, { ...auth, "idempotency-key": "doc-2" });
    await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: rewardId }, { ...auth, "idempotency-key": "doc-3" });
    await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: rewardId }, { ...auth, "idempotency-key": "doc-4" });
    await checked("POST", "/me/redemptions", "/me/redemptions", { reward_id: "00000000-0000-4000-8000-000000000000" }, { ...auth, "idempotency-key": "doc-5" });
    await checked("GET", "/me/redemptions", "/me/redemptions", undefined, auth);
    await checked("GET", "/me/redemptions/{redemption_id}", `/me/redemptions/${spent.body.id}`, undefined, auth);
    await checked("GET", "/me/redemptions/{redemption_id}", "/me/redemptions/nope", undefined, auth);
    await checked("GET", "/me/claims", "/me/claims", undefined, auth);
    const key = await seedApiKey(h.deps.db, h.campaignId);
    const onBehalf = `/campaigns/${h.campaignId}/users/${tokens.user_id}/redemptions`;
    const template = "/campaigns/{campaign_id}/users/{user_id}/redemptions";
    // A key of its own (the participant's keys replay only through the participant's channel), for what is left: 10.
    const behalf = { reward_id: await seedReward(h.deps.db, h.campaignId, { name: "Sticker", price: "5" }) };
    await checked("POST", template, onBehalf, behalf, { "x-api-key": key.key, "idempotency-key": "doc-behalf" });
    await checked("POST", template, onBehalf, behalf, { "x-api-key": key.key, "idempotency-key": "doc-behalf" });
    await checked("POST", template, onBehalf, { reward_id: rewardId }, { "idempotency-key": "doc-1" });
    await checked(
      "POST",
      template,
      `/campaigns/zzzz-9999/users/${tokens.user_id}/redemptions`,
      { reward_id: rewardId },
      { "x-api-key": key.key, "idempotency-key": "x" },
    );
    await checked("POST", "/me/oauth/{provider}/start", "/me/oauth/x/start", undefined, auth);
    await checked("GET", "/oauth/{provider}/callback", "/oauth/x/callback?state=a&code=b");
    await checked("POST", "/auth/email/start", "/auth/email/start", { campaign_id: h.campaignId, email: "a@example.org" });
    await checked("POST", "/auth/email/verify", "/auth/email/verify", { campaign_id: h.campaignId, email: "a@example.org", code: h.mails[0]?.code });
    await checked("POST", "/auth/email/verify", "/auth/email/verify", { campaign_id: h.campaignId, email: "b@example.org", code: "000000" });
    await checked("POST", "/auth/email/verify", "/auth/email/verify", { campaign_id: h.campaignId, email: "b@example.org", code: "000000" });
    await checked("POST", "/auth/email/verify", "/auth/email/verify", { campaign_id: h.campaignId, email: "b@example.org", code: "000000" });
    const refreshed = (await checked("POST", "/auth/refresh", "/auth/refresh", { refresh_token: tokens.refresh_token })).body;
    await checked("POST", "/auth/refresh", "/auth/refresh", { refresh_token: tokens.refresh_token });
    await checked("POST", "/auth/sign-out", "/auth/sign-out", undefined, bearer(refreshed.access_token));
    await checked("GET", "/me", "/me", undefined, bearer(refreshed.access_token));
    await checked("GET", "/web-config.json", "/web-config.json");
    expect([...api.covered].sort()).toEqual(
      expect.arrayContaining([
        "GET /.well-known/jwks.json 200",
        "POST /auth/wallet 200",
        "POST /auth/wallet 401",
        "POST /auth/email/start 202",
        "POST /auth/email/verify 429",
        "GET /me 200",
        "POST /me/wallets 200",
        "POST /me/email/start 202",
        "POST /me/email/verify 200",
        "POST /me/email/verify 401",
        "GET /me/adjustments 200",
        "GET /me/ledger 200",
        "GET /me/rewards 200",
        "POST /me/redemptions 201",
        "POST /me/redemptions 200",
        "POST /me/redemptions 409",
        "GET /me/redemptions 200",
        "GET /me/redemptions/{redemption_id} 200",
        "GET /me/claims 200",
        "POST /campaigns/{campaign_id}/users/{user_id}/redemptions 201",
        "POST /campaigns/{campaign_id}/users/{user_id}/redemptions 200",
        "POST /campaigns/{campaign_id}/users/{user_id}/redemptions 403",
        "POST /me/oauth/{provider}/start 404",
        "GET /oauth/{provider}/callback 404",
      ]),
    );
  });

  it("describes exactly the endpoints the app serves, and is served at /openapi.yaml", async () => {
    // Express's parameters as the document names them; the health and metrics routes every app has are not part of it.
    const names: Record<string, string> = { ":identityId": "{identity_id}", ":id": "{redemption_id}" };
    const served = listRoutes(h.app)
      .filter((route) => !/ \/(healthz|readyz|metrics)$/.test(route))
      .map((route) => route.replace(/:\w+/g, (param) => names[param] ?? `{${param.slice(1)}}`));
    expect(served.sort()).toEqual(api.operations().sort());
    const res = await fetch(`${h.url}/openapi.yaml`);
    expect(res.headers.get("content-type")).toContain("application/yaml");
    expect(await res.text()).toBe(api.text);
  });
});
