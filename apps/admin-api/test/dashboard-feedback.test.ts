// What the dashboard tells and reads again after an action, in a real browser against admin-api in-process: one
// current message on a page, and a list read again only when the action may have changed it.
import { type Dashboard, openDashboard } from "./dashboard";
import type { Harness, Operator } from "./harness";
import { setUpCampaign } from "./harness";
import { logEvents } from "./seed";

// A real browser: slower than the API tests.
jest.setTimeout(120_000);

const INTERNAL = { status: 500, contentType: "application/json", body: '{"error":{"code":"internal","message":"internal error"}}' };

let dashboard: Dashboard;
let h: Harness;
let op: Operator;
let page: Dashboard["page"];

/** The dashboard's card headed `title`. */
const card = (title: string) => page.locator(".card", { has: page.getByRole("heading", { name: title, exact: true }) });

/** Counts, from now until `stop`, the GET requests the page makes to exactly `pathname` (any query). */
function countGets(pathname: string) {
  let count = 0;
  const on = (request: { method(): string; url(): string }) => {
    if (request.method() === "GET" && new URL(request.url()).pathname === pathname) count++;
  };
  page.on("request", on);
  return {
    get count() {
      return count;
    },
    stop: () => page.off("request", on),
  };
}

/** The Team page, loaded afresh so nothing an earlier test did there is still on it. */
async function openTeam() {
  await page.goto(`${h.url}/#/team`);
  await page.reload();
  await page.getByRole("cell", { name: op.email }).waitFor();
}

/** Adds `email` as an operator through the page's form and waits for the page to say so. */
async function addThroughForm(email: string) {
  const form = card("Add an operator");
  await form.locator("input[type=email]").fill(email);
  await form.locator("input[type=password]").fill("a-long-enough-password");
  await form.getByRole("button", { name: "Add operator" }).click();
  await form.getByRole("status").getByText(`${email} can now sign in with the password you chose.`, { exact: false }).waitFor();
}

