// Test support for the dashboard walk: the four built apps with a demo project, headless Chromium, screenshots.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot, type Stack, startStack as startServices } from "@pointwise/testkit";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium; Playwright's own browser download is not reachable here (scripts/lib/test-setup.mjs installs it). */
export const CHROMIUM = "/usr/bin/chromium";

/** Where the run leaves screenshots of each main page for a person to look at (git-ignored). */
export const SCREENSHOTS = path.join(repoRoot, "test-artifacts", "screenshots");

/** The first operator of the stack's demo project. */
export const OPERATOR = { email: "manager@pointwise.test", password: "correct horse battery staple" };

/** Starts admin-api, ingest-api, scoring-worker and read-api from their built bundles, with the dashboard's demo project. */
export function startStack(): Promise<Stack> {
  return startServices({
    operator: OPERATOR,
    name: "dash",
    env: {
      ADMIN_PROJECT_NAME: "Acme Protocol",
      // Ingest trusts a looked-up event type for this long; short, so a retired type is refused at once.
      LOOKUP_CACHE_MS: "0",
      LOG_LEVEL: "warn",
    },
  });
}

/**
 * A headless Chromium with a fresh profile. `hostAlias` names a host that resolves to 127.0.0.1: a page
 * opened there is not a secure context (only localhost and https are), as on a plain-http address.
 */
export async function openBrowser(
  options: { timezoneId?: string; hostAlias?: string } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "pw-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 900 },
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...(options.hostAlias === undefined ? [] : [`--host-resolver-rules=MAP ${options.hostAlias} 127.0.0.1`]),
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot under test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs the demo operator in on the dashboard at `adminUrl` and waits for the campaign list. */
export async function signInOnDashboard(page: Page, adminUrl: string): Promise<void> {
  await page.goto(adminUrl);
  await page.fill("input[name=email]", OPERATOR.email);
  await page.fill("input[name=password]", OPERATOR.password);
  await page.click("button[type=submit]");
  await page.getByRole("heading", { name: "Campaigns" }).waitFor();
}
