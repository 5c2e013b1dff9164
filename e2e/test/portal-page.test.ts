// The participant page in headless Chromium: sign in with an injected EIP-1193 wallet (backed by real ethers keys, its
// addresses answered in lowercase as MetaMask does), link a second account of the wallet, set a name, see the own score
// the read API answers for the issued token, link an X account through a real OpenID Connect provider (oidc-provider)
// with PKCE through portal-api, redeem once per click, and keep working after the access token expires.

import { generateKeyPairSync } from "node:crypto";
import { freePort, injectWallet, openBrowser } from "@pointwise/testkit";
import { Wallet } from "ethers";
import jwt from "jsonwebtoken";
import type { Route } from "playwright-core";
import { type OidcProvider, startOidcProvider } from "../../apps/portal-api/test/oidc";
import { drawnAfter, type PortalCampaign, setUpCampaign, waitForScores } from "./portal-campaign";
import { call, type Stack, startStack } from "./stack";

let stack: Stack;
let campaign: PortalCampaign;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let provider: OidcProvider;
const accounts = [Wallet.createRandom(), Wallet.createRandom()];
// portal-api's signing key, known here so the test can make an expired copy of a token the page holds.
const signingKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

beforeAll(async () => {
  // The provider's address goes into portal-api's settings, and portal-api's callback into the provider's client.
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const x = {
    client_id: "portal",
    client_secret: "provider-secret",
    authorize_url: `${issuer}/auth`,
    token_url: `${issuer}/token`,
    userinfo_url: `${issuer}/me`,
    scope: "openid profile",
  };
  stack = await startStack(
    {
      LOG_LEVEL: "warn",
      PORTAL_OAUTH_PROVIDERS: JSON.stringify({ x }),
      VOUCHER_CODE_KEY: "9d3f1a7c5e2b8046a1c3e5f7092b4d6f8a0c2e4f6183a5c7e9f1b3d5a7c9e0f2",
      PORTAL_SIGNING_KEYS: signingKey,
    },
    { portal: true },
  );
  provider = await startOidcProvider(
    { clientId: "portal", clientSecret: "provider-secret", redirectUris: [`${stack.portal?.url}/oauth/x/callback`] },
    { "4242424242": "moon_walker" },
    providerPort,
  );
  campaign = await setUpCampaign(stack);
  browser = await openBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await stack?.drop();
});

