// `npm start`: installs what is missing, makes sure PostgreSQL, Redis and NATS run, applies
// migrations, builds, starts every app, seeds a demo campaign and prints how to use it.
// Ctrl-C stops everything gracefully.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureDatabase, ensureDependencies, ensurePrismaClient, ensureServices, root, run, step } from "./lib/prepare.mjs";
import { newDemoPassword, newSecret, newSigningKey } from "./local-secrets.mjs";

const stateDir = path.join(root, ".pointwise");
mkdirSync(stateDir, { recursive: true });

/** Local secrets are generated once per clone and kept in .pointwise/ (git-ignored); ones added later are filled in. */
function localSecrets() {
  const file = path.join(stateDir, "secrets.json");
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const secrets = {
    ADMIN_JWT_SECRET: newSecret(),
    PORTAL_JWT_SECRET: newSecret(),
    ADMIN_PASSWORD: newDemoPassword(),
    PORTAL_SIGNING_KEYS: newSigningKey(),
    ...kept,
  };
  if (Object.keys(secrets).length !== Object.keys(kept).length) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const secrets = localSecrets();
const ports = { ingest: 4001, read: 4002, admin: 4003, worker: 4004, portal: 4005 };
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pointwise",
  DATABASE_SCHEMA: process.env.DATABASE_SCHEMA ?? "public",
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  NAMESPACE: process.env.NAMESPACE ?? "pointwise",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  TURBO_TELEMETRY_DISABLED: "1",
  DO_NOT_TRACK: "1",
  ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? "demo@pointwise.dev",
  ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? secrets.ADMIN_PASSWORD,
  ADMIN_JWT_SECRET: process.env.ADMIN_JWT_SECRET ?? secrets.ADMIN_JWT_SECRET,
  PORTAL_JWT_SECRET: process.env.PORTAL_JWT_SECRET ?? secrets.PORTAL_JWT_SECRET,
  PORTAL_SIGNING_KEYS: process.env.PORTAL_SIGNING_KEYS ?? secrets.PORTAL_SIGNING_KEYS,
  PORTAL_JWKS_URL: process.env.PORTAL_JWKS_URL ?? `http://127.0.0.1:${ports.portal}/.well-known/jwks.json`,
  PORTAL_PUBLIC_URL: process.env.PORTAL_PUBLIC_URL ?? `http://127.0.0.1:${ports.portal}`,
  // The participant page (portal-api) reads its user's scores from the read API in the browser.
  CORS_ALLOWED_ORIGINS: process.env.CORS_ALLOWED_ORIGINS ?? `http://127.0.0.1:${ports.portal}`,
  INGEST_PUBLIC_URL: `http://127.0.0.1:${ports.ingest}`,
  READ_API_URL: `http://127.0.0.1:${ports.read}`,
};
Object.assign(process.env, env);

ensureDependencies();
ensureServices(env);
ensurePrismaClient();
ensureDatabase(env);
step("building the apps (turbo)");
run("npx", ["turbo", "run", "build", "--concurrency=2", "--output-logs=errors-only"]);

const apps = [
  { name: "admin-api", port: ports.admin },
  { name: "ingest-api", port: ports.ingest },
  { name: "scoring-worker", port: ports.worker },
  { name: "read-api", port: ports.read },
  { name: "portal-api", port: ports.portal },
];
const colors = { "admin-api": 35, "ingest-api": 36, "scoring-worker": 33, "read-api": 32, "portal-api": 34 };

/** Prints a JSON log line as `time app level msg {rest}` so a person can read it. */
function pretty(name, line) {
  let text = line;
  try {
    const { time, level, msg, service, ...rest } = JSON.parse(line);
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
    text = `${String(time ?? "").slice(11, 19)} ${level.padEnd(5)} ${msg}${extra}`;
  } catch {}
  process.stdout.write(`\x1b[${colors[name]}m${name.padEnd(14)}\x1b[0m ${text}\n`);
}

step("starting the apps");
const children = apps.map(({ name, port }) => {
  const child = spawn(process.execPath, ["--enable-source-maps", path.join(root, "apps", name, "dist", "main.js")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffer = "";
  const onData = (chunk) => {
    buffer += chunk;
    let i = buffer.indexOf("\n");
    while (i >= 0) {
      pretty(name, buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      i = buffer.indexOf("\n");
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      process.stderr.write(`\n${name} exited (${code ?? signal}); stopping everything\n`);
      stop(1);
    }
  });
  return { name, port, child };
});

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) if (child.exitCode === null) child.kill("SIGTERM");
  let left = children.length;
  for (const { child } of children) {
    if (child.exitCode !== null) left--;
    else child.once("exit", () => --left === 0 && process.exit(code));
  }
  if (left === 0) process.exit(code);
  setTimeout(() => process.exit(code || 1), 20_000).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

// Each app gives up by itself after STARTUP_TIMEOUT_MS with a fatal line naming what it could not
// reach (and its exit stops everything), so this waits longer than that rather than cutting it short.
const readyWithinMs = Number(process.env.STARTUP_TIMEOUT_MS ?? 60_000) + 30_000;

async function waitReady({ name, port }) {
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not become ready on port ${port}`);
}

try {
  await Promise.all(children.map(waitReady));
  step("seeding the demo campaign");
  const seed = spawn(process.execPath, ["--import", "tsx", "scripts/seed-demo.ts"], { cwd: root, env: process.env, stdio: ["ignore", "inherit", "inherit"] });
  const code = await new Promise((resolve) => seed.on("exit", resolve));
  if (code !== 0) throw new Error("seeding the demo campaign failed");
} catch (err) {
  process.stderr.write(`\n${err.message}\n`);
  stop(1);
}
