// The participant page in headless Chromium against portal-api in-process: a new participant with nothing yet,
// answers that are not JSON (a proxy's error page) from portal-api and from the read API, and each section of the
// page loading and failing on its own.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { freePort, injectWallet, type OpenBrowser, openBrowser, seedCampaign, seedReward } from "@pointwise/testkit";
import { Wallet } from "ethers";
import { type Harness, startPortal } from "./harness";

type Page = OpenBrowser["page"];

let h: Harness;
let browser: OpenBrowser;
// No read API runs here: the test answers its requests in the browser (page.route), as each case needs.
let readUrl: string;
const defaultWallet = Wallet.createRandom();

beforeAll(async () => {
  readUrl = `http://127.0.0.1:${await freePort()}`;
  h = await startPortal({ PORTAL_READ_API_URL: readUrl });
  browser = await openBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const CORS = { "access-control-allow-origin": "*", "access-control-allow-headers": "authorization, content-type" };
const BAD_GATEWAY = { status: 502, headers: CORS, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" };

describe("the participant page", () => {
  it("shows a new participant with nothing yet, and says HTTP 502 where a proxy answered its error page instead of JSON", async () => {
    const { page } = browser;
    await injectWallet(page, [defaultWallet]);
    let readAnswer: "no-user" | "bad-gateway" = "no-user";
    await page.route(`${readUrl}/**`, (route) => {
      if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: CORS });
      if (readAnswer === "bad-gateway") return route.fulfill(BAD_GATEWAY);
      const body = JSON.stringify({ error: { code: "user-not-found", message: "user not found" } });
      return route.fulfill({ status: 404, headers: CORS, contentType: "application/json", body });
    });
    await page.goto(`${h.url}/?campaign=${h.campaignId}`);
    await page.getByRole("button", { name: "Sign in with your wallet" }).click();
    await page.getByText("no points yet").waitFor();
    expect(await page.locator("#identities li").allTextContents()).toEqual([`EVM_ADDRESS ${defaultWallet.address.toLowerCase()}`]);
    expect([await page.locator("#rewards li").count(), await page.locator("#redemptions li").count()]).toEqual([0, 0]);
    expect(await page.locator("#status").textContent()).toBe("");

    // The read API behind a proxy that answers an HTML error page: the score line says what happened.
    readAnswer = "bad-gateway";
    await page.fill("#display-name", "Moon Walker");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Signed in as Moon Walker").waitFor();
    await page.getByText("scores unavailable (HTTP 502)").waitFor();
  }, 60_000);
});

/** A read API whose scores answer `Experience: 12.5`, or fails as `answer` says while it is set. */
async function readApi(page: Page): Promise<{ fail(answer: "bad-gateway" | "unreachable" | null): void }> {
  let failing: "bad-gateway" | "unreachable" | null = null;
  await page.route(`${readUrl}/**`, (route) => {
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: CORS });
    if (failing === "bad-gateway") return route.fulfill(BAD_GATEWAY);
    if (failing === "unreachable") return route.abort("connectionrefused");
    const body = '{"scores":{"xp":{"total":12.5}},"balances":{},"currency_names":{"xp":"Experience"}}';
    return route.fulfill({ status: 200, headers: CORS, contentType: "application/json", body });
  });
  return {
    fail(answer) {
      failing = answer;
    },
  };
}

/** A new page signed in to a campaign (the harness's one) with a wallet of its own, once the signed-in view is drawn. */
async function signedInPage(setUp: (page: Page) => Promise<unknown> = async () => undefined, campaignId = h.campaignId): Promise<Page> {
  const page = await browser.context.newPage();
  await injectWallet(page, [Wallet.createRandom()]);
  await setUp(page);
  await page.goto(`${h.url}/?campaign=${campaignId}`);
  await page.getByRole("button", { name: "Sign in with your wallet" }).click();
  await page.locator("#signed-in:not([hidden]):not([aria-busy])").waitFor();
  return page;
}

/** A manual reward for 5 xp of a campaign (the harness's one). */
const addReward = (name: string, campaignId = h.campaignId) => seedReward(h.deps.db, campaignId, { name, price: "5" });

const failedText = (page: Page, id: string) => page.locator(`#${id}-failed`).textContent();
/** The id of the element that has the keyboard's focus ("" for the page's body). */
const focusedId = (page: Page) => page.evaluate<string>('document.activeElement?.id ?? ""');

/** Tells the page there is a claim contract (this portal-api has none) and answers GET /me/claims with `claims()`. */
async function claimsApi(page: Page, claims: () => { status: number; json: unknown }): Promise<void> {
  const contract = `0x${"12".repeat(20)}`;
  await page.route(`${h.url}/web-config.json`, async (route) => {
    const config = await (await route.fetch()).json();
    await route.fulfill({ json: { ...config, claims: { contract, chain_id: 8453 } } });
  });
  await page.route(`${h.url}/me/claims`, (route) => route.fulfill(claims()));
}
const INTERNAL = { status: 500, json: { error: { code: "internal", message: "internal error" } } };