describe("the participant page", () => {
  it("signs in, links the second account, sets a name and shows the own score", async () => {
    const { page } = browser;
    // Without CLAIMS_CONTRACT the page has no token claims to ask for.
    expect((await call("GET", `${stack.portal?.url}/web-config.json`)).body).toEqual({
      read_api_url: stack.read.url,
      oauth_providers: ["x"],
      claims: null,
    });
    const claimRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/me/claims")) claimRequests.push(request.url());
    });
    // The wallet holds both test accounts: the page signs in with the first and links the second.
    await injectWallet(page, accounts);
    await page.goto(`${stack.portal?.url}/?campaign=${campaign.campaignId}`);
    await page.getByRole("button", { name: "Sign in with your wallet" }).click();
    await page.getByText("Linked identities").waitFor();
    await page.getByRole("button", { name: "Link another wallet" }).click();
    await page.locator("#identities li").nth(1).waitFor();
    expect(await page.locator("#identities li").allTextContents()).toEqual(accounts.map((w) => `EVM_ADDRESS ${w.address.toLowerCase()}`));
    await page.fill("#display-name", "Moon Walker");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Signed in as Moon Walker").waitFor();
    // 2 xp per unit: 3 from the first account and 1.5 from the second, one user: 9.
    await campaign.earn(accounts[0]?.address as string, "EVM_ADDRESS", "3");
    await campaign.earn(accounts[1]?.address as string, "EVM_ADDRESS", "1.5");
    await waitForScores(page, "Experience: 9");
    expect(await page.locator("#status").textContent()).toBe("");
    expect(await page.locator("#claims-section").isHidden()).toBe(true);
    expect(claimRequests).toEqual([]);
  });

  it("links an X account through the provider and comes back signed in, showing it", async () => {
    const { page } = browser;
    await page.getByRole("button", { name: "Link your X account" }).click();
    // The provider's own sign-in and consent pages (oidc-provider's interactions).
    await page.locator('input[name="login"]').fill("4242424242");
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.getByText("Linked your X account.").waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).search).toBe(`?campaign=${campaign.campaignId}`);
    expect(await page.locator("#identities li").allTextContents()).toEqual([
      ...accounts.map((w) => `EVM_ADDRESS ${w.address.toLowerCase()}`),
      "X_PROVIDER_ID moon_walker",
    ]);
    expect(await page.locator("#name").textContent()).toBe("Moon Walker");
  });

  it("redeems a voucher reward with the points and shows its code, and lists the redemption", async () => {
    const { page } = browser;
    const { auth, base } = campaign.admin;
    const gift = await call("POST", `${base}/rewards`, { name: "Gift card", kind: "voucher", currency: "xp", price: "4" }, auth);
    await call("POST", `${base}/rewards/${gift.body.id}/codes`, { codes: ["GIFT-7731"] }, auth);
    // Saving the name renders the page again, rewards included.
    await page.getByRole("button", { name: "Save" }).click();
    const item = page.locator("#rewards li", { hasText: "Gift card" });
    expect(await item.textContent()).toContain("Gift card — 4 xp");
    await item.getByRole("button", { name: "Redeem" }).click();
    await page.getByText("Redeemed Gift card: delivered.").waitFor();
    expect(await page.locator("#code").textContent()).toBe("GIFT-7731");
    await page.locator("#redemptions li").first().waitFor();
    expect(await page.locator("#redemptions li").allTextContents()).toEqual(["Gift card: 4 xp, delivered Show code"]);
    // The pool had one code: a second redemption is refused, and the page says why.
    await item.getByRole("button", { name: "Redeem" }).click();
    await page.getByText("out-of-stock: reward is out of stock").waitFor();
    // The code is shown again from the list (lists carry none; the one redemption does, to its owner): clear what is
    // on the page, as a later visit would find it, and ask the list.
    await page.evaluate('document.getElementById("code").textContent = ""; document.getElementById("voucher-code").hidden = true;');
    await page.locator("#redemptions li").first().getByRole("button", { name: "Show code" }).click();
    await page.locator("#voucher-code").getByText("GIFT-7731").waitFor();
  });

  it("redeems once for a double click", async () => {
    const { page } = browser;
    const { auth, base } = campaign.admin;
    const sticker = await call("POST", `${base}/rewards`, { name: "Sticker", kind: "manual", currency: "xp", price: "1" }, auth);
    await page.getByRole("button", { name: "Save" }).click();
    const item = page.locator("#rewards li", { hasText: "Sticker" });
    const redemptions: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/me/redemptions")) redemptions.push(request.headers()["idempotency-key"] ?? "");
    });
    // After a redemption the page renders again: the next test starts once that render has ended.
    await drawnAfter(page, async () => {
      await item.getByRole("button", { name: "Redeem" }).dblclick();
      await page.getByText("Redeemed Sticker: pending.").waitFor();
    });
    // Both clicks were handled before the answer to the first came back: one request went out.
    expect(redemptions).toHaveLength(1);
    const listed = await call("GET", `${base}/redemptions?reward_id=${sticker.body.id}`, undefined, auth);
    expect(listed.body.redemptions).toHaveLength(1);
  });

  it("keeps working after its access token expires: two requests refused at once make one refresh", async () => {
    const { page } = browser;
    const refreshes: string[] = [];
    let refreshFinished: () => void = () => {};
    const refreshDone = new Promise<void>((resolve) => {
      refreshFinished = resolve;
    });
    page.on("request", (request) => {
      if (request.url().endsWith("/auth/refresh")) refreshes.push(request.method());
    });
    page.on("requestfinished", (request) => {
      if (request.url().endsWith("/auth/refresh")) refreshFinished();
    });
    // From now on the access token the page holds has expired: portal-api and read-api receive it as the same token
    // (same claims, key and key id) with its exp a minute past, until the page has a new one.
    let held: string | undefined;
    let expired = "";
    const refusals: string[] = [];
    let bothRefused: () => void = () => {};
    const bothOut = new Promise<void>((resolve) => {
      bothRefused = resolve;
    });
    const expire = async (route: Route) => {
      const headers = route.request().headers();
      const token = headers.authorization?.replace(/^Bearer /, "");
      if (token === undefined) return route.fallback();
      if (held === undefined) {
        held = token;
        const decoded = jwt.decode(token, { complete: true });
        if (!decoded || typeof decoded.payload === "string") throw new Error("the page's access token is not a JWT");
        const now = Math.floor(Date.now() / 1000);
        expired = jwt.sign({ ...decoded.payload, iat: now - 960, exp: now - 60 }, signingKey, { algorithm: "ES256", keyid: decoded.header.kid });
      }
      if (token !== held) return route.fallback();
      // Sent on with the expired copy; what the service answers is recorded and handed to the page as it is.
      const response = await route.fetch({ headers: { ...headers, authorization: `Bearer ${expired}` } });
      const order = refusals.push(`${response.status()} ${((await response.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code}`);
      // Both requests leave with the old token before either refusal reaches the page; the second refusal arrives only
      // after the refresh the first one started has finished.
      if (order === 2) bothRefused();
      await bothOut;
      if (order === 2) await refreshDone;
      await route.fulfill({ response });
    };
    await page.route(`${stack.portal?.url}/**`, expire);
    await page.route(`${stack.read.url}/**`, expire);
    // Saving the (empty) name calls portal-api and then draws the page again, the scores read from read-api; showing a
    // voucher's code calls portal-api. Both start with the expired token.
    await page.evaluate('document.getElementById("code").textContent = ""; document.getElementById("voucher-code").hidden = true;');
    await drawnAfter(page, async () => {
      await page.getByRole("button", { name: "Save" }).click();
      await page.locator("#redemptions li", { hasText: "Gift card" }).getByRole("button", { name: "Show code" }).click();
      await page.locator("#voucher-code").getByText("GIFT-7731").waitFor({ timeout: 10_000 });
    });
    expect(await page.locator("#name").textContent()).toBe("(no name yet)");
    expect(await page.locator("#scores").textContent()).toMatch(/^Experience:/);
    expect(await page.locator("#status").textContent()).toBe("");
    // The services refused the held token as expired (not as forged); the page refreshed once and sent both again.
    expect(refusals).toEqual(["401 token-expired", "401 token-expired"]);
    expect(refreshes).toEqual(["POST"]);
  });
});
