// The dashboard's Rewards tab in a real browser against the real services: catalogue, voucher codes, manual fulfilment,
// ranking setting; and the campaign's schedule in UTC, whatever the browser's time zone.
import { createTestDatabase, openBrowser, type Stack, seedIdentity, seedRedemption, seedUser, startStack, waitUntil } from "@pointwise/testkit";
import type { Page, Route } from "playwright-core";
import { OPERATOR, screenshot, signInOnDashboard } from "./browser";
import { signInOperator } from "./stack";

jest.setTimeout(180_000);

let stack: Stack;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let token = "";
let campaignId = "";

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.admin.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as T;
}

/** A new user of the campaign with a pending redemption of the Mug (price 5) from a balance of `before`, as portal-api writes it; the user's id. */
async function pendingMugRedemption(idempotencyKey: string, before: string): Promise<string> {
  const user = await seedUser(db, campaignId);
  const { rows: mug } = await db.query<{ id: string }>("SELECT id FROM reward WHERE campaign_id = $1 AND name = 'Mug'", [campaignId]);
  await seedRedemption(db, campaignId, user, mug[0]?.id as string, { price: "5", balanceBefore: before, idempotencyKey });
  return user;
}

/** The URLs of the POSTs the page sends from now on whose path ends in `suffix`. */
function postsTo(page: Page, suffix: string): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.endsWith(suffix)) sent.push(request.url());
  });
  return sent;
}

beforeAll(async () => {
  stack = await startStack({
    operator: OPERATOR,
    name: "rwd",
    env: { VOUCHER_CODE_KEY: "4b1d3c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c", LOG_LEVEL: "warn" },
  });
  db = await createTestDatabase(stack.env.DATABASE_SCHEMA);
  browser = await openBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
  ({ token } = await signInOperator(stack.admin.url, OPERATOR));
  campaignId = (await admin<{ id: string }>("POST", "/api/campaigns", { name: "Shop", currencies: { xp: "XP" }, primary_currency: "xp" })).id;
});
afterAll(async () => {
  await browser?.close();
  await db?.close();
  await stack?.stop();
  await stack?.drop();
});

