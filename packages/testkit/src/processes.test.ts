// spawnApp's children die with the process that started them, even when it exits without stopping them.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { createTestDatabase, uniqueName } from "./index";

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_testkit"));
});
afterAll(async () => {
  await db?.drop();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it("kills an app a failing script left running when that script exits", async () => {
  // A script that starts the read API, prints its pid and exits with 1 without stopping it.
  const script = `
    const { spawnApp, testServiceEnv } = require(${JSON.stringify(path.join(__dirname, "index.ts"))});
    (async () => {
      const app = await spawnApp("read-api", testServiceEnv(${JSON.stringify(db.schema)}));
      console.log("pid=" + app.child.pid);
      process.exit(1);
    })();
  `;
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8", timeout: 45_000 });
  const pid = Number(/pid=(\d+)/.exec(run.stdout)?.[1]);
  expect(run.status).toBe(1);
  expect(pid).toBeGreaterThan(0);
  // SIGKILL is delivered at once; give the kernel a moment to reap.
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive(pid)).toBe(false);
});

it("fails at once with the app's exit code and output when the app exits before it is ready", async () => {
  const { spawnApp } = await import("./index");
  // Without DATABASE_URL the read API stops at start with a message naming the variable.
  const started = spawnApp("read-api", { LOG_LEVEL: "info" });
  await expect(started).rejects.toThrow(/read-api did not become ready: read-api exited with 1\n[\s\S]*DATABASE_URL/);
});
