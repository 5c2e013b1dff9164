// What the dashboard tells and reads again after an action, in a real browser against admin-api in-process: one
// current message on a page, and a list read again only when the action may have changed it.
import { type AppProcess, dropNamespace, spawnApp, testServiceEnv, waitUntil } from "@pointwise/testkit";
import { type Dashboard, openDashboard } from "./dashboard";
import { type Harness, type Json, type Operator, perUnitRules, recomputesSettled, setUpCampaign } from "./harness";
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
    expect(await page.getByRole("status").allTextContents()).toEqual([
      "arriving@pointwise.test can now sign in with the password you chose. Share it with them privately.",
    ]);
  });
});

describe("a user's page's messages", () => {
  it("tells only the newest action's outcome: a refusal after a success shows alone, and so does a success after it", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const account = "0x00000000000000000000000000000000000000d1";
    const [userId] = await logEvents(h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: account, amount: "1", regEventId }]);
    await page.goto(`${h.url}/#/campaigns/${campaignId}/users?user=${userId}`);
    const detail = page.getByTestId("user-detail");
    await detail.getByText(account).waitFor();

    await detail.getByLabel("Display name").fill("Ada");
    await detail.getByRole("button", { name: "Save name" }).click();
    await detail.getByRole("status").getByText("Display name saved.").waitFor();

    // A user cannot refer themselves: the service refuses it.
    await detail.getByLabel("Referrer (user id)").fill(userId as string);
    await detail.getByRole("button", { name: "Set referrer" }).click();
    await detail.getByRole("alert").getByText("referrer_id must not be the user itself").waitFor();
    expect(await detail.getByRole("status").count()).toBe(0);

    const form = page.locator("form", { hasText: "Link identity" });
    await form.locator("select").selectOption("EMAIL");
    await form.getByLabel("Account id").fill("ada@pointwise.test");
    await form.getByRole("button", { name: "Link", exact: true }).click();
    await detail.getByRole("status").getByText("Identity linked.").waitFor();
    expect(await detail.getByRole("alert").count()).toBe(0);
    expect(await detail.getByRole("status").allTextContents()).toEqual(["Identity linked."]);
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
  let worker: AppProcess | undefined;
  beforeAll(async () => {
    // The real scoring worker runs the recompute a move queues, so the page can be watched picking up its outcome.
    const env = testServiceEnv(h.deps.env.DATABASE_SCHEMA, { namespace: h.deps.env.NAMESPACE });
    worker = await spawnApp("scoring-worker", { ...env, LOG_LEVEL: "warn", RECOMPUTE_POLL_MS: "100" });
  });
  afterAll(async () => {
    await worker?.stop();
    if (worker) await dropNamespace(h.deps.env.NAMESPACE);
  });

  /** A campaign paying 2 xp per unit, live, with one user per account of `amounts` (their events' amounts), and that user's page open. */
  async function userPageWithRules(target: string, amounts: Record<string, string[]>) {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const events = Object.entries(amounts).flatMap(([accountId, list]) =>
      list.map((amount) => ({ identityType: "EVM_ADDRESS", accountId, amount, regEventId })),
    );
    const users = await logEvents(h.deps.db, campaignId, events);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") })).status).toBe(201);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {})).status).toBe(202);
    await recomputesSettled(op, campaignId);
    const targetId = users[events.findIndex((e) => e.accountId === target)] as string;
    await page.goto(`${h.url}/#/campaigns/${campaignId}/users?user=${targetId}`);
    await page.getByTestId("user-detail").getByText(target).waitFor();
    return { campaignId, targetId, users: Object.fromEntries(events.map((e, i) => [e.accountId, users[i] as string])) };
  }

  /** Fills the Link form with an EVM address and sends it. */
  async function link(accountId: string) {
    const form = page.locator("form", { hasText: "Link identity" });
    await form.locator("select").selectOption("EVM_ADDRESS");
    await form.getByLabel("Account id").fill(accountId);
    await form.getByRole("button", { name: "Link", exact: true }).click();
  }

  /** The Points column of the ledger, top to bottom. */
  const ledgerPoints = () => page.getByTestId("ledger").locator("tbody tr td:nth-child(6)").allTextContents();

  it("shows the moved events in the ledger and their points in the scores once the move's recompute is done, without a reload", async () => {
    const [target, holder] = ["0x00000000000000000000000000000000000000c1", "0x00000000000000000000000000000000000000c2"];
    const { campaignId } = await userPageWithRules(target, { [target]: ["1"], [holder]: ["3", "4"] });
    const detail = page.getByTestId("user-detail");
    const ledger = page.getByTestId("ledger");
    // 2 xp per unit: the user's own event of 1 unit.
    await ledger.locator("tbody tr").first().waitFor();
    expect(await ledgerPoints()).toEqual(["2"]);
    await detail.locator(".score-total").getByText("2", { exact: true }).waitFor();
    // Marks this document: a reload would make a new one without the mark.
    await page.evaluate(() => Object.assign(globalThis, { beforeTheMove: true }));

    await link(holder);
    await detail.getByRole("status").getByText("The identity belonged to another user and was merged into this one.", { exact: false }).waitFor();
    // The holder's events of 3 and 4 units are now this user's: 2 + 6 + 8 = 16 xp.
    await ledger.locator("tbody tr").nth(2).waitFor();
    expect((await ledgerPoints()).sort()).toEqual(["2", "6", "8"]);
    await detail.locator(".score-total").getByText("16", { exact: true }).waitFor();
    await detail.getByRole("status").getByText("Recomputed: the scores and the ledger below include this change.").waitFor();
    expect(await page.evaluate(() => (globalThis as { beforeTheMove?: boolean }).beforeTheMove)).toBe(true);
    expect((await op.call("GET", `/api/campaigns/${campaignId}/recompute-jobs`)).body.recompute_jobs.map((j: Json) => j.reason)).toContain("identity-link");
  });

  /**
   * A user's page, and another user holding `holder`; between the operator's first yes and the move, another operator
   * moves the identity to a third user (the taker).
   */
  async function heldIdentityTakenMeanwhile() {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const [target, holder, taker] = [
      "0x00000000000000000000000000000000000000b1",
      "0x00000000000000000000000000000000000000b2",
      "0x00000000000000000000000000000000000000b3",
    ];
    const [targetId, holderId, takerId] = (await logEvents(
      h.deps.db,
      campaignId,
      [target, holder, taker].map((accountId) => ({ identityType: "EVM_ADDRESS", accountId, amount: "1", regEventId })),
    )) as [string, string, string];
    await page.goto(`${h.url}/#/campaigns/${campaignId}/users?user=${targetId}`);
    await page.getByTestId("user-detail").getByText(target).waitFor();
    let taken = false;
    await page.route(`**/api/campaigns/${campaignId}/users/${targetId}/identities`, async (route) => {
      if (!taken && route.request().postDataJSON()?.move === true) {
        taken = true;
        const moved = await op.call("POST", `/api/campaigns/${campaignId}/users/${takerId}/identities`, {
          identity_type: "EVM_ADDRESS",
          account_id: holder,
          move: true,
        });
        expect(moved.status).toBe(200);
      }
      return route.fallback();
    });
    const holderOf = async () =>
      (await h.deps.db.query("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, holder])).rows[0]?.user_id;
    return { campaignId, holder, targetId, holderId, takerId, holderOf };
  }

  /** A user id as the dashboard's questions shorten it. */
  const short = (id: string) => `${id.slice(0, 8)}…${id.slice(-4)}`;

  it("asks again, naming the new holder, when the identity changed hands after the operator agreed to move it, and moves it from them", async () => {
    const { campaignId, holder, targetId, holderId, takerId, holderOf } = await heldIdentityTakenMeanwhile();
    const detail = page.getByTestId("user-detail");
    const holderLookups = countGets(`/api/campaigns/${campaignId}/users`);
    const asked = dashboard.dialogs.length;
    try {
      await link(holder);
      await detail.getByRole("status").getByText("The identity belonged to another user and was merged into this one.", { exact: false }).waitFor();
      // The holder is asked for once more, for the user who holds it now, and the operator is asked about that user.
      expect(dashboard.dialogs.slice(asked)).toEqual([
        `This identity belongs to user ${short(holderId)}. Move it, with its events and their points, to this user?`,
        `Since you were asked, this identity moved to user ${short(takerId)}. Move it from that user, with its events and their points, to this user?`,
      ]);
      expect(holderLookups.count).toBe(2);
      // The service's advice to send "move": true is the dashboard's business, never shown to the operator.
      expect(await detail.getByRole("alert").count()).toBe(0);
      expect(await holderOf()).toBe(targetId);
      await detail.getByText(holder).waitFor();
    } finally {
      holderLookups.stop();
    }
  });

  it("leaves the identity with its new holder and does not read the user again when the operator declines the second question", async () => {
    const { campaignId, holder, targetId, takerId, holderOf } = await heldIdentityTakenMeanwhile();
    const detail = page.getByTestId("user-detail");
    const userGets = countGets(`/api/campaigns/${campaignId}/users/${targetId}`);
    const holderLookups = countGets(`/api/campaigns/${campaignId}/users`);
    const asked = dashboard.dialogs.length;
    dashboard.answerNext(true, false);
    try {
      await link(holder);
      // The holder is asked for once more, for the user who holds it now; the operator says no, and nothing moves.
      await waitUntil(() => dashboard.dialogs.length === asked + 2, 15_000, "the second question");
      expect(dashboard.dialogs[asked + 1]).toBe(
        `Since you were asked, this identity moved to user ${short(takerId)}. Move it from that user, with its events and their points, to this user?`,
      );
      await detail.getByRole("button", { name: "Link", exact: true }).and(page.locator(":enabled")).waitFor();
      expect(await detail.getByRole("alert").count()).toBe(0);
      expect(await holderOf()).toBe(takerId);

      // Saving a name reads the user again: once that answer is in, any read the declined move asked for would be too.
      await detail.getByLabel("Display name").fill("Renamed");
      await detail.getByRole("button", { name: "Save name" }).click();
      await page.getByRole("heading", { name: "Renamed" }).waitFor();
      expect(userGets.count).toBe(1);
      expect(holderLookups.count).toBe(2);
    } finally {
      userGets.stop();
      holderLookups.stop();
    }
  });
});
