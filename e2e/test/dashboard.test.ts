// A campaign manager's walk through the dashboard in a real browser against the four real services.
import { execFileSync } from "node:child_process";
import type { Stack } from "@pointwise/testkit";
import { openBrowser, waitUntil } from "@pointwise/testkit";
import type { Page } from "playwright-core";
import { OPERATOR, screenshot, startStack } from "./browser";
import { signInOperator } from "./stack";

// A real browser against the four real services: slower than the API tests, so one walk with generous timeouts.
jest.setTimeout(180_000);

let stack: Stack;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  stack = await startStack();
  browser = await openBrowser();
  page = browser.page;
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await stack?.drop();
});

const alice = "0x00000000000000000000000000000000000a11ce";
const bob = "0x0000000000000000000000000000000000000b0b";

interface IngestAnswer {
  data: { event_id?: string } | null;
  errors?: { message: string; extensions: { code: string } }[];
}

/** Posts one earn event with the campaign's key to the real ingest API. */
async function postEvent(apiKey: string, regEventId: string, accountId: string, amount: string, extra: Record<string, string> = {}): Promise<IngestAnswer> {
  const res = await fetch(`${stack.ingest.url}/api/rest/earn-event`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ account_id: accountId, identity_type: "EVM_ADDRESS", amount, reg_event_id: regEventId, ...extra }),
  });
  return (await res.json()) as IngestAnswer;
}

/** Calls the admin API as the demo operator (signed in once per call: the walk changes the password only at its end). */
async function adminApi<T>(path: string): Promise<T> {
  const { auth } = await signInOperator(stack.admin.url, OPERATOR);
  const res = await fetch(`${stack.admin.url}${path}`, { headers: auth });
  return (await res.json()) as T;
}

/** Sends one earn event and fails the test when ingest refuses it. */
async function sendEvent(apiKey: string, regEventId: string, accountId: string, amount: string, extra: Record<string, string> = {}): Promise<void> {
  const body = await postEvent(apiKey, regEventId, accountId, amount, extra);
  if (!body.data?.event_id) throw new Error(`ingest refused the event: ${JSON.stringify(body)}`);
}

