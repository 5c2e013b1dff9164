// openDashboard's own failures: a missing build or a browser that does not start fail with the reason, and leave nothing running.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDashboard } from "./dashboard";
import { type Harness, startHarness } from "./harness";

jest.setTimeout(60_000);

/** Starts the harness as openDashboard would, keeping it so the test can see whether it was closed. */
function keepingHarness() {
  const started: Harness[] = [];
  const start: typeof startHarness = async (overrides) => {
    const h = await startHarness(overrides);
    started.push(h);
    return h;
  };
  return { started, start };
}

/** Expects the harness to have been closed: its server refuses connections and its database pool takes no query. */
async function expectClosed(h: Harness | undefined) {
  expect(h).toBeDefined();
  const outcome = (call: Promise<unknown> | undefined) =>
    Promise.resolve(call).then(
      () => "answered",
      () => "refused",
    );
  expect(await outcome(fetch(h?.url ?? ""))).toBe("refused");
  expect(await outcome(h?.deps.db.query("SELECT 1"))).toBe("refused");
}

describe("openDashboard when a step after the harness fails", () => {
  it("says the dashboard is not built, and closes the harness it started", async () => {
    const unbuilt = mkdtempSync(path.join(os.tmpdir(), "pw-unbuilt-web-"));
    const { started, start } = keepingHarness();
    try {
      await expect(openDashboard("Unbuilt", { webDistDir: unbuilt, start })).rejects.toThrow(
        `the dashboard is not built (${path.join(unbuilt, "index.html")} is missing): run npm run build -w @pointwise/admin-api`,
      );
      await expectClosed(started[0]);
    } finally {
      rmSync(unbuilt, { recursive: true, force: true });
    }
  });

  it("says Chromium did not start, with its reason, and closes the harness it started", async () => {
    const { started, start } = keepingHarness();
    const launch = () => Promise.reject(new Error("spawn /usr/bin/chromium ENOENT"));
    await expect(openDashboard("No browser", { start, launch })).rejects.toThrow("Chromium did not start: spawn /usr/bin/chromium ENOENT");
    await expectClosed(started[0]);
  });
});
