// `npm run mutate`: Stryker mutation testing of the pure packages, one package after the other.
// `npm run mutate -- schemas` runs one package; options after the names go to Stryker, for example
// `npm run mutate -- indexer-engine --mutate src/windows.ts`; options other than --mutate may follow
// several names and go to each package's run (`npm run mutate -- adapters --concurrency 1`).
// Reports: reports/mutation/<package>/.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every package with a stryker.config.mjs, by the name `npm run mutate -- <name>` takes. */
const PACKAGES = {
  schemas: "packages/schemas",
  rules: "packages/rules",
  "indexer-engine": "packages/indexer-engine",
  "ingest-core": "packages/ingest-core",
  "amm-v2": "packages/adapters/amm-v2",
  "amm-v3": "packages/adapters/amm-v3",
  "erc20-holdings": "packages/adapters/erc20-holdings",
  lending: "packages/adapters/lending",
  vault: "packages/adapters/vault",
};
/** Names that stand for several packages. */
const GROUPS = { adapters: ["amm-v2", "amm-v3", "erc20-holdings", "lending", "vault"] };

const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith("-"));
const names = firstOption < 0 ? args : args.slice(0, firstOption);
const strykerArgs = firstOption < 0 ? [] : args.slice(firstOption);

const selected = (names.length === 0 ? Object.keys(PACKAGES) : names).flatMap((n) => GROUPS[n] ?? [n]);
for (const name of selected) {
  if (!PACKAGES[name]) {
    process.stderr.write(`Unknown package: ${name}. Available: ${[...Object.keys(PACKAGES), ...Object.keys(GROUPS)].join(", ")}\n`);
    process.exit(2);
  }
}
// Options such as --concurrency or --incremental apply to every selected package alike, but a file
// list names the files of one package: the same paths in another package would mutate other files.
const FILE_OPTIONS = ["--mutate", "-m"];
if (selected.length > 1 && strykerArgs.some((a) => FILE_OPTIONS.some((o) => a === o || a.startsWith(`${o}=`)))) {
  process.stderr.write("--mutate needs exactly one package: npm run mutate -- <package> --mutate src/<file>.ts\n");
  process.exit(2);
}

const failed = [];
for (const name of selected) {
  const dir = path.join(root, PACKAGES[name]);
  if (!existsSync(path.join(dir, "stryker.config.mjs"))) throw new Error(`${PACKAGES[name]} has no stryker.config.mjs`);
  process.stderr.write(`\n==> mutation testing of ${PACKAGES[name]} (report: reports/mutation/${name}/index.html)\n`);
  const result = spawnSync("npx", ["stryker", "run", "stryker.config.mjs", ...strykerArgs], { cwd: dir, stdio: "inherit" });
  if (result.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  process.stderr.write(`\nStryker failed for: ${failed.join(", ")}\n`);
  process.exit(1);
}
