// Test support for the dashboard walk: the four built apps with a demo project, screenshots (the browser is testkit's openBrowser).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { repoRoot, type Stack, startStack as startServices } from "@pointwise/testkit";
import type { Page } from "playwright-core";

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