describe("each section of the participant page", () => {
  it("draws the score and the other sections when the rewards answer a proxy's 502, says so in the rewards' place, and Try again loads them", async () => {
    await addReward("Tote bag");
    let rewardsDown = true;
    const page = await signedInPage(async (p) => {
      await readApi(p);
      await p.route(`${h.url}/me/rewards`, (route) => (rewardsDown ? route.fulfill(BAD_GATEWAY) : route.fallback()));
    });
    expect(await page.locator("#scores").textContent()).toBe("Experience: 12.5");
    // An alert, so a screen reader says it as it appears.
    expect(await page.getByRole("alert").allTextContents()).toEqual(["Rewards could not be loaded (HTTP 502). Try again"]);
    expect(await page.locator("#redemptions-failed").isHidden()).toBe(true);
    expect(await page.locator("#status").textContent()).toBe("");

    // Try again from the keyboard, still failing: the message is said again and the keyboard stays on the button.
    const retry = page.locator("#rewards-failed").getByRole("button", { name: "Try again" });
    await retry.focus();
    await page.keyboard.press("Enter");
    await page.locator("#signed-in:not([aria-busy])").waitFor();
    expect(await failedText(page, "rewards")).toBe("Rewards could not be loaded (HTTP 502). Try again");
    expect(await page.locator("#rewards-failed button:focus").count()).toBe(1);

    // Loaded: the message and its button go, and the keyboard goes on from the section's heading.
    rewardsDown = false;
    await page.keyboard.press("Enter");
    await page.locator("#rewards li", { hasText: "Tote bag — 5 xp" }).waitFor();
    expect(await page.locator("#rewards-failed").isHidden()).toBe(true);
    expect(await focusedId(page)).toBe("rewards-heading");
    expect(await page.locator("#status").textContent()).toBe("");
    await page.close();
  }, 60_000);

  it("shows the token claims' failure in their own place, with the score, rewards and redemptions drawn", async () => {
    // A campaign of its own, with one reward: what the page lists does not depend on the other tests.
    const campaignId = await seedCampaign(h.deps.db);
    await addReward("Poster", campaignId);
    let claimsDown = true;
    const page = await signedInPage(async (p) => {
      await readApi(p);
      await claimsApi(p, () => (claimsDown ? INTERNAL : { status: 200, json: { chain_id: 8453, contract: `0x${"12".repeat(20)}`, claims: [] } }));
    }, campaignId);
    expect(await page.locator("#claims-section").isVisible()).toBe(true);
    expect(await failedText(page, "claims")).toBe("Token claims could not be loaded (internal error). Try again");
    expect(await page.locator("#scores").textContent()).toBe("Experience: 12.5");
    expect(await page.locator("#rewards li").allTextContents()).toEqual(["Poster — 5 xp Redeem"]);
    expect([await page.locator("#rewards-failed").isHidden(), await page.locator("#redemptions-failed").isHidden()]).toEqual([true, true]);
    expect(await page.locator("#status").textContent()).toBe("");

    // Nothing to claim after all: the section goes away again, and the keyboard goes on from the redemptions above it.
    claimsDown = false;
    await page.locator("#claims-failed").getByRole("button", { name: "Try again" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("#claims-section").waitFor({ state: "hidden" });
    expect(await focusedId(page)).toBe("redemptions-heading");
    expect(await page.locator("#status").textContent()).toBe("");
    await page.close();
  }, 60_000);

  it("says a failed redemptions list once, in the redemptions' place, and their Try again draws the token claims too", async () => {
    let redemptionsDown = true;
    const account = Wallet.createRandom().address;
    const page = await signedInPage(async (p) => {
      await readApi(p);
      await claimsApi(p, () => ({
        status: 200,
        json: { chain_id: 8453, contract: `0x${"12".repeat(20)}`, claims: [{ epoch: "3", account, amount: "100", proof: [] }] },
      }));
      // The one list both sections are drawn from: GET /me/redemptions answers 500 while it is down.
      await p.route(`${h.url}/me/redemptions`, (route) => (redemptionsDown && route.request().method() === "GET" ? route.fulfill(INTERNAL) : route.fallback()));
    });
    // Without the list the claims' burn vouchers are unknown: the section waits for the list rather than say its failure again.
    expect(await page.locator("#claims-section").isHidden()).toBe(true);
    expect(await page.getByRole("alert").allTextContents()).toEqual(["Your redemptions could not be loaded (internal error). Try again"]);
    expect(await page.locator("#status").textContent()).toBe("");

    redemptionsDown = false;
    await page.locator("#redemptions-failed").getByRole("button", { name: "Try again" }).click();
    await page.locator("#redemptions-failed").waitFor({ state: "hidden" });
    await page.locator("#signed-in:not([aria-busy])").waitFor();
    expect(await page.locator("#claims li").allTextContents()).toEqual([`Epoch 3: 100 base units of the claim token to ${account} Claim`]);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.locator("#status").textContent()).toBe("");
    await page.close();
  }, 60_000);

  it("says a server could not be reached, not the browser's 'Failed to fetch', and the score's Try again draws it", async () => {
    let read: Awaited<ReturnType<typeof readApi>> | undefined;
    const page = await signedInPage(async (p) => {
      read = await readApi(p);
      read.fail("unreachable");
      await p.route(`${h.url}/me/redemptions`, (route) => (route.request().method() === "GET" ? route.abort("connectionrefused") : route.fallback()));
    });
    expect(await failedText(page, "redemptions")).toBe("Your redemptions could not be loaded (the server could not be reached). Try again");
    expect(await page.locator("#scores").textContent()).toBe("");
    expect(await failedText(page, "scores")).toBe("scores unavailable (the server could not be reached). Try again");
    expect(await page.locator("#status").textContent()).toBe("");

    read?.fail(null);
    await page.locator("#scores-failed").getByRole("button", { name: "Try again" }).click();
    await page.locator("#scores", { hasText: "Experience: 12.5" }).waitFor();
    expect(await page.locator("#scores-failed").isHidden()).toBe(true);
    // The redemptions are still down and still say so.
    expect(await failedText(page, "redemptions")).toBe("Your redemptions could not be loaded (the server could not be reached). Try again");
    await page.close();
  }, 60_000);

  it("says the wallet declined instead of its error code, and that there is no wallet instead of a TypeError", async () => {
    const page = await signedInPage(readApi);
    // The participant declines the signature of the next wallet link in the wallet.
    await page.evaluate(() => {
      const ethereum = (globalThis as unknown as { ethereum: { request(a: { method: string }): Promise<unknown> } }).ethereum;
      const request = ethereum.request.bind(ethereum);
      ethereum.request = async (args) => {
        if (args.method === "personal_sign") throw Object.assign(new Error("User rejected the request."), { code: 4001 });
        if (args.method === "eth_requestAccounts") return ["0x00000000000000000000000000000000000b0b00"];
        return request(args);
      };
    });
    await page.getByRole("button", { name: "Link another wallet" }).click();
    await page.locator("#status", { hasText: "you declined the request in your wallet" }).waitFor();
    expect(await page.locator("#status").textContent()).toBe("you declined the request in your wallet");

    // The wallet extension is gone (turned off, or another browser profile restored the session).
    await page.evaluate(() => {
      (globalThis as unknown as { ethereum?: unknown }).ethereum = undefined;
    });
    await page.getByRole("button", { name: "Link another wallet" }).click();
    await page.locator("#status", { hasText: "no browser wallet found" }).waitFor();
    expect(await page.locator("#status").textContent()).toBe("no browser wallet found");
    await page.close();
  }, 60_000);

  it("waits for the page's settings when Sign in is clicked before they came, and signs in once they do", async () => {
    const page = await browser.context.newPage();
    await injectWallet(page, [Wallet.createRandom()]);
    await readApi(page);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(`${h.url}/web-config.json`, async (route) => {
      await answered;
      await route.fallback();
    });
    await page.goto(`${h.url}/?campaign=${h.campaignId}`);
    await page.getByRole("button", { name: "Sign in with your wallet" }).click();
    expect(await page.locator("#status").textContent()).toBe("");
    expect(asked.filter((p) => p.startsWith("/auth/"))).toEqual([]);

    answer();
    await page.locator("#signed-in:not([hidden]):not([aria-busy])").waitFor();
    expect(await page.locator("#scores").textContent()).toBe("Experience: 12.5");
    expect(await page.locator("#status").textContent()).toBe("");
    await page.close();
  }, 60_000);

  it("says the page's settings did not load when web-config.json fails, and asks for no signature then", async () => {
    const page = await browser.context.newPage();
    await injectWallet(page, [Wallet.createRandom()]);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await page.route(`${h.url}/web-config.json`, (route) => route.fulfill(BAD_GATEWAY));
    await page.goto(`${h.url}/?campaign=${h.campaignId}`);
    await page.locator("#status", { hasText: "The page's settings did not load (HTTP 502); reload the page." }).waitFor();
    await page.getByRole("button", { name: "Sign in with your wallet" }).click();
    await page.locator("#status", { hasText: "the page's settings did not load; reload the page" }).waitFor();
    expect(asked.filter((p) => p.startsWith("/auth/"))).toEqual([]);
    await page.close();
  }, 60_000);
});
