// Runs before the test suites (`npm test` calls it): the dashboard's browser tests drive Debian's
// Chromium through playwright-core, because Playwright's own browser download is not reachable from
// the machines we test on. Installs the package once; does nothing when the browser is already there.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (result.status !== 0) {
    process.stderr.write(`${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

if (!existsSync(CHROMIUM)) {
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    process.stderr.write(`${CHROMIUM} is missing and installing it needs root: run "apt-get update && apt-get install -y chromium" as root\n`);
    process.exit(1);
  }
  process.stderr.write(`\n==> installing Chromium for the browser tests (apt-get install chromium)\n`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "chromium"]);
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`apt-get installed chromium but ${CHROMIUM} is still missing\n`);
    process.exit(1);
  }
}
