// `npm run bench [-- --quick]`: prepares services and a bench database, builds the apps, runs every
// benchmark (each beside its baseline in the same run), and writes bench/results/latest.{json,md}
// (a quick run: quick.{json,md}) plus, for a full run, the history and docs/performance.md.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDatabase, ensureDependencies, ensurePrismaClient, ensureServices, root, run, step } from "../scripts/lib/prepare.mjs";

const quick = process.argv.includes("--quick");
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const env = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pointwise_bench",
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  TURBO_TELEMETRY_DISABLED: "1",
};
Object.assign(process.env, env);

ensureDependencies();
// TypeScript helpers load only now: a fresh clone has no tsx until ensureDependencies has installed it.
const { tsImport } = await import("tsx/esm/api");
const { hasSection, loadRecord, mergeResults, replaceSection, runMarkdown, saveRecord } = await tsImport("./lib/report.ts", import.meta.url);
const { withMachineShares } = await tsImport("./lib/machine-time.ts", import.meta.url);
ensureServices(env);
ensurePrismaClient();
ensureDatabase(env);
// One run at a time, and what interrupted runs left (their schemas, streams and keys) goes first.
const { beginRun } = await tsImport("./lib/leftovers.ts", import.meta.url);
const runLock = await beginRun({ database: env.DATABASE_URL, nats: env.NATS_URL, redis: env.REDIS_URL }).catch((err) => {
  process.stderr.write(`bench: ${err.message}\n`);
  process.exit(1);
});
const { schemas, streams, keys } = runLock.removed;
if (schemas.length + streams.length + keys > 0) {
  step(`removed what interrupted runs left: ${schemas.length} schema(s), ${streams.length} JetStream stream(s), ${keys} Redis key(s)`);
}
step("building the apps");
run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);

const ALL_PATHS = ["ingest", "scoring", "read", "indexer"];
const paths = ALL_PATHS.filter((p) => !only || only.includes(p));
// Machines of one kind can report the same CPU and run at different speeds; the boot id tells this
// machine's runs from theirs (hashed: it names nothing but the boot). Not Linux: no boot, and runs
// are compared by kind of machine.
let boot;
try {
  boot = createHash("sha256").update(readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()).digest("hex").slice(0, 12);
} catch {
  boot = undefined;
}
const machine = {
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.cpus().length,
  ...(boot ? { boot } : {}),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.versions.node,
  platform: `${os.platform()} ${os.release()}`,
  loadAverageAtStart: os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" "),
};

/** Runs one benchmark in a process of its own and returns what it printed, or why it printed nothing. */
function spawnBench(name, script) {
  return new Promise((resolve) => {
    step(`benchmark: ${name}${quick ? " (quick)" : ""}`);
    const child = spawn(process.execPath, ["--import", "tsx", script, ...(quick ? ["--quick"] : [])], {
      cwd: root,
      env: process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      resolve(line ? JSON.parse(line.slice(13)) : { path: name, failed: `exit ${code}` });
    });
  });
}

/**
 * One benchmark's result with how the machine's CPUs spent it: steal (the hypervisor's) and disk
 * waits move figures on a shared machine without anything in the benchmark changing.
 */
async function runBench(name) {
  const script = path.join(root, "bench", name, "run.ts");
  if (!existsSync(script)) return { path: name, missing: true };
  const { value, shares } = await withMachineShares(() => spawnBench(name, script));
  return value.failed ? value : { ...value, machineTime: shares };
}

/** The commit measured: its short hash, with "+dirty" when files other than the ones the bench writes had changes. */
function commitMeasured() {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const changes = execFileSync("git", ["status", "--porcelain", "--", ".", ":!bench/history.jsonl", ":!docs/performance.md"], {
      cwd: root,
      encoding: "utf8",
    });
    return changes.trim() ? `${hash}+dirty` : hash;
  } catch {
    return "unknown";
  }
}

const startedAt = new Date().toISOString();
const results = [];
for (const p of paths) results.push(await runBench(p));
const dir = path.join(root, "bench", "results");
mkdirSync(dir, { recursive: true });
// `--only` refreshes some paths of the last record and keeps the others, so one slow path can be
// measured again without re-running everything; each path says when it was measured.
const stamped = results.map((r) => ({ ...r, measuredAt: startedAt }));
const merged = only ? mergeResults(loadRecord(dir, quick), stamped, quick, ALL_PATHS) : stamped;
const md = runMarkdown({ startedAt, quick, machine, results: merged });
saveRecord(dir, { startedAt, quick, machine, results: merged }, md);
writeFileSync(path.join(dir, `${startedAt.replace(/[:.]/g, "-")}.json`), JSON.stringify({ startedAt, quick, machine, results: stamped }, null, 2));
let repeat = null;
if (!quick) {
  const { historyEntry, parseHistory, repeatability } = await tsImport("./lib/history.ts", import.meta.url);
  const historyPath = path.join(root, "bench", "history.jsonl");
  const commit = commitMeasured();
  const added = stamped.map((r) => historyEntry(r, startedAt, commit, machine)).filter(Boolean);
  const history = [...(existsSync(historyPath) ? parseHistory(readFileSync(historyPath, "utf8")) : []), ...added];
  writeFileSync(historyPath, history.map((e) => `${JSON.stringify(e)}\n`).join(""));
  repeat = repeatability(history, machine);
  const docPath = path.join(root, "docs", "performance.md");
  const doc = readFileSync(docPath, "utf8");
  for (const name of ["results", "repeatability"]) {
    if (!hasSection(doc, name)) process.stderr.write(`docs/performance.md has no bench:${name} markers; that section was not written\n`);
  }
  writeFileSync(docPath, replaceSection(replaceSection(doc, "results", md), "repeatability", repeat.markdown));
}
process.stdout.write(
  `\n${md}\n${repeat ? `\n${repeat.markdown}\n` : ""}\nwritten to bench/results/${quick ? "quick" : "latest"}.md${quick ? "" : ", bench/history.jsonl and docs/performance.md"}\n`,
);
await runLock.release();
process.exit(results.some((r) => r.failed) ? 1 : 0);
