// The dashboard's failures in a real browser against admin-api in-process: a request that fails says so where the
// operator is looking, and an ended session sends them back to sign in, whichever way the request went.
import { type Dashboard, openDashboard } from "./dashboard";
import { type Harness, type Operator, perUnitRules, setUpCampaign } from "./harness";
import { activateAsWorker, logEvents } from "./seed";

// A real browser: slower than the API tests.
jest.setTimeout(120_000);

const BAD_GATEWAY = { status: 502, contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" };
const INTERNAL = { status: 500, contentType: "application/json", body: '{"error":{"code":"internal","message":"internal error"}}' };

let dashboard: Dashboard;
let h: Harness;
let op: Operator;
let page: Dashboard["page"];
const signIn = () => dashboard.signIn();

beforeAll(async () => {
  dashboard = await openDashboard("Errors");
  ({ h, op, page } = dashboard);
});
afterEach(async () => {
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
afterAll(() => dashboard?.close());

describe("the dashboard's failures", () => {
  it("says why the ledger's older entries did not load, under the ledger, and loads them on a second click", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const wallet = "0x00000000000000000000000000000000000001ed";
    // 51 awards: one more than the ledger's first page.
    const events = Array.from({ length: 51 }, () => ({ identityType: "EVM_ADDRESS", accountId: wallet, amount: "1", regEventId }));
    const [userId] = await logEvents(h.deps.db, campaignId, events);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") })).status).toBe(201);
    await activateAsWorker(h.deps.db, campaignId, 1);

    await page.goto(`${h.url}/#/campaigns/${campaignId}/users?user=${userId}`);
    const ledger = page.getByTestId("ledger");
    await ledger.locator("tbody tr").nth(49).waitFor();
    const older = (url: URL) => url.pathname.endsWith("/ledger") && url.searchParams.has("before");
    await page.route(older, (route) => route.fulfill(BAD_GATEWAY));
    await ledger.getByRole("button", { name: "Older entries" }).click();
    await ledger.getByRole("alert").getByText("Older entries could not be loaded: request failed with status 502", { exact: true }).waitFor();
    expect(await ledger.locator("tbody tr").count()).toBe(50);

    await page.unroute(older);
    await ledger.getByRole("button", { name: "Older entries" }).click();
    await ledger.locator("tbody tr").nth(50).waitFor();
    expect(await ledger.getByRole("alert").count()).toBe(0);
    expect(await ledger.getByRole("button", { name: "Older entries" }).count()).toBe(0);
  });

  it("says when the recompute's progress cannot be read, beside the progress, until it can again", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") })).status).toBe(201);
    // No scoring worker runs here: the job stays queued and the page keeps asking for it.
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {})).status).toBe(202);
    let failing = true;
    await page.route("**/recompute-jobs/*", (route) => (failing ? route.fulfill(INTERNAL) : route.fallback()));
    await page.goto(`${h.url}/#/campaigns/${campaignId}/rules`);
    const progress = page.getByTestId("activation-progress");
    await progress.getByText("queued: waiting for the scoring worker").waitFor();
    await progress.getByRole("alert").getByText("The progress could not be read (internal error); trying again.").waitFor();

    failing = false;
    await progress.getByRole("alert").waitFor({ state: "detached" });
    expect(await progress.getByText("queued: waiting for the scoring worker").count()).toBe(1);
  });

  it("asks for the recompute's progress one request at a time, so a late failure cannot follow a newer answer", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") })).status).toBe(201);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {})).status).toBe(202);
    // The first poll's answer (a failure) is held back; every later one would be answered at once.
    let asked = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/recompute-jobs/*", async (route) => {
      asked++;
      if (asked > 1) return route.fallback();
      await held;
      return route.fulfill(INTERNAL);
    });
    await page.goto(`${h.url}/#/campaigns/${campaignId}/rules`);
    const progress = page.getByTestId("activation-progress");
    await progress.getByText("queued: waiting for the scoring worker").waitFor();
    await page.waitForRequest("**/recompute-jobs/*");
    // Three ticks of the one-second poll pass while the first request is on its way: none of them asks again.
    await page.waitForTimeout(3_000);
    expect(asked).toBe(1);

    release();
    await progress.getByRole("alert").getByText("The progress could not be read (internal error); trying again.").waitFor();
    await progress.getByRole("alert").waitFor({ state: "detached" });
    expect(asked).toBeGreaterThan(1);
  });

  it("says on the Overview that the setup checklist could not be read, instead of showing steps as not done", async () => {
    const { campaignId } = await setUpCampaign(op);
    await page.route(`**/api/campaigns/${campaignId}/api-keys`, (route) => route.fulfill(INTERNAL));
    await page.goto(`${h.url}/#/campaigns/${campaignId}/overview`);
    const card = page.locator(".card", { has: page.getByRole("heading", { name: "Send an event" }) });
    await card.getByRole("alert").getByText("The checklist could not be read (internal error).").waitFor();
    // The keys did not load: their step is unknown (?), not "not done" (○); the event type is registered, no rules are.
    const steps = card.locator(".checklist li");
    await steps.filter({ hasText: "Register an event type" }).and(page.locator(".done")).waitFor();
    expect(await steps.allTextContents()).toEqual(["? Generate an API key", "✓ Register an event type", "○ Write and activate rules"]);
  });

  it("sends the operator back to sign in when the session ended before a CSV upload, as every other request does", async () => {
    const { campaignId } = await setUpCampaign(op);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/imports`);
    await page.getByRole("heading", { name: "Upload events from a CSV file" }).waitFor();
    await page.setInputFiles("input[name=csv-file]", { name: "events.csv", mimeType: "text/csv", buffer: Buffer.from("account_id,identity_type,amount\n") });
    // The session ends as the upload goes (signed out in another tab, or expired): the upload is answered as the
    // service answers a request of an ended session. Only the upload: the page's other requests must not be what
    // sends the operator to sign in.
    const ended = await h.call("POST", `/api/campaigns/${campaignId}/csv-imports`, "a,b\n", { authorization: "Bearer ended", "content-type": "text/csv" });
    expect(ended.status).toBe(401);
    await page.route(
      (url) => url.pathname.endsWith("/csv-imports") && url.searchParams.has("mode"),
      (route) => route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify(ended.body) }),
    );
    await page.getByRole("button", { name: "Upload" }).click();
    await page.locator("input[name=email]").waitFor();
    expect(page.url()).toBe(`${h.url}/#/login`);
    expect(await page.evaluate('sessionStorage.getItem("pointwise-session")')).toBeNull();
    await signIn();
  });
});
