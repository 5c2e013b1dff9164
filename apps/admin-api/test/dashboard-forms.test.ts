// The dashboard's forms in a real browser against admin-api in-process: what an operator types is sent as meant, or refused before it is sent.
import { type Dashboard, openDashboard } from "./dashboard";
import type { Harness, Operator } from "./harness";
import { setUpCampaign } from "./harness";
import { logEvents } from "./seed";

// A real browser: slower than the API tests.
jest.setTimeout(120_000);

let dashboard: Dashboard;
let h: Harness;
let op: Operator;
let page: Dashboard["page"];

beforeAll(async () => {
  dashboard = await openDashboard("Forms");
  ({ h, op, page } = dashboard);
});
afterAll(() => dashboard?.close());

describe("the dashboard's forms", () => {
  it("refuses a currency key given twice before sending, instead of keeping only the last of the two", async () => {
    const before = (await op.call("GET", "/api/campaigns")).body.campaigns.length;
    await page.goto(`${h.url}/#/campaigns`);
    await page.fill("input[name=campaign-name]", "Two currencies");
    await page.click("text=+ Add currency");
    await page.fill("input[aria-label='Currency 2 key']", "xp");
    await page.fill("input[aria-label='Currency 2 name']", "Gems");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await page.getByText("currencies: the key xp is given twice; give each currency its own key").waitFor();
    expect((await op.call("GET", "/api/campaigns")).body.campaigns.length).toBe(before);

    // The settings of an existing campaign check the same.
    const { campaignId } = await setUpCampaign(op);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/overview`);
    await page.fill("input[aria-label='Currency 2 key']", "xp");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("currencies: the key xp is given twice; give each currency its own key").waitFor();
    expect((await op.call("GET", `/api/campaigns/${campaignId}`)).body.currencies).toEqual({ xp: "Experience", gems: "Gems" });
  });

  it("says an operator added meanwhile from another tab keeps their password, instead of telling the new one works", async () => {
    await page.goto(`${h.url}/#/team`);
    await page.getByRole("cell", { name: op.email }).waitFor();
    // Another tab (or colleague) adds them after this page loaded its list.
    expect((await op.call("POST", "/api/operators", { email: "second-tab@pointwise.test", password: "the-first-password" })).status).toBe(201);
    await page.fill("input[type=email]", "second-tab@pointwise.test");
    await page.locator("input[type=password]").first().fill("another-password-here");
    await page.getByRole("button", { name: "Add operator" }).click();
    await page.getByText("second-tab@pointwise.test is already an operator of this project; their password is unchanged.").waitFor();
    expect((await h.call("POST", "/api/auth/login", { email: "second-tab@pointwise.test", password: "the-first-password" })).status).toBe(200);
  });

  it("takes an account pasted with spaces around it in the exclusion and adjustment forms, as the user search does", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const wallet = "0x00000000000000000000000000000000000a11ce";
    const [userId] = await logEvents(h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: wallet, amount: "1", regEventId }]);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/fairplay`);
    await page.fill("input[name=adjust-account]", ` ${wallet} `);
    await page.fill("input[name=adjust-points]", "12.5");
    await page.fill("input[name=adjust-reason]", "pasted");
    await page.getByRole("button", { name: "Record adjustment" }).click();
    await page.getByText(`12.5 xp for ${wallet}: recorded.`).waitFor();
    const adjustments = (await op.call("GET", `/api/campaigns/${campaignId}/adjustments`)).body.adjustments;
    expect(adjustments.map((a: { user_id: string; points: string }) => [a.user_id, a.points])).toEqual([[userId, "12.5"]]);

    await page.fill("input[name=exclude-account]", `${wallet.toUpperCase().replace("0X", "0x")}\t`);
    await page.fill("input[name=exclude-reason]", "pasted");
    await page.getByRole("button", { name: "Exclude" }).click();
    await page.getByTestId("exclusion-rows").getByText(wallet).waitFor();
    expect((await op.call("GET", `/api/campaigns/${campaignId}/exclusions`)).body.exclusions.map((x: { account_id: string }) => x.account_id)).toEqual([
      wallet,
    ]);
  });
});
