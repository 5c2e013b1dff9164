// The participant page in headless Chromium against portal-api in-process: a new participant with nothing yet, and
// answers that are not JSON (a proxy's error page) from portal-api and from the read API.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { freePort, type OpenBrowser, openBrowser } from "@pointwise/testkit";
import { getBytes, toUtf8String, Wallet } from "ethers";
import { type Harness, startPortal } from "./harness";

type Page = OpenBrowser["page"];

let h: Harness;
let browser: OpenBrowser;
// No read API runs here: the test answers its requests in the browser (page.route), as each case needs.
let readUrl: string;
const wallet = Wallet.createRandom();

beforeAll(async () => {
  readUrl = `http://127.0.0.1:${await freePort()}`;
  h = await startPortal({ PORTAL_READ_API_URL: readUrl });
  browser = await openBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** window.ethereum for one key, addresses in lowercase as MetaMask answers them. */
async function injectWallet(page: Page): Promise<void> {
  await page.exposeFunction("__testWalletSign", async (hexMessage: string) => wallet.signMessage(toUtf8String(getBytes(hexMessage))));
  await page.addInitScript((address: string) => {
    (globalThis as unknown as { ethereum: unknown }).ethereum = {
      async request({ method, params }: { method: string; params?: string[] }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [address];
        if (method === "eth_chainId") return "0x1";
        if (method === "personal_sign" && params)
          return (globalThis as unknown as { __testWalletSign(h: string): Promise<string> }).__testWalletSign(params[0] as string);
        throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
      },
    };
  }, wallet.address.toLowerCase());
}

const CORS = { "access-control-allow-origin": "*", "access-control-allow-headers": "authorization, content-type" };
const BAD_GATEWAY = { status: 502, headers: CORS, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" };

describe("the participant page", () => {
  it("shows a new participant with nothing yet, and says HTTP 502 where a proxy answered its error page instead of JSON", async () => {
    const { page } = browser;
    await injectWallet(page);
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
    expect(await page.locator("#identities li").allTextContents()).toEqual([`EVM_ADDRESS ${wallet.address.toLowerCase()}`]);
    expect([await page.locator("#rewards li").count(), await page.locator("#redemptions li").count()]).toEqual([0, 0]);
    expect(await page.locator("#status").textContent()).toBe("");

    // The read API behind a proxy that answers an HTML error page: the score line says what happened.
    readAnswer = "bad-gateway";
    await page.fill("#display-name", "Moon Walker");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Signed in as Moon Walker").waitFor();
    await page.getByText("scores unavailable (HTTP 502)").waitFor();

    // portal-api's own route behind such a proxy: the status line says it too.
    await page.route(`${h.url}/me/rewards`, (route) => route.fulfill(BAD_GATEWAY));
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator("#status", { hasText: "HTTP 502" }).waitFor();
    expect(await page.locator("#status").textContent()).toBe("HTTP 502");
  }, 60_000);
});
