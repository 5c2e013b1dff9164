// Fair play end to end in a real browser: an excluded address vanishes and earns nothing, grants and clawbacks survive a recompute, all audited.
import type { Stack } from "@pointwise/testkit";
import { openBrowser, waitUntil } from "@pointwise/testkit";
import type { Page } from "playwright-core";
import { OPERATOR, screenshot, signInOnDashboard, startStack } from "./browser";
import { signInOperator } from "./stack";

jest.setTimeout(240_000);

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let token = "";

beforeAll(async () => {
  stack = await startStack();
  browser = await openBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
  ({ token } = await signInOperator(stack.admin.url, OPERATOR));
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await stack?.drop();
});

// biome-ignore lint/suspicious/noExplicitAny: the test reads whatever each answer holds.
type Any = any;

async function admin(method: string, path: string, body?: unknown): Promise<Any> {
  const res = await fetch(`${stack.admin.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await res.json()) as Any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

const alice = "0x00000000000000000000000000000000000a11ce";
const bob = "0x0000000000000000000000000000000000000b0b";
const carol = "0x00000000000000000000000000000000000ca201";

let campaignId = "";
let apiKey = "";
let regEventId = "";

async function send(account: string, amount: string): Promise<Any> {
  const res = await fetch(`${stack.ingest.url}/api/rest/earn-event`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ account_id: account, identity_type: "EVM_ADDRESS", amount, reg_event_id: regEventId }),
  });
  return { status: res.status, body: await res.json() };
}

const document = (points: string) => ({
  primaryCurrency: "xp",
  currencies: { xp: { name: "Experience", decimals: 2 } },
  rules: [{ id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points } }],
});

async function activate(version: number): Promise<void> {
  await admin("POST", `/api/campaigns/${campaignId}/rule-versions/${version}/activate`, {});
  await waitUntil(
    async () => (await admin("GET", `/api/campaigns/${campaignId}/rule-versions/${version}`)).status === "active",
    60_000,
    `version ${version} active`,
  );
}

/** The account's xp total as the admin API shows it, or null when the user has no row (or does not exist yet). */
async function xpOf(account: string): Promise<string | null> {
  const res = await fetch(`${stack.admin.url}/api/campaigns/${campaignId}/users?identity_type=EVM_ADDRESS&account_id=${account}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status === 404) return null;
  const user = (await res.json()) as Any;
  return user.scores.find((s: Any) => s.currency === "xp")?.total ?? null;
}

async function jobsDone(): Promise<boolean> {
  const { recompute_jobs } = await admin("GET", `/api/campaigns/${campaignId}/recompute-jobs`);
  return recompute_jobs.every((j: Any) => j.status === "done");
}

