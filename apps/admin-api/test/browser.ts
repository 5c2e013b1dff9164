import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppProcess, createTestDatabase, freePort, repoRoot, spawnApp, testUrls, uniqueName } from "@pointwise/testkit";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium; Playwright's own browser download is not reachable here (scripts/lib/test-setup.mjs installs it). */
export const CHROMIUM = "/usr/bin/chromium";

/** Where the run leaves screenshots of each main page for a person to look at (git-ignored). */
export const SCREENSHOTS = path.join(repoRoot, "test-artifacts", "screenshots");

/** The first operator of the stack's demo project. */
export const OPERATOR = { email: "manager@pointwise.test", password: "correct horse battery staple" };

/** The four services as real processes in their own schema and namespace. */
export interface Stack {
  admin: AppProcess;
  ingest: AppProcess;
  worker: AppProcess;
  read: AppProcess;
  stop(): Promise<void>;
}

/** Starts admin-api, ingest-api, scoring-worker and read-api from their built bundles. */
export async function startStack(): Promise<Stack> {
  const schema = uniqueName("dash");
  const db = await createTestDatabase(schema);
  const ingestPort = await freePort();
  const env = {
    DATABASE_URL: testUrls.database,
    DATABASE_SCHEMA: schema,
    REDIS_URL: testUrls.redis,
    NATS_URL: testUrls.nats,
    NAMESPACE: schema,
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    ADMIN_EMAIL: OPERATOR.email,
    ADMIN_PASSWORD: OPERATOR.password,
    ADMIN_PROJECT_NAME: "Acme Protocol",
    CACHE_TTL_MS: "1000",
    // Ingest trusts a looked-up event type for this long; short, so a retired type is refused at once.
    LOOKUP_CACHE_MS: "0",
    LOG_LEVEL: "warn",
  };
  const ingest = await spawnApp("ingest-api", { ...env, PORT: String(ingestPort) });
  const [admin, worker, read] = await Promise.all([
    spawnApp("admin-api", { ...env, INGEST_PUBLIC_URL: ingest.url }),
    spawnApp("scoring-worker", env),
    spawnApp("read-api", env),
  ]);
  const apps = [admin, ingest, worker, read];
  return {
    admin,
    ingest,
    worker,
    read,
    async stop() {
      await Promise.all(apps.map((a) => a.stop("SIGTERM")));
      await db.drop();
    },
  };
}

/** A headless Chromium with a fresh profile. */
export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "pw-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
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
