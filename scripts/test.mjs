// `npm test`: prepares everything a fresh clone needs (dependencies, services, Prisma client, test
// database), checks lint and types, builds the apps, then runs every test once against the real
// services. Extra arguments go to jest: `npm test -- apps/ingest-api`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runChaosSuite } from "./lib/chaos.mjs";
import { ensureDatabase, ensureDependencies, ensurePrismaClient, ensureServices, root, run, step, useTestEnv } from "./lib/prepare.mjs";

const env = useTestEnv();
const started = Date.now();
const jestArgs = process.argv.slice(2);

ensureDependencies();
ensureServices(env);
ensurePrismaClient();
ensureDatabase(env);

if (jestArgs.length === 0) {
  step("lint and format (biome), import circles (dpdm)");
  run("npx", ["biome", "ci", "."]);
  run("node", ["scripts/check-import-circles.mjs"]);
  // One tsc program over every package, app, test, benchmark and script checks each shared source once; a tsc per
  // package (turbo's typecheck) checks the packages every app imports again in each app, several times the work.
  step("typecheck (tsc: tsconfig.check.json and the dashboard's) and build (turbo)");
  run("npx", ["tsc", "-p", "tsconfig.check.json"]);
  run("npx", ["tsc", "-p", "apps/admin-api/web/tsconfig.json"]);
  run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);
} else {
  step("build (turbo)");
  run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);
}

for (const hook of ["scripts/lib/test-setup.mjs"]) {
  if (existsSync(path.join(root, hook))) run("node", [hook]);
}

step("tests (jest, real PostgreSQL, Redis, NATS and a local EVM node)");
mkdirSync(path.join(root, "test-artifacts"), { recursive: true });
const results = path.join(root, "test-artifacts", "jest-results.json");
const jest = spawnSync("npx", ["jest", "--ci", "--json", `--outputFile=${results}`, ...jestArgs], { cwd: root, stdio: "inherit", env: process.env });

let passed = 0;
let failed = 0;
if (existsSync(results)) {
  const summary = JSON.parse(readFileSync(results, "utf8"));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + summary.numRuntimeErrorTestSuites;
}
// The chaos suite runs after jest, alone, so its processes and faults compete with no other test
// (it takes about two minutes; `npm run chaos` runs it by itself). A run restricted to some tests skips it.
const chaos = jestArgs.length === 0 ? runChaosSuite() : undefined;

// The suite counts as one test in the closing line, so that line and the exit code always agree.
if (chaos === true) passed += 1;
if (chaos === false) failed += 1;
const minutes = ((Date.now() - started) / 60000).toFixed(1);
process.stdout.write(`\nnpm test finished in ${minutes} min\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
if (chaos !== undefined) process.stdout.write(`chaos suite: ${chaos ? "passed" : "FAILED (test-artifacts/chaos/report.json)"}\n`);
process.exit(jest.status === 0 && failed === 0 && chaos !== false ? 0 : 1);
