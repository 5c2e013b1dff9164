// The dashboard in headless Chromium against admin-api in-process (its test harness serving the built web/dist), signed in as a new project's operator.
import { existsSync } from "node:fs";
import { type OpenBrowser, openBrowser } from "@pointwise/testkit";
import { type Harness, OPERATOR_PASSWORD, type Operator, startHarness } from "./harness";

/** A signed-in dashboard: the harness, its operator, the browser page, and how to sign in again or close it all. */
export interface Dashboard {
  h: Harness;
  op: Operator;
  page: OpenBrowser["page"];
  /** Fills the sign-in form as the operator and waits for the campaign list. */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

/** Starts admin-api and Chromium, opens the dashboard and signs in as the operator of a new project named `project`. */
export async function openDashboard(project: string): Promise<Dashboard> {
  const h = await startHarness();
  if (!existsSync(h.deps.env.WEB_DIST_DIR))
    throw new Error(`${h.deps.env.WEB_DIST_DIR} is missing: build the dashboard first (npm run build -w @pointwise/admin-api)`);
  const op = await h.newProject(project);
  const browser = await openBrowser();
  const { page } = browser;
  page.setDefaultTimeout(15_000);
  page.on("dialog", (d) => d.accept());
  const signIn = async () => {
    await page.fill("input[name=email]", op.email);
    await page.fill("input[name=password]", OPERATOR_PASSWORD);
    await page.click("button[type=submit]");
    await page.getByRole("heading", { name: "Campaigns" }).waitFor();
  };
  await page.goto(h.url);
  await signIn();
  return {
    h,
    op,
    page,
    signIn,
    async close() {
      await browser.close();
      await h.close();
    },
  };
}
