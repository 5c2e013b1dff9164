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

/** The dashboard's card headed `title`. */
const card = (title: string) => page.locator(".card", { has: page.getByRole("heading", { name: title, exact: true }) });

/** Waits for the page to say "internal error" anywhere, then expects it said so inside `inCard` and nowhere else. */
async function failsIn(inCard: ReturnType<typeof card>) {
  const alerts = page.getByRole("alert").filter({ hasText: "internal error" });
  await alerts.first().waitFor();
  expect(await inCard.getByRole("alert").filter({ hasText: "internal error" }).count()).toBe(1);
  expect(await alerts.count()).toBe(1);
}

/** A promise to hold a routed request on, and what lets it go. */
function gate() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

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

describe("an action's failure, where the operator clicked", () => {
  /** A campaign with a saved, never activated v1, its Rules tab open. */
  async function rulesWithDraft() {
    const { campaignId, regEventId } = await setUpCampaign(op);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") })).status).toBe(201);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/rules`);
    await card("Rule versions").getByRole("cell", { name: "v1", exact: true }).waitFor();
    // The editor has its starter document: nothing is still loading.
    await page.getByRole("button", { name: "Check" }).waitFor();
    return campaignId;
  }

  it("says under the rule versions that Edit a copy failed", async () => {
    await rulesWithDraft();
    await page.route("**/rule-versions/1", (route) => route.fulfill(INTERNAL));
    await card("Rule versions").getByRole("button", { name: "Edit a copy" }).click();
    await failsIn(card("Rule versions"));
  });

  it("turns Preview changes off while its request runs, and says under the rule versions that it failed", async () => {
    await rulesWithDraft();
    const { held, release } = gate();
    await page.route("**/rule-versions/1/dry-run", async (route) => {
      await held;
      return route.fulfill(INTERNAL);
    });
    const button = card("Rule versions").getByRole("button", { name: "Preview changes" });
    const asked = page.waitForRequest("**/rule-versions/1/dry-run");
    await button.click();
    await asked;
    expect(await button.isDisabled()).toBe(true);
    release();
    await failsIn(card("Rule versions"));
    expect(await button.isDisabled()).toBe(false);
  });

  it("says in the preview that Activate failed", async () => {
    await rulesWithDraft();
    await card("Rule versions").getByRole("button", { name: "Preview changes" }).click();
    const preview = page.getByTestId("dry-run");
    await preview.getByRole("button", { name: "Activate v1" }).waitFor();
    await page.route("**/rule-versions/1/activate", (route) => route.fulfill(INTERNAL));
    await preview.getByRole("button", { name: "Activate v1" }).click();
    await failsIn(preview);
  });

  it("says in the list of keys that Revoke failed", async () => {
    const { campaignId } = await setUpCampaign(op);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "to revoke" })).status).toBe(201);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/keys`);
    await page.route("**/api-keys/*/revoke", (route) => route.fulfill(INTERNAL));
    await card("Keys").getByRole("button", { name: "Revoke" }).click();
    await failsIn(card("Keys"));
  });

  it("says in the list of event types that Retire failed", async () => {
    const { campaignId } = await setUpCampaign(op);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/events`);
    await page.route("**/event-types/*/retire", (route) => route.fulfill(INTERNAL));
    await card("Event types").getByRole("button", { name: "Retire" }).click();
    await failsIn(card("Event types"));
  });

  it("says in the list of operators that Remove failed", async () => {
    expect((await op.call("POST", "/api/operators", { email: "to-remove@pointwise.test", password: "a-long-enough-password" })).status).toBe(201);
    await page.goto(`${h.url}/#/team`);
    await page.route("**/api/operators/*", (route) => (route.request().method() === "DELETE" ? route.fulfill(INTERNAL) : route.fallback()));
    const row = card("Operators").getByRole("row", { name: /to-remove@pointwise\.test/ });
    await row.getByRole("button", { name: "Remove" }).click();
    await failsIn(card("Operators"));
  });
});

describe("the imports list while an upload runs", () => {
  it("asks for the list one request at a time, so a late answer cannot follow a newer one", async () => {
    const { campaignId } = await setUpCampaign(op);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/imports`);
    await page.getByText("No imports yet.").waitFor();
    // The upload is held so the page keeps polling the list; the first poll is held too, every later one answered at once.
    const upload = gate();
    const firstList = gate();
    let asked = 0;
    await page.route("**/csv-imports*", async (route) => {
      if (route.request().method() === "POST") {
        await upload.held;
        return route.fulfill(INTERNAL);
      }
      asked++;
      if (asked > 1) return route.fallback();
      await firstList.held;
      return route.fallback();
    });
    await page.setInputFiles("input[name=csv-file]", { name: "events.csv", mimeType: "text/csv", buffer: Buffer.from("account_id,identity_type,amount\n") });
    await page.getByRole("button", { name: "Upload" }).click();
    await page.waitForRequest((r) => r.method() === "GET" && new URL(r.url()).pathname.endsWith("/csv-imports"));
    // Three ticks of the one-second poll pass while the first request is on its way: none of them asks again.
    await page.waitForTimeout(3_000);
    expect(asked).toBe(1);

    firstList.release();
    upload.release();
    await card("Upload events from a CSV file").getByRole("alert").getByText("internal error").waitFor();
  });
});
