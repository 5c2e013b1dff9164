// The dashboard in headless Chromium against admin-api in-process (its test harness serving the built web/dist), signed in as a new project's operator.
import { existsSync } from "node:fs";
import path from "node:path";
import { type OpenBrowser, openBrowser } from "@pointwise/testkit";
import { type Harness, OPERATOR_PASSWORD, type Operator, startHarness } from "./harness";

/** A signed-in dashboard: the harness, its operator, the browser page, and how to sign in again or close it all. */
export interface Dashboard {
  h: Harness;
  op: Operator;
  page: OpenBrowser["page"];
  /** Every dialog's message so far, in order. */
  dialogs: string[];
  /** How the next dialogs are answered, in order (true: OK, false: Cancel); every dialog after them is answered OK. */
  answerNext(...answers: boolean[]): void;
  /** Fills the sign-in form as the operator and waits for the campaign list. */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

/** What openDashboard may be given instead of its defaults: another build to serve, or another way to start the harness or the browser. */
export interface DashboardOptions {
  /** The built dashboard to serve (admin-api's WEB_DIST_DIR); the one `npm run build -w @pointwise/admin-api` makes when absent. */
  webDistDir?: string;
  start?: typeof startHarness;
  launch?: typeof openBrowser;
}

/**
 * Starts admin-api and Chromium, opens the dashboard and signs in as the operator of a new project named `project`.
 * When a step fails it closes what the steps before it started, so the test fails with the reason instead of Jest
 * waiting on a server and a database pool nobody will close.
 */
export async function openDashboard(project: string, options: DashboardOptions = {}): Promise<Dashboard> {
  const h = await (options.start ?? startHarness)(options.webDistDir === undefined ? {} : { WEB_DIST_DIR: options.webDistDir });
  let browser: OpenBrowser | undefined;
  try {
    // index.html rather than the folder: an interrupted build leaves the folder, and a page with no form to sign in on.
    const index = path.join(h.deps.env.WEB_DIST_DIR, "index.html");
    if (!existsSync(index)) throw new Error(`the dashboard is not built (${index} is missing): run npm run build -w @pointwise/admin-api`);
    const op = await h.newProject(project);
    browser = await (options.launch ?? openBrowser)().catch((err: unknown) => {
      throw new Error(`Chromium did not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    });
    const opened = browser;
    const { page } = opened;
    page.setDefaultTimeout(15_000);
    const dialogs: string[] = [];
    const answers: boolean[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      return (answers.shift() ?? true) ? d.accept() : d.dismiss();
    });
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
      dialogs,
      answerNext: (...next) => {
        answers.push(...next);
      },
      signIn,
      async close() {
        await opened.close();
        await h.close();
      },
    };
  } catch (err) {
    // The step's own error is the one to see: a failure while closing must not replace it.
    await browser?.close().catch(() => undefined);
    await h.close().catch(() => undefined);
    throw err;
  }
}
