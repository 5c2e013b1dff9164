// A headless Debian Chromium driven by playwright-core, for the dashboard's and the participant page's browser tests.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";

/** Debian's Chromium; Playwright's own browser download is not reachable here (scripts/lib/test-setup.mjs installs it). */
export const CHROMIUM = "/usr/bin/chromium";

/** A browser with a fresh profile and its first page; `close` ends it and removes the profile. */
export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * A headless Chromium with a fresh profile. `hostAlias` names a host that resolves to 127.0.0.1: a page
 * opened there is not a secure context (only localhost and https are), as on a plain-http address.
 */
export async function openBrowser(options: { timezoneId?: string; hostAlias?: string } = {}): Promise<OpenBrowser> {
  // Loaded here rather than at the top, so the many test files that import testkit without a browser do not load it.
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(path.join(os.tmpdir(), "pw-chromium-"));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  const context = await chromium
    .launchPersistentContext(profile, {
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
    })
    .catch((err: unknown) => {
      removeProfile();
      throw err;
    });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      try {
        await context.close();
      } finally {
        removeProfile();
      }
    },
  };
}