describe("fair play from the dashboard", () => {
  it("sets up a scored campaign", async () => {
    const campaign = await admin("POST", "/api/campaigns", { name: "Fair season", currencies: { xp: "Experience" }, primary_currency: "xp" });
    campaignId = campaign.id;
    regEventId = (await admin("POST", `/api/campaigns/${campaignId}/event-types`, { name: "trade" })).reg_event_id;
    apiKey = (await admin("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "backend" })).key;
    await admin("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: document("2") });
    await activate(1);
    for (const [account, amount] of [
      [alice, "100"],
      [bob, "40"],
      [carol, "10"],
    ] as const)
      expect((await send(account, amount)).status).toBe(200);
    // 2 xp per unit.
    await waitUntil(async () => (await xpOf(carol)) === "20", 60_000, "the events to be scored");
    expect(await xpOf(alice)).toBe("200");
    expect(await xpOf(bob)).toBe("80");
  });

  it("excludes an address in the browser: it leaves the leaderboard, and ingest still accepts its events, which earn nothing", async () => {
    await signInOnDashboard(page, stack.admin.url);
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/fairplay`);
    await page.fill("input[name=exclude-account]", alice.toUpperCase().replace("0X", "0x"));
    await page.fill("input[name=exclude-reason]", "sybil cluster");
    await page.getByRole("button", { name: "Exclude", exact: true }).click();
    await page.getByTestId("exclusion-rows").getByText(alice).waitFor();
    await screenshot(page, "fair-01-exclusions");
    // The admin API and the public read API both drop her at once (the read API once its cache hears of the recompute).
    expect(await xpOf(alice)).toBeNull();
    await waitUntil(jobsDone, 60_000, "the exclusion's recompute");
    await waitUntil(
      async () => {
        const board = (await (await fetch(`${stack.read.url}/leaderboard?campaign_id=${campaignId}`, { headers: { "x-api-key": apiKey } })).json()) as Any;
        return board.entries.length === 2;
      },
      90_000,
      "the public leaderboard to drop the excluded address",
    );
    const sent = await send(alice, "500");
    expect(sent.status).toBe(200);
    expect(sent.body.data.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await send(bob, "10")).toMatchObject({ status: 200 });
    // Bob's later event is applied after Alice's (log order): 80 + 20.
    await waitUntil(async () => (await xpOf(bob)) === "100", 60_000, "bob's event to be scored");
    expect(await xpOf(alice)).toBeNull();
    await page.getByRole("link", { name: "Leaderboard", exact: true }).click();
    await page.getByRole("button", { name: "Refresh" }).click();
    // The tab's first load and the refresh are in flight: read the board once its answer is drawn.
    const board = page.getByTestId("leaderboard").locator("tbody tr");
    await waitUntil(async () => (await board.count()) === 2, 15_000, "the refreshed leaderboard's two rows");
    const rows = await board.allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows.join(" ")).not.toContain("a11ce");
  });

  it("grants and claws back in the browser, and both survive a rule recompute", async () => {
    await page.locator("nav.tabs").getByRole("link", { name: "Fair play", exact: true }).click();
    const adjust = async (account: string, points: string, reason: string) => {
      await page.fill("input[name=adjust-account]", account);
      await page.fill("input[name=adjust-points]", points);
      await page.fill("input[name=adjust-reason]", reason);
      await page.getByRole("button", { name: "Record adjustment" }).click();
      await page.getByText(`${points} xp for ${account}: recorded.`).waitFor();
    };
    await adjust(bob, "30", "bug bounty");
    await adjust(carol, "-5.5", "wash trading");
    await page.getByTestId("adjustment-rows").getByText("wash trading").waitFor();
    await screenshot(page, "fair-02-adjustments");
    // Bob: 100 + 30; Carol: 20 - 5.5.
    expect(await xpOf(bob)).toBe("130");
    expect(await xpOf(carol)).toBe("14.5");
    await admin("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: document("3") });
    await activate(2);
    // 3 xp per unit now: Bob (40 + 10) x 3 + 30; Carol 10 x 3 - 5.5; Alice still nothing.
    expect(await xpOf(bob)).toBe("180");
    expect(await xpOf(carol)).toBe("24.5");
    expect(await xpOf(alice)).toBeNull();
  });

  it("shows every one of those actions in the audit trail with its operator", async () => {
    await page.locator("nav.tabs").getByRole("link", { name: "Audit", exact: true }).click();
    const table = page.getByTestId("audit-rows");
    await table.getByText("adjustment.create").first().waitFor();
    const text = (await table.textContent()) ?? "";
    for (const action of ["exclusion.create", "adjustment.create", "rule-version.activate", "rule-version.create", "api-key.create", "campaign.create"])
      expect(text).toContain(action);
    expect(text).toContain(OPERATOR.email);
    await screenshot(page, "fair-03-audit");
    const { entries } = await admin("GET", `/api/campaigns/${campaignId}/audit?limit=200`);
    const adjustments = entries.filter((e: Any) => e.action === "adjustment.create");
    expect(adjustments.map((e: Any) => e.after.points).sort()).toEqual(["-5.5", "30"]);
    expect(entries.every((e: Any) => e.operator_email === OPERATOR.email)).toBe(true);
    await page.locator("aside").getByRole("link", { name: "Fair play", exact: true }).click();
    await page.getByRole("heading", { name: "Fair play" }).waitFor();
    await page.getByTestId("audit-rows").getByText("exclusion.create").first().waitFor();
    await screenshot(page, "fair-04-project");
  });
});