describe("the Rewards tab", () => {
  it("adds rewards, uploads voucher codes, fulfils a manual redemption and switches the leaderboard to balance", async () => {
    await signInOnDashboard(page, stack.admin.url);
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/rewards`);
    await page.getByTestId("rewards").waitFor();

    await page.fill("input[name=reward-name]", "Gift card");
    await page.fill("input[name=reward-price]", "10");
    await page.getByRole("button", { name: "Add reward" }).click();
    await page.getByText("Gift card added.").waitFor();
    await page.selectOption("select[name=codes-reward]", { label: "Gift card" });
    // A blank line is skipped; the repeat is named by its line in the box (4), not by its place among the codes (3).
    await page.fill("textarea[name=codes]", "CODE-1\n\nCODE-2\nCODE-1");
    await page.getByRole("button", { name: "Upload codes" }).click();
    await page.getByText("2 codes added; refused: line 4: code: appears earlier in this upload.").waitFor();
    const giftRow = page.getByTestId("reward-list").locator("tr", { hasText: "Gift card" });
    // The list reloads after the upload's answer is shown: wait for the row to count the new codes.
    await giftRow.locator("td:nth-child(5)", { hasText: /^2$/ }).waitFor();
    // Price, unlimited stock, two codes left, active.
    expect((await giftRow.locator("td").allTextContents()).slice(0, 6)).toEqual(["Gift card", "voucher", "10 xp", "unlimited", "2", "active"]);

    await page.fill("input[name=reward-name]", "Mug");
    await page.selectOption("select[name=reward-kind]", "manual");
    await page.fill("input[name=reward-price]", "5");
    await page.fill("input[name=reward-stock]", "3");
    await page.getByRole("button", { name: "Add reward" }).click();
    await page.getByText("Mug added.").waitFor();

    // A participant's pending redemption of the mug, as portal-api writes it.
    const user = await pendingMugRedemption("k", "20");
    await page.reload();
    const row = page.getByTestId("redemption-list").locator("tr", { hasText: "Mug" });
    await row.getByText("pending").waitFor();
    expect(await row.textContent()).toContain("20 → 15");
    page.once("dialog", (d) => d.accept("posted today"));
    await row.getByRole("button", { name: "Fulfil" }).click();
    await row.getByText("fulfilled").waitFor();
    expect(await row.textContent()).toContain("posted today");

    await page.selectOption("select[name=leaderboard-ranking]", "balance");
    await waitUntil(
      async () => (await admin<{ leaderboard_ranking: string }>("GET", `/api/campaigns/${campaignId}`)).leaderboard_ranking === "balance",
      15_000,
      "the campaign to rank by balance",
    );
    // The tab reloads the campaign after the change is stored, so the select follows a moment later.
    await waitUntil(async () => (await page.locator("select[name=leaderboard-ranking]").inputValue()) === "balance", 15_000, "the select to show balance");
    await screenshot(page, "rewards-tab");

    // The Leaderboard tab ranks by balance now: 30 earned - 25 spent = 5 comes after 10 earned, nothing spent.
    const { rows: second } = await db.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [campaignId]);
    await db.query(
      `INSERT INTO score(campaign_id, user_id, currency, score, referral_score, total, lifetime, spent, updated_at)
       VALUES ($1, $2, 'xp', 30, 0, 30, 30, 25, now()), ($1, $3, 'xp', 10, 0, 10, 10, 0, now())`,
      [campaignId, user, second[0]?.id],
    );
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/leaderboard`);
    await page.getByTestId("leaderboard-ranking").getByText("Ranked by balance").waitFor();
    const board = page.getByTestId("leaderboard");
    await board.locator("tbody tr").nth(1).waitFor();
    expect(await board.locator("thead th").allTextContents()).toEqual(["Rank", "User", "XP", "Balance (XP)", "Tier"]);
    const cells = async (n: number) => (await board.locator("tbody tr").nth(n).locator("td").allTextContents()).filter((_, i) => i !== 1);
    // Rank, XP earned, balance, tier (the user column shows a generated name).
    expect([await cells(0), await cells(1)]).toEqual([
      ["1", "10", "10", "—"],
      ["2", "30", "5", "—"],
    ]);
    // The trail has each change.
    const audit = await admin<{ entries: { action: string }[] }>("GET", `/api/campaigns/${campaignId}/audit?limit=50`);
    expect(audit.entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(["reward.create", "reward.codes-upload", "redemption.fulfil", "campaign.update"]),
    );
  });

  it("decides nothing when the operator cancels, refuses a stock it cannot read, filters redemptions, and keeps epochs out of reach without a contract", async () => {
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/rewards`);
    await page.getByTestId("rewards").waitFor();
    // "1,000" is no whole number: nothing is created (Number("1,000") is NaN, sent as null: unlimited), and the form says why.
    await page.fill("input[name=reward-name]", "Hoodie");
    await page.selectOption("select[name=reward-kind]", "manual");
    await page.fill("input[name=reward-price]", "7");
    await page.fill("input[name=reward-stock]", "1,000");
    await page.getByRole("button", { name: "Add reward" }).click();
    await page.getByText("stock: write a whole number of items with digits only (1000, not 1,000)").waitFor();
    const { rows: hoodies } = await db.query("SELECT 1 FROM reward WHERE campaign_id = $1 AND name = 'Hoodie'", [campaignId]);
    expect(hoodies).toEqual([]);

    // Cancel on Fulfil leaves the redemption pending (a decided one cannot be changed again).
    await pendingMugRedemption("k2", "9");
    await page.reload();
    const row = page.getByTestId("redemption-list").locator("tr", { hasText: "9 → 4" });
    await row.getByText("pending").waitFor();
    const decisions = postsTo(page, "/fulfil");
    page.once("dialog", (d) => d.dismiss());
    await row.getByRole("button", { name: "Fulfil" }).click();
    // A reload ends whatever the click started: anything it sent is recorded by then.
    await page.reload();
    await row.getByText("pending").waitFor();
    expect(decisions).toEqual([]);
    const { rows: still } = await db.query<{ status: string }>("SELECT status FROM redemption WHERE campaign_id = $1 AND idempotency_key = 'k2'", [campaignId]);
    expect(still).toEqual([{ status: "pending" }]);

    // The filter asks the API for one status: only the pending redemption is listed.
    await page.selectOption("select[name=redemption-status]", "pending");
    await waitUntil(async () => (await page.getByTestId("redemption-list").locator("tbody tr").count()) === 1, 15_000, "only the pending redemption");
    expect(await page.getByTestId("redemption-list").locator("tbody tr").textContent()).toContain("pending");

    // Without CLAIMS_* settings nothing can be closed or published; a closed epoch offers Publish once a contract is set.
    await db.query("INSERT INTO claim_epoch(campaign_id, status, root, closed_at) VALUES ($1, 'closed', $2, now())", [campaignId, `0x${"ab".repeat(32)}`]);
    await page.reload();
    const epochs = page.getByTestId("claim-epochs");
    await epochs.getByText("Contract not configured (CLAIMS_* settings)").waitFor();
    expect(await epochs.getByRole("button", { name: "Close and publish the open epoch" }).isDisabled()).toBe(true);
    expect(await epochs.getByRole("button", { name: "Publish", exact: true }).isDisabled()).toBe(true);
  });
});

describe("the campaign's schedule", () => {
  it("shows and saves its dates in UTC in a browser in another time zone, across a daylight-saving change", async () => {
    // Berlin is UTC+1 now (November) and UTC+2 in July: a date shifted by today's offset showed an hour off.
    await db.query("UPDATE campaign SET ends_at = '2026-07-01T00:00:00Z' WHERE id = $1", [campaignId]);
    const berlin = await openBrowser({ timezoneId: "Europe/Berlin" });
    try {
      const p = berlin.page;
      p.setDefaultTimeout(15_000);
      await signInOnDashboard(p, stack.admin.url);
      await p.goto(`${stack.admin.url}/#/campaigns/${campaignId}/overview`);
      const ends = p.getByLabel("Ends (UTC)", { exact: true });
      await ends.waitFor();
      expect(await ends.inputValue()).toBe("2026-07-01T00:00");
      await p.getByLabel("Starts (UTC)", { exact: true }).fill("2026-06-01T00:00");
      await p.getByRole("button", { name: "Save settings" }).click();
      await p.getByText(/^Saved/).waitFor();
      const { rows } = await db.query<{ starts_at: Date; ends_at: Date }>("SELECT starts_at, ends_at FROM campaign WHERE id = $1", [campaignId]);
      expect([rows[0]?.starts_at.toISOString(), rows[0]?.ends_at.toISOString()]).toEqual(["2026-06-01T00:00:00.000Z", "2026-07-01T00:00:00.000Z"]);
    } finally {
      await berlin.close();
    }
  });
});

