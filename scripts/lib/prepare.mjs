// Shared first steps of `npm start`, `npm test` and `npm run bench`: dependencies, services,
// Prisma client, database and migrations. Plain JavaScript so it runs before anything is installed.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The services `npm test` and `npm run chaos` use (TEST_* variables override them), set into process.env. */
export function useTestEnv() {
  const env = {
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pointwise_test",
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    NATS_URL: process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222",
    TURBO_TELEMETRY_DISABLED: "1",
    DO_NOT_TRACK: "1",
  };
  Object.assign(process.env, env);
  return env;
}

/** Prints a step the way every script does. */
export function step(message) {
  process.stderr.write(`\n==> ${message}\n`);
}

/** Runs a command in the foreground and stops everything when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...options.env }, ...options });
  if (result.status !== 0) {
    process.stderr.write(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

function checkNode() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    process.stderr.write(`Node.js 20.19 or newer is required (found ${process.versions.node}).\n`);
    process.exit(1);
  }
}

function hashOf(files) {
  const h = createHash("sha256");
  for (const f of files) if (existsSync(f)) h.update(readFileSync(f));
  return h.digest("hex");
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  checkNode();
  const stamp = path.join(root, "node_modules", ".pointwise-install");
  const lockHash = hashOf([path.join(root, "package-lock.json")]);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === lockHash) return;
  step("installing dependencies (npm install, as pinned by package-lock.json)");
  // `npm install` honours the lock (complete for every platform, docs/decisions.md) and, unlike
  // `npm ci`, updates an existing node_modules in place instead of deleting it first.
  run("npm", ["install", "--no-audit", "--no-fund"]);
  writeFileSync(stamp, lockHash);
}

/** Generates the Prisma client when the schema changed since the last generation. */
export function ensurePrismaClient() {
  const dbDir = path.join(root, "packages", "db");
  const schemaDir = path.join(dbDir, "prisma", "schema");
  const files = ["base.prisma", "scoring.prisma"].map((f) => path.join(schemaDir, f));
  const extra = spawnSync("ls", [schemaDir], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((f) => f.endsWith(".prisma"))
    .map((f) => path.join(schemaDir, f));
  const stamp = path.join(root, "node_modules", ".prisma", ".pointwise-schema");
  const schemaHash = hashOf([...new Set([...files, ...extra])].sort());
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === schemaHash) return;
  step("generating the Prisma client");
  run(path.join(root, "node_modules", ".bin", "prisma"), ["generate", "--no-hints"], {
    cwd: dbDir,
    env: { DATABASE_URL: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
  });
  writeFileSync(stamp, schemaHash);
}

/** Makes sure PostgreSQL, Redis and NATS answer (installing and starting them on Debian when needed). */
export function ensureServices(env) {
  step("checking PostgreSQL, Redis and NATS JetStream");
  run("bash", ["infra/ensure-services.sh"], { env });
}

/** Creates the database named in DATABASE_URL when absent, then applies migrations to DATABASE_SCHEMA. */
export function ensureDatabase(env) {
  step(`applying migrations (${env.DATABASE_URL.replace(/\/\/[^@/]*@/, "//")}, schema ${env.DATABASE_SCHEMA ?? "public"})`);
  run("node", ["--import", "tsx", "scripts/migrate.ts"], { env });
}

/** True when `file` is newer than every file in `deps` (used to skip rebuilding). */
export function newerThan(file, deps) {
  if (!existsSync(file)) return false;
  const t = statSync(file).mtimeMs;
  return deps.every((d) => !existsSync(d) || statSync(d).mtimeMs <= t);
}