describe("a campaign manager runs a campaign from the dashboard", () => {
  let campaignId = "";
  let apiKey = "";
  let regEventId = "";

  it("signs in", async () => {
    await page.goto(stack.admin.url);
    await page.waitForURL(/#\/login/);
    await screenshot(page, "01-sign-in");
    await page.fill("input[name=email]", OPERATOR.email);
    await page.fill("input[name=password]", "wrong password");
    await page.click("button[type=submit]");
    await page.getByText("e-mail or password is wrong").waitFor();
    await page.fill("input[name=password]", OPERATOR.password);
    await page.click("button[type=submit]");
    await page.getByRole("heading", { name: "Campaigns" }).waitFor();
  });

  it("creates a campaign with two currencies", async () => {
    await page.fill("input[name=campaign-name]", "Season 1");
    await page.getByRole("button", { name: "+ Add currency" }).click();
    await page.fill("input[aria-label='Currency 2 key']", "gems");
    await page.fill("input[aria-label='Currency 2 name']", "Gems");
    await screenshot(page, "02-campaigns");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await page.getByTestId("campaign-id").waitFor();
    campaignId = (await page.getByTestId("campaign-id").textContent()) ?? "";
    expect(campaignId).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    await page.getByRole("heading", { name: "Season 1" }).waitFor();
  });

  it("generates an API key and shows it once", async () => {
    await page.getByRole("link", { name: "API keys", exact: true }).click();
    await page.fill("input[name=key-label]", "backend");
    await page.getByRole("button", { name: "Generate key" }).click();
    apiKey = (await page.getByTestId("new-api-key").locator("code").textContent()) ?? "";
    expect(apiKey).toMatch(/^pw_[a-z2-7]{40}$/);
    await page.getByText(`${apiKey.slice(0, 11)}…`).waitFor();
    await screenshot(page, "03-api-keys");
  });

  it("registers an event type and shows its reg_event_id", async () => {
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    await page.fill("input[name=event-name]", "trade_volume");
    await page.getByRole("button", { name: "Register" }).click();
    regEventId = (await page.getByTestId("new-reg-event-id").textContent()) ?? "";
    expect(regEventId).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, "04-event-types");
  });

  it("shows a ready curl with the campaign's real key and event type, which works as printed", async () => {
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    const curl = (await page.getByTestId("curl").textContent()) ?? "";
    expect(curl).toContain(`${stack.ingest.url}/api/rest/earn-event`);
    expect(curl).toContain(`Bearer ${apiKey}`);
    expect(curl).toContain(regEventId);
    await screenshot(page, "05-overview");
    const out = execFileSync("bash", ["-c", curl], { encoding: "utf8" });
    expect(JSON.parse(out).data.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes rules in the form, previews the change and activates them", async () => {
    await page.getByRole("link", { name: "Rules", exact: true }).click();
    await page.getByTestId("rule-0").waitFor();
    await page.getByTestId("rule-points").fill("2");
    await page.getByText("2 xp per unit of trade_volume").waitFor();
    await page.getByRole("button", { name: "Save as new version" }).click();
    const preview = page.getByTestId("dry-run");
    await preview.waitFor();
    expect(await preview.textContent()).toContain("Preview: v1 against no active rules");
    await screenshot(page, "06-rules-preview");
    await page.getByRole("button", { name: "Activate v1" }).click();
    await page.getByTestId("activation-progress").waitFor();
    await page.getByText("done: the new rules are live").waitFor({ timeout: 60_000 });
    await screenshot(page, "07-rules-active");
  });

  it("builds multipliers and milestones in the form that the API accepts as valid", async () => {
    await page.getByText("Multipliers (0)").click();
    await page.getByRole("button", { name: "+ Add a multiplier" }).click();
    await page.getByText("Milestones (0)").click();
    await page.getByRole("button", { name: "+ Add a milestone" }).click();
    await page.getByText("2 xp per unit of trade_volume, x2 on sat, sun, 1 milestone").waitFor();
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await page.getByText("These rules are valid.").waitFor();
    await screenshot(page, "07b-rule-editor");
    await page.getByRole("button", { name: "JSON" }).click();
    const json = JSON.parse(await page.locator("textarea.json").inputValue());
    expect(json.rules[0].multipliers).toEqual([{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }]);
    expect(json.rules[0].milestones).toEqual([{ id: "milestone-1", metric: "count", level: "10", points: "100" }]);
    await page.getByRole("button", { name: "Form" }).click();
    await page.getByTestId("rule-0").waitFor();
  });

  it("shows events sent with the key on the leaderboard and the chart", async () => {
    await sendEvent(apiKey, regEventId, alice, "100");
    await sendEvent(apiKey, regEventId, alice, "25.5");
    await sendEvent(apiKey, regEventId, bob, "40");
    await page.getByRole("link", { name: "Leaderboard", exact: true }).click();
    const board = page.getByTestId("leaderboard");
    // alice: (100 + 25.5) x 2 = 251; bob: 40 x 2 = 80; the curl's wallet: 10 x 2 = 20.
    await waitUntil(
      async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        const text = (await board.textContent()) ?? "";
        return text.includes("251") && text.includes("80");
      },
      60_000,
      "the leaderboard to show the scored events",
    );
    const rows = await board.locator("tbody tr").allTextContents();
    expect(rows[0]).toContain("0x000000…11ce");
    expect(rows[0]).toContain("251");
    expect(rows[1]).toContain("80");
    // A points column's heading stands over its right-aligned figures, not at the column's left edge.
    const alignments = await board.evaluate((table) =>
      [...table.querySelectorAll("thead th")].map((th) => `${th.textContent}:${th.ownerDocument.defaultView?.getComputedStyle(th).textAlign}`),
    );
    expect(alignments).toEqual(["Rank:left", "User:left", "Experience:right", "Gems:right", "Tier:left"]);
    await page.locator(".chart polyline").first().waitFor();
    await screenshot(page, "08-leaderboard");
  });

  it("looks a user up and shows where each point came from", async () => {
    await page.getByRole("link", { name: "Users", exact: true }).click();
    await page.selectOption("select[name=identity-type]", "EVM_ADDRESS");
    await page.fill("input[name=account-id]", alice.toUpperCase().replace("0X", "0x"));
    await page.getByRole("button", { name: "Find" }).click();
    const ledger = page.getByTestId("ledger");
    await ledger.locator("tbody tr").nth(1).waitFor();
    const entries = await ledger.locator("tbody tr").allTextContents();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain("trade_volume");
    expect(entries[0]).toContain("25.5");
    expect(entries[0]).toContain("51 xp");
    expect(entries[1]).toContain("200 xp");
    // Sent live, each event happened when it was received: one time is shown, not a second "received" one.
    expect(entries.some((e) => e.includes("received"))).toBe(false);
    expect(await page.getByTestId("user-detail").textContent()).toContain("251");
    await screenshot(page, "09-user-ledger");
  });

  it("moves the campaign's start, which recomputes every score in the background and leaves them as they were", async () => {
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    // Thirty days ago, as the date-time input takes it (UTC, to the minute).
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 16);
    await page.getByLabel("Starts (UTC)", { exact: true }).fill(start);
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("every score is being recomputed in the background").waitFor();
    expect((await adminApi<{ starts_at: string }>(`/api/campaigns/${campaignId}`)).starts_at).toBe(`${start}:00.000Z`);
    await screenshot(page, "09b-campaign-dates");
    type Jobs = { recompute_jobs: { reason: string; status: string }[] };
    await waitUntil(
      async () => {
        const { recompute_jobs } = await adminApi<Jobs>(`/api/campaigns/${campaignId}/recompute-jobs`);
        return recompute_jobs[0]?.reason === "campaign-dates" && recompute_jobs[0].status === "done";
      },
      60_000,
      "the scoring worker to finish the campaign-dates recompute",
    );
    // Every event so far happened after the new start, so the recomputed scores are the same: 251 and 80.
    await page.getByRole("link", { name: "Leaderboard", exact: true }).click();
    await page.getByRole("button", { name: "Refresh" }).click();
    // The tab loads the board after it opens: wait for its rows before reading them.
    await page.getByTestId("leaderboard").locator("tbody tr").nth(1).waitFor();
    const rows = await page.getByTestId("leaderboard").locator("tbody tr").allTextContents();
    expect(rows[0]).toContain("251");
    expect(rows[1]).toContain("80");
  });

  it("shows an event reported late at the time it happened, with the time it was received beside it", async () => {
    const carol = "0x00000000000000000000000000000000000ca201";
    const happened = new Date(Date.now() - 3 * 3_600_000);
    happened.setUTCMinutes(7, 0, 0);
    await sendEvent(apiKey, regEventId, carol, "3", { occurred_at: happened.toISOString() });
    await page.getByRole("link", { name: "Users", exact: true }).click();
    await page.selectOption("select[name=identity-type]", "EVM_ADDRESS");
    await page.fill("input[name=account-id]", carol);
    const ledger = page.getByTestId("ledger");
    await waitUntil(
      async () => {
        await page.getByRole("button", { name: "Find" }).click();
        return (await ledger.locator("tbody tr").count()) > 0;
      },
      60_000,
      "the late event to be scored",
    );
    const entry = (await ledger.locator("tbody tr").first().textContent()) ?? "";
    // The dashboard writes times as "YYYY-MM-DD HH:MM UTC".
    expect(entry).toContain(`${happened.toISOString().slice(0, 10)} ${happened.toISOString().slice(11, 16)} UTC`);
    expect(entry).toMatch(/received \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await screenshot(page, "09c-late-event");
  });

  it("uploads a CSV with a bad row and shows the row's error", async () => {
    await page.getByRole("link", { name: "CSV import", exact: true }).click();
    // The file is handed to the page from memory, as a person's chosen file would be: nothing is left on disk.
    const csv = `account_id,identity_type,amount,reg_event_id\n${bob},EVM_ADDRESS,5,${regEventId}\nsomeone@example.com,EMAIL,-3,${regEventId}\n`;
    await page.setInputFiles("input[name=csv-file]", { name: "events.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload" }).click();
    const errors = page.getByTestId("row-errors");
    await errors.waitFor();
    const row = (await errors.locator("tbody tr").first().textContent()) ?? "";
    expect(row).toContain("3");
    expect(row).toContain("amount must not be negative");
    expect(await page.getByTestId("import-result").textContent()).toContain("Nothing was imported");
    await page.getByText("rejected").first().waitFor();
    await screenshot(page, "10-csv-import");
  });

  it("retires the event type, after which ingest refuses its events", async () => {
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Retire" }).click();
    await page.getByText("retired", { exact: true }).waitFor();
    const refused = await postEvent(apiKey, regEventId, alice, "1");
    expect(refused.data).toBeNull();
    expect(refused.errors?.[0]?.extensions.code).toBe("unknown-event-type");
  });

  it("revokes the API key, after which ingest refuses it", async () => {
    await page.getByRole("link", { name: "API keys", exact: true }).click();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText(/^revoked /).waitFor();
    await screenshot(page, "11-api-key-revoked");
    await waitUntil(
      async () => (await postEvent(apiKey, regEventId, alice, "1")).errors?.[0]?.extensions.code === "invalid-api-key",
      30_000,
      "ingest to refuse the revoked key",
    );
  });

  it("creates a key that may backfill, and stops and allows its backfill from the list", async () => {
    await page.fill("input[name=key-label]", "history import");
    await page.check("input[name=key-backfill]");
    await page.getByRole("button", { name: "Generate key" }).click();
    const key = (await page.getByTestId("new-api-key").locator("code").textContent()) ?? "";
    expect(await page.isChecked("input[name=key-backfill]")).toBe(false);
    const row = page.getByTestId("api-keys").getByRole("row", { name: /history import/ });
    await row.getByText("may backfill").waitFor();
    type Keys = { api_keys: { prefix: string; backfill: boolean }[] };
    const backfillOf = async () => (await adminApi<Keys>(`/api/campaigns/${campaignId}/api-keys`)).api_keys.find((k) => key.startsWith(k.prefix))?.backfill;
    expect(await backfillOf()).toBe(true);

    await row.getByRole("button", { name: "Stop backfill" }).click();
    await row.getByText("last day only").waitFor();
    expect(await backfillOf()).toBe(false);
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Allow backfill" }).click();
    await row.getByText("may backfill").waitFor();
    expect(await backfillOf()).toBe(true);
    // The revoked key can no longer be changed, so its row offers no toggle.
    const revoked = page.getByTestId("api-keys").getByRole("row", { name: /backend/ });
    expect(await revoked.getByRole("button").count()).toBe(0);
    await screenshot(page, "11b-api-key-backfill");
  });
});