beforeAll(async () => {
  dashboard = await openDashboard("Feedback");
  ({ h, op, page } = dashboard);
});
afterEach(async () => {
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
afterAll(() => dashboard?.close());

describe("the Team page's messages", () => {
  it("tells only the newest action's outcome: an add after a removal replaces the removal's message", async () => {
    expect((await op.call("POST", "/api/operators", { email: "leaving@pointwise.test", password: "a-long-enough-password" })).status).toBe(201);
    await openTeam();
    await card("Operators")
      .getByRole("row", { name: /leaving@pointwise\.test/ })
      .getByRole("button", { name: "Remove" })
      .click();
    await card("Operators").getByRole("status").getByText("leaving@pointwise.test was removed.").waitFor();

    await addThroughForm("joining@pointwise.test");
    expect(await page.getByRole("status").allTextContents()).toEqual([
      "joining@pointwise.test can now sign in with the password you chose. Share it with them privately.",
    ]);
  });

  it("clears a failed removal's error once the next action succeeds", async () => {
    expect((await op.call("POST", "/api/operators", { email: "staying@pointwise.test", password: "a-long-enough-password" })).status).toBe(201);
    await openTeam();
    await page.route("**/api/operators/*", (route) => (route.request().method() === "DELETE" ? route.fulfill(INTERNAL) : route.fallback()));
    await card("Operators")
      .getByRole("row", { name: /staying@pointwise\.test/ })
      .getByRole("button", { name: "Remove" })
      .click();
    await card("Operators").getByRole("alert").getByText("internal error").waitFor();

    await addThroughForm("arriving@pointwise.test");
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("status").count()).toBe(1);
  });
});

describe("the exclusion list after a list upload", () => {
  const GOOD = "0x00000000000000000000000000000000000000a1";
  const LISTED = "0x00000000000000000000000000000000000000a2";

  /** A campaign with one exclusion, its Fair play tab open and the upload's part shown; `list` is the list's path. */
  async function fairPlayWithOneExclusion() {
    const { campaignId } = await setUpCampaign(op);
    const excluded = await op.call("POST", `/api/campaigns/${campaignId}/exclusions`, { identity_type: "EVM_ADDRESS", account_id: GOOD, reason: "known" });
    expect(excluded.status).toBe(201);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/fairplay`);
    const panel = page.getByTestId("exclusions-campaign");
    await panel.getByTestId("exclusion-rows").getByText(GOOD).waitFor();
    await panel.getByText("Upload a list").click();
    return { panel, list: `/api/campaigns/${campaignId}/exclusions` };
  }

  /** Chooses `csv` as the list to upload and sends it. */
  async function uploadList(panel: ReturnType<typeof page.getByTestId>, csv: string) {
    await panel.locator("input[name=exclusion-list]").setInputFiles({ name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await panel.getByRole("button", { name: "Upload" }).click();
  }

  it("does not read the list again after an upload the service refused, whole or for a bad row, and keeps it as it was", async () => {
    const { panel, list } = await fairPlayWithOneExclusion();
    const gets = countGets(list);
    try {
      // All or nothing with one bad row: answered, and nothing was excluded.
      await uploadList(panel, `identity_type,account_id,reason\nEVM_ADDRESS,${LISTED},sybil\nNOT_A_TYPE,x,sybil\n`);
      await panel.getByTestId("exclusion-list-result").getByText("Nothing was changed: 1 of 2 rows are bad.").waitFor();
      // A file whose header names no known column: refused whole (400).
      await uploadList(panel, `wallet\n${LISTED}\n`);
      await panel.getByRole("alert").getByText("CSV header must name the columns identity_type,account_id", { exact: false }).waitFor();

      const rows = panel.getByTestId("exclusion-rows");
      expect(await rows.getByText(GOOD).count()).toBe(1);
      expect(await rows.getByText(LISTED).count()).toBe(0);

      // Adding one through the form reads the list again: once that answer is in, any read a refusal asked for would be too.
      await panel.locator("input[name=exclude-account]").fill(LISTED);
      await panel.locator("input[name=exclude-reason]").fill("by hand");
      await panel.getByRole("button", { name: "Exclude" }).click();
      await rows.getByText(LISTED).waitFor();
      expect(gets.count).toBe(1);
    } finally {
      gets.stop();
    }
  });

  it("reads the list again after an upload that excluded its good rows, and shows them", async () => {
    const { panel, list } = await fairPlayWithOneExclusion();
    const gets = countGets(list);
    try {
      await panel.getByRole("radio", { name: "keep the good rows, report the bad ones" }).check();
      await uploadList(panel, `identity_type,account_id,reason\nEVM_ADDRESS,${LISTED},sybil\nNOT_A_TYPE,x,sybil\n`);
      await panel.getByTestId("exclusion-list-result").getByText("1 identities excluded from 2 rows. 1 bad rows were skipped:").waitFor();
      await panel.getByTestId("exclusion-rows").getByText(LISTED).waitFor();
      expect(await panel.getByTestId("exclusion-rows").getByText(GOOD).count()).toBe(1);
      expect(gets.count).toBe(1);
    } finally {
      gets.stop();
    }
  });
  it("reads the list again after an upload whose answer never came, showing what it made", async () => {
    const { panel, list } = await fairPlayWithOneExclusion();
    // The upload reaches the service and is applied; the connection drops before its answer is back.
    await page.route("**/exclusions/csv?**", async (route) => {
      await route.fetch();
      await route.abort("connectionreset");
    });
    const gets = countGets(list);
    try {
      await uploadList(panel, `identity_type,account_id,reason\nEVM_ADDRESS,${LISTED},sybil\n`);
      await panel.getByRole("alert").getByText("the upload could not reach the server").waitFor();
      await panel.getByTestId("exclusion-rows").getByText(LISTED).waitFor();
      expect(gets.count).toBe(1);
    } finally {
      gets.stop();
    }
  });
});

describe("a user's page after a link answered identity-held", () => {
  it("asks for the holder once and does not read the user again when the move is refused because the identity changed hands", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const [target, holder, taker] = [
      "0x00000000000000000000000000000000000000b1",
      "0x00000000000000000000000000000000000000b2",
      "0x00000000000000000000000000000000000000b3",
    ];
    const [targetId, , takerId] = await logEvents(
      h.deps.db,
      campaignId,
      [target, holder, taker].map((accountId) => ({ identityType: "EVM_ADDRESS", accountId, amount: "1", regEventId })),
    );
    const userPath = `/api/campaigns/${campaignId}/users/${targetId}`;
    await page.goto(`${h.url}/#/campaigns/${campaignId}/users?user=${targetId}`);
    const detail = page.getByTestId("user-detail");
    await detail.getByText(target).waitFor();
    // Between the question (answered yes) and the move, another operator moves the identity to a third user.
    await page.route(`**${userPath}/identities`, async (route) => {
      if (route.request().postDataJSON()?.move === true) {
        const moved = await op.call("POST", `/api/campaigns/${campaignId}/users/${takerId}/identities`, {
          identity_type: "EVM_ADDRESS",
          account_id: holder,
          move: true,
        });
        expect(moved.status).toBe(200);
      }
      return route.fallback();
    });
    const userGets = countGets(userPath);
    const holderLookups = countGets(`/api/campaigns/${campaignId}/users`);
    try {
      const form = page.locator("form", { hasText: "Link identity" });
      await form.locator("select").selectOption("EVM_ADDRESS");
      await form.getByLabel("Account id").fill(holder);
      await form.getByRole("button", { name: "Link", exact: true }).click();
      await detail.getByRole("alert").getByText(`belongs to user ${takerId}`, { exact: false }).waitFor();
      expect((await h.deps.db.query("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, holder])).rows).toEqual([
        { user_id: takerId },
      ]);

      // Saving a name reads the user again: once that answer is in, any read the refusal asked for would be too.
      await detail.getByLabel("Display name").fill("Renamed");
      await detail.getByRole("button", { name: "Save name" }).click();
      await page.getByRole("heading", { name: "Renamed" }).waitFor();
      expect(userGets.count).toBe(1);
      expect(holderLookups.count).toBe(1);
    } finally {
      userGets.stop();
      holderLookups.stop();
    }
  });
});
