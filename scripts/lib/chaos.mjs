// Runs the chaos suite (e2e/chaos) once; shared by `npm run chaos` and `npm test`, which prepare the services and build the apps first.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root, step } from "./prepare.mjs";

/** Runs the chaos suite with jest; true when it passed. Its figures land in test-artifacts/chaos/. */
export function runChaosSuite() {
  step("chaos suite (every app as a process; worker kills, PostgreSQL backend terminations, NATS and Redis cuts under load)");
  mkdirSync(path.join(root, "test-artifacts"), { recursive: true });
  const results = path.join(root, "test-artifacts", "chaos-results.json");
  rmSync(results, { force: true });
  const jest = spawnSync("npx", ["jest", "--ci", "--config", "e2e/chaos/jest.config.js", "--json", `--outputFile=${results}`], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  if (!existsSync(results)) return false;
  const summary = JSON.parse(readFileSync(results, "utf8"));
  return jest.status === 0 && summary.numFailedTests + summary.numRuntimeErrorTestSuites === 0 && summary.numPassedTests > 0;
}
