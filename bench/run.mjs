// `npm run bench [-- --quick] [-- --only=ingest,read [--docs]] [-- --soak]`: prepares services and a bench database,
// builds the apps, runs every benchmark (each beside its baseline in the same run, in a process of its own)
// and writes bench/results/latest.{json,md} and the results section of docs/performance.md. A quick
// run writes bench/results/quick.*, an `--only` run bench/results/only.*; neither touches the docs, except an `--only`
// run with `--docs`, which puts its paths' sections in place of theirs in the docs (each dated as a run of its own).
// `--soak` runs scripts/soak.ts (also `npm run soak`; its other flags are passed on) instead of the benchmarks.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDatabase, ensureDependencies, ensurePrismaClient, ensureServices, root, run, step } from "../scripts/lib/prepare.mjs";

const quick = process.argv.includes("--quick");
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const docs = process.argv.includes("--docs");
if (docs && (!only || quick)) {
  process.stderr.write("bench: --docs goes with --only (a full run always writes the docs; a quick run never does)\n");
  process.exit(2);
}
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
const { runMarkdown, replaceSection, readSection, mergePaths } = await tsImport("./lib/report.ts", import.meta.url);
const { beginRun } = await tsImport("./lib/leftovers.ts", import.meta.url);
const { runScript } = await tsImport("./lib/child.ts", import.meta.url);
ensureServices(env);
ensurePrismaClient();
ensureDatabase(env);
// One run at a time (a second waits for the first), and what interrupted runs left (their schemas, streams and keys) goes first.
const waiting = () => step("another `npm run bench` is running on this machine; waiting for it to end (two runs would measure each other)");
const runLock = await beginRun({ database: env.DATABASE_URL, nats: env.NATS_URL, redis: env.REDIS_URL }, waiting).catch((err) => {
  process.stderr.write(`bench: ${err.message}\n`);
  process.exit(1);
});
const { schemas, streams, keys } = runLock.removed;
if (schemas.length + streams.length + keys > 0)
  step(`removed what interrupted runs left: ${schemas.length} schemas, ${streams.length} streams, ${keys} Redis keys`);
step("building the apps");
run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);
if (process.argv.includes("--soak")) {
  run(process.execPath, ["--import", "tsx", "scripts/soak.ts", ...process.argv.slice(2).filter((a) => a !== "--soak")]);
  await runLock.release();
  process.exit(0);
}

const machine = { cpu: os.cpus()[0]?.model ?? "unknown", cores: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.versions.node };

/** Runs one benchmark in a process of its own and returns what it printed, or why it printed nothing. */
async function runBench(name) {
  step(`benchmark: ${name}${quick ? " (quick)" : ""}`);
  const started = Date.now();
  const args = quick ? ["--quick"] : [];
  const result = await runScript(path.join(root, "bench", name, "run.ts"), args, "BENCH_RESULT").catch((err) => ({ path: name, failed: err.message }));
  step(`${name} took ${Math.round((Date.now() - started) / 1000)} s`);
  return result;
}

const startedAt = new Date().toISOString();
const results = [];
for (const p of ["ingest", "scoring", "read", "indexer", "backfill"].filter((p) => !only || only.includes(p))) results.push(await runBench(p));
const record = { startedAt, quick, machine, results, ...(only ? { only } : {}) };
const md = runMarkdown(record);
const file = path.join(root, "bench", "results", quick ? "quick" : only ? "only" : "latest");
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(`${file}.json`, JSON.stringify(record, null, 2));
writeFileSync(`${file}.md`, md);
const written = [`${path.relative(root, file)}.{json,md}`];
if (!quick && (!only || docs)) {
  const docPath = path.join(root, "docs", "performance.md");
  const current = readFileSync(docPath, "utf8");
  const section = only ? readSection(current, "results") : md;
  const doc = section === null ? null : replaceSection(current, "results", only ? mergePaths(section, record) : section);
  if (doc === null) process.stderr.write("docs/performance.md has no bench:results markers; it was not written\n");
  else {
    writeFileSync(docPath, doc);
    written.push("docs/performance.md");
  }
}
process.stdout.write(`\n${md}\nwritten to ${written.join(" and ")}\n`);
await runLock.release();
process.exit(results.some((r) => r.failed) ? 1 : 0);