describe("a list the dashboard cannot read", () => {
  it("says so, instead of showing the list as empty", async () => {
    // A real failure of the admin API: the table behind the list is gone for a moment.
    await db.query("ALTER TABLE event_type RENAME TO event_type_away");
    try {
      await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/events`);
      // A fresh load of the page, so the campaign's event types are read now.
      await page.reload();
      await page.getByRole("alert").first().waitFor();
      expect(await page.getByRole("alert").first().textContent()).toMatch(/internal error/);
      expect(await page.getByText("No event types yet.").count()).toBe(0);
    } finally {
      await db.query("ALTER TABLE event_type_away RENAME TO event_type");
    }
  });
});

describe("a campaign's adjustments", () => {
  it("pages past the newest 100, so every adjustment can be seen and reversed", async () => {
    const user = await seedUser(db, campaignId);
    await db.query(
      `INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_email, created_at)
       SELECT $1, $2, 'xp', 1, 'grant ' || i, 'o@pointwise.test', now() - make_interval(mins => 200 - i) FROM generate_series(0, 100) AS i`,
      [campaignId, user],
    );
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/fairplay`);
    await page.reload();
    const rows = page.getByTestId("adjustment-rows");
    await rows.getByText("grant 100", { exact: true }).waitFor();
    expect(await rows.getByText("grant 0", { exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Older", exact: true }).click();
    await rows.getByText("grant 0", { exact: true }).waitFor();
    expect(await rows.getByRole("button", { name: "Reverse" }).count()).toBe(1);
    await page.getByRole("button", { name: "Newer", exact: true }).click();
    await rows.getByText("grant 100", { exact: true }).waitFor();
  });
});

describe("adjustments whose answer is lost", () => {
  it("sends a grant and a list again with their Idempotency-Keys and makes each once, on a plain-http address too", async () => {
    // A host name that is not localhost: the page is not a secure context, so crypto.randomUUID does not exist there.
    const plain = await openBrowser({ hostAlias: "dashboard.pointwise.test" });
    try {
      const p = plain.page;
      await signInOnDashboard(p, stack.admin.url.replace("127.0.0.1", "dashboard.pointwise.test"));
      expect(await p.evaluate("window.isSecureContext")).toBe(false);
      const account = "0x00000000000000000000000000000000000dd001";
      const user = await seedUser(db, campaignId);
      await seedIdentity(db, campaignId, user, "EVM_ADDRESS", account);
      const keys: string[] = [];
      p.on("request", (request) => {
        if (request.method() === "POST" && /\/adjustments(\/csv)?(\?|$)/.test(request.url())) keys.push(request.headers()["idempotency-key"] ?? "");
      });
      // The first answer of each endpoint is lost on its way back: the service made the adjustments, the browser sees a dropped connection.
      const answered: number[] = [];
      const lost = new Set<string>();
      const lose = async (route: Route) => {
        const endpoint = new URL(route.request().url()).pathname;
        if (route.request().method() !== "POST" || lost.has(endpoint)) return route.fallback();
        lost.add(endpoint);
        // Playwright sends route.fetch from Node, which does not know the alias.
        answered.push((await route.fetch({ url: route.request().url().replace("dashboard.pointwise.test", "127.0.0.1") })).status());
        await route.abort("connectionreset");
      };
      await p.route("**/adjustments", lose);
      await p.route("**/adjustments/csv?**", lose);
      await p.goto(`${stack.admin.url.replace("127.0.0.1", "dashboard.pointwise.test")}/#/campaigns/${campaignId}/fairplay`);
      await p.fill("input[name=adjust-account]", account);
      await p.fill("input[name=adjust-points]", "12");
      await p.fill("input[name=adjust-reason]", "lost answer");
      await p.getByRole("button", { name: "Record adjustment" }).click();
      await p.getByText("the request could not reach the server; try again").waitFor();
      await p.getByRole("button", { name: "Record adjustment" }).click();
      await p.getByText(`12 xp for ${account}: recorded.`).waitFor();

      await p.getByText("Upload adjustments").click();
      const list = `identity_type,account_id,currency,points,reason\nEVM_ADDRESS,${account},xp,3,lost list answer\n`;
      await p.setInputFiles("input[name=adjustment-list]", { name: "grants.csv", mimeType: "text/csv", buffer: Buffer.from(list) });
      await p.getByRole("button", { name: "Upload", exact: true }).click();
      await p.getByText("the upload could not reach the server").waitFor();
      await p.getByRole("button", { name: "Upload", exact: true }).click();
      await p.getByTestId("adjustment-list-result").getByText("1 adjustments made from 1 rows.").waitFor();

      expect(answered).toEqual([201, 200]);
      expect(keys).toHaveLength(4);
      expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect([keys[1], keys[3]]).toEqual([keys[0], keys[2]]);
      expect(keys[2]).not.toBe(keys[0]);
      const { rows } = await db.query<{ reason: string; points: string }>(
        "SELECT reason, points::text FROM score_adjustment WHERE campaign_id = $1 AND user_id = $2 ORDER BY id",
        [campaignId, user],
      );
      expect(rows).toEqual([
        { reason: "lost answer", points: "12" },
        { reason: "lost list answer", points: "3" },
      ]);
    } finally {
      await plain.close();
    }
  });
});

describe("a user's identities", () => {
  it("asks before moving an identity another user holds: nothing moves when the operator declines, and it moves when they accept", async () => {
    const [target, holder] = [await seedUser(db, campaignId), await seedUser(db, campaignId)];
    const held = "0x00000000000000000000000000000000000bb001";
    await seedIdentity(db, campaignId, holder, "EVM_ADDRESS", held);
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/users?user=${target}`);
    await page.reload();
    const linkForm = page.locator("form", { hasText: "Link identity" });
    await linkForm.locator("select").selectOption("EVM_ADDRESS");
    await linkForm.getByLabel("Account id").fill(held);
    const links = postsTo(page, "/identities");
    const bodies: unknown[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/identities")) bodies.push(request.postDataJSON());
    });
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await linkForm.getByRole("button", { name: "Link", exact: true }).click();
    await waitUntil(async () => asked !== "", 15_000, "the question");
    expect(asked).toBe(`This identity belongs to user ${holder.slice(0, 8)}…${holder.slice(-4)}. Move it, with its events and their points, to this user?`);
    // The one request that went out was refused by the service (identity-held) and moved nothing.
    await waitUntil(async () => links.length === 1, 15_000, "the refused link request");
    const held1 = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, held]);
    expect(held1.rows).toEqual([{ user_id: holder }]);
    page.once("dialog", (d) => void d.accept());
    await linkForm.getByRole("button", { name: "Link", exact: true }).click();
    await page.getByText("The identity belonged to another user and was merged into this one.").waitFor();
    expect(links).toHaveLength(3);
    // The move is pinned to the holder the operator was shown.
    expect(bodies.at(-1)).toMatchObject({ identity_type: "EVM_ADDRESS", account_id: held, move: true, move_from_user_id: holder });
    const held2 = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, held]);
    expect(held2.rows).toEqual([{ user_id: target }]);
  });
});

describe("an event upload that does not reach the service", () => {
  it("keeps the file and its Idempotency-Key after a failed upload, so Upload again sends the same key", async () => {
    // The schedule test above ended the campaign in July: open it again for events of now.
    await db.query("UPDATE campaign SET starts_at = NULL, ends_at = NULL WHERE id = $1", [campaignId]);
    const type = await admin<{ reg_event_id: string }>("POST", `/api/campaigns/${campaignId}/event-types`, { name: "trade" });
    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/csv-imports")) keys.push(request.headers()["idempotency-key"] ?? "");
    });
    await page.goto(`${stack.admin.url}/#/campaigns/${campaignId}/imports`);
    await page.reload();
    const csv = `account_id,identity_type,amount,reg_event_id\n0x00000000000000000000000000000000000cc001,EVM_ADDRESS,5,${type.reg_event_id}\n`;
    await page.setInputFiles("input[name=csv-file]", { name: "trades.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    // The connection drops before the upload reaches the service (the one failure a browser can be handed here).
    await page.route("**/csv-imports?**", (route) => route.abort("connectionreset"), { times: 1 });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByText("the upload could not reach the server").waitFor();
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByTestId("import-result").waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const { rows } = await db.query("SELECT status, rows_published FROM csv_import WHERE campaign_id = $1 ORDER BY created_at DESC", [campaignId]);
    expect(rows).toEqual([{ status: "done", rows_published: "1" }]);
  });
});
