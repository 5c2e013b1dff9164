// `npm run chaos [-- --update-docs]`: prepares what `npm test` prepares (dependencies, services, Prisma
// client, test database, built apps), then runs the chaos suite (e2e/chaos). With --update-docs the
// figures of a passing run replace the reference table in docs/operations.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runChaosSuite } from "./lib/chaos.mjs";
import { ensureDatabase, ensureDependencies, ensurePrismaClient, ensureServices, root, run, step, useTestEnv } from "./lib/prepare.mjs";

const env = useTestEnv();
const updateDocs = process.argv.includes("--update-docs");

ensureDependencies();
ensureServices(env);
ensurePrismaClient();
ensureDatabase(env);
step("build (turbo)");
run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);

const passed = runChaosSuite();
if (updateDocs) {
  const report = path.join(root, "test-artifacts", "chaos", "report.md");
  if (!passed || !existsSync(report)) {
    process.stderr.write("chaos: the run failed, docs/operations.md is left as it was\n");
  } else {
    const doc = path.join(root, "docs", "operations.md");
    const begin = "<!-- chaos-figures:begin -->";
    const end = "<!-- chaos-figures:end -->";
    const text = readFileSync(doc, "utf8");
    const from = text.indexOf(begin);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/operations.md lacks the ${begin} ... ${end} markers`);
    writeFileSync(doc, `${text.slice(0, from + begin.length)}\n${readFileSync(report, "utf8")}${text.slice(to)}`);
    step("docs/operations.md: chaos figures updated");
  }
}
process.exit(passed ? 0 : 1);