describe("a campaign manager looks after the team", () => {
  const colleague = "colleague@pointwise.test";

  it("adds an operator and removes them again, which signs them out", async () => {
    await page.getByRole("link", { name: "Team", exact: true }).click();
    await page.getByRole("heading", { name: "Team" }).waitFor();
    await page.getByText("you", { exact: true }).waitFor();
    await page.fill("input[type=email]", colleague);
    await page.locator("input[type=password]").first().fill("colleague-password-1");
    await page.getByRole("button", { name: "Add operator" }).click();
    await page.getByText(`${colleague} can now sign in`).waitFor();
    const signIn = (email: string, password: string) =>
      fetch(`${stack.admin.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
    // Adding them again changes nothing, and the page says so: their password stays the first one.
    await page.fill("input[type=email]", colleague);
    await page.locator("input[type=password]").first().fill("another-password-2");
    await page.getByRole("button", { name: "Add operator" }).click();
    await page.getByText(`${colleague} is already an operator of this project; their password is unchanged.`).waitFor();
    expect((await signIn(colleague, "another-password-2")).status).toBe(401);
    const theirs = (await (await signIn(colleague, "colleague-password-1")).json()) as { token: string };
    await screenshot(page, "12-team");

    page.once("dialog", (dialog) => void dialog.accept());
    await page
      .getByRole("row", { name: new RegExp(colleague) })
      .getByRole("button", { name: "Remove" })
      .click();
    await page.getByText(`${colleague} was removed.`).waitFor();
    // The list is read again after the removal; the row goes once it has answered.
    await page.getByRole("row", { name: new RegExp(colleague) }).waitFor({ state: "detached" });
    const afterRemoval = await fetch(`${stack.admin.url}/api/me`, { headers: { authorization: `Bearer ${theirs.token}` } });
    expect(afterRemoval.status).toBe(401);
  });

  it("changes the operator's own password and stays signed in", async () => {
    await page.fill("input[name=current-password]", OPERATOR.password);
    await page.fill("input[name=new-password]", "a-changed-password-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed. You stay signed in here").waitFor();
    // The tab carries on with its new session: reloading the page still shows the team.
    await page.reload();
    await page.getByText("you", { exact: true }).waitFor();
    const login = async (password: string) =>
      (
        await fetch(`${stack.admin.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: OPERATOR.email, password }),
        })
      ).status;
    expect(await login(OPERATOR.password)).toBe(401);
    expect(await login("a-changed-password-1")).toBe(200);
  });
});
