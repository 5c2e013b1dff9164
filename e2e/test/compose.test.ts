// docker-compose.yml's commands, run by sh as the containers run them (no Docker daemon needed): portal-api signs with
// the PORTAL_SIGNING_KEYS it is given and makes a P-256 key of its own when none is given; admin-api makes its JWT
// secret and the demo operator's password when none are given, and prints that password; the file holds no secret.
import { spawn } from "node:child_process";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { isPlaceholder } from "@pointwise/config";
import { createTestDatabase, freePort, repoRoot, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import { parse } from "yaml";
import { type AppName, appEnv } from "./app-env";

jest.setTimeout(60_000);

type Jwk = { kty: string; crv: string; x: string; y: string };

// merge: true resolves `<<: *app-env`, as compose does, so the environment every app inherits is read too.
const compose = parse(readFileSync(path.join(repoRoot, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, { command: string[]; environment?: Record<string, string>; ports?: string[]; depends_on?: Record<string, unknown> }>;
};
/** A service's command as its container's shell sees it: compose turns `$$` into `$` first. */
const commandOf = (service: string) => (compose.services[service]?.command ?? []).map((part) => part.replaceAll("$$", "$"));
const [shell, flag, script] = commandOf("portal-api");

const schema = uniqueName("compose_portal");
let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase(schema);
});
afterAll(async () => {
  await db?.drop();
});

/** Runs the compose command in the repository (the image's working directory) and returns the keys its JWKS publishes. */
async function publishedKeys(extra: Record<string, string>): Promise<Jwk[]> {
  const port = await freePort();
  const child = spawn(shell as string, [flag as string, script as string], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", ...testServiceEnv(schema), PORT: String(port), HOST: "127.0.0.1", ...extra },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (d) => {
    errors += d;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = `http://127.0.0.1:${port}/.well-known/jwks.json`;
    await waitUntil(async () => child.exitCode !== null || (await fetch(url)).status === 200, 45_000, "portal-api from compose's command").catch(
      (err: Error) => {
        throw new Error(`${err.message}\n${errors}`);
      },
    );
    if (child.exitCode !== null) throw new Error(`compose's portal-api command exited with ${child.exitCode}\n${errors}`);
    return ((await (await fetch(url)).json()) as { keys: Jwk[] }).keys;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

describe("docker-compose.yml, portal-api", () => {
  it("runs sh -c with a command that starts the built portal-api", () => {
    expect([shell, flag]).toEqual(["sh", "-c"]);
    expect(script).toMatch(/exec node apps\/portal-api\/dist\/main\.js$/);
  });

  it("signs with the PORTAL_SIGNING_KEYS it is given", async () => {
    const key = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const expected = createPublicKey(key).export({ format: "jwk" }) as Jwk;
    const keys = await publishedKeys({ PORTAL_SIGNING_KEYS: key });
    expect(keys.map(({ kty, crv, x, y }) => ({ kty, crv, x, y }))).toEqual([{ kty: "EC", crv: "P-256", x: expected.x, y: expected.y }]);
  });

  it("makes a P-256 key of its own, a new one at each start, when PORTAL_SIGNING_KEYS is empty", async () => {
    const first = await publishedKeys({ PORTAL_SIGNING_KEYS: "" });
    const second = await publishedKeys({});
    expect([first.length, first[0]?.kty, first[0]?.crv]).toEqual([1, "EC", "P-256"]);
    expect([second.length, second[0]?.crv]).toEqual([1, "P-256"]);
    expect(second[0]?.x).not.toBe(first[0]?.x);
  });
});

describe("docker-compose.yml, admin-api", () => {
  const [adminShell, adminFlag, adminScript] = commandOf("admin-api");

  /** Runs admin-api's compose command until its port answers (or it exits); its output, and what `use` made of it. */
  async function runAdmin<T>(
    extra: Record<string, string>,
    use: (url: string, out: string) => Promise<T>,
  ): Promise<{ code: number | null; out: string; used?: T }> {
    const port = await freePort();
    const child = spawn(adminShell as string, [adminFlag as string, adminScript as string], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? "", ...testServiceEnv(schema), PORT: String(port), HOST: "127.0.0.1", ADMIN_EMAIL: "demo@pointwise.test", ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntil(async () => child.exitCode !== null || (await fetch(`${url}/readyz`)).status === 200, 45_000, "admin-api from compose's command");
      if (child.exitCode !== null) return { code: child.exitCode, out };
      return { code: null, out, used: await use(url, out) };
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }

  const login = async (url: string, password: string) =>
    (
      await fetch(`${url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "demo@pointwise.test", password }),
      })
    ).status;

  it("makes the JWT secret and the demo operator's password when none are given, and prints the password it signs in with", async () => {
    const run = await runAdmin({ ADMIN_JWT_SECRET: "", ADMIN_PASSWORD: "" }, async (url, out) => {
      const password = /with the password (\S+) \(made at this start/.exec(out)?.[1];
      return { password, status: await login(url, password ?? "") };
    });
    expect(run.used).toEqual({ password: expect.stringMatching(/^demo-[A-Za-z0-9_-]{12}$/), status: 200 });
  });

  it("uses the ADMIN_PASSWORD it is given, printing none", async () => {
    const run = await runAdmin({ ADMIN_PASSWORD: "a-password-of-my-own-7" }, (url) => login(url, "a-password-of-my-own-7"));
    expect(run.used).toBe(200);
    expect(run.out).not.toContain("made at this start");
  });

  it("refuses an example ADMIN_JWT_SECRET: the process exits 1 naming it", async () => {
    const run = await runAdmin({ ADMIN_JWT_SECRET: "change-me-change-me-change-me-change-me-0000" }, async () => undefined);
    expect(run.code).toBe(1);
    expect(run.out).toContain("ADMIN_JWT_SECRET: must not be an example value");
  });
});

describe("docker-compose.yml", () => {
  it("holds no secret: every secret-named variable is passed through from the caller, and no value is an example one", () => {
    const entries = Object.entries(compose.services).flatMap(([service, { environment }]) =>
      Object.entries(environment ?? {}).map(([name, value]) => ({ service, name, value: String(value) })),
    );
    // The inherited environment (DATABASE_URL, NATS_URL, ...) is read as each app's own.
    expect(entries.filter((e) => e.service === "admin-api").map((e) => e.name)).toEqual(
      expect.arrayContaining(["DATABASE_URL", "NATS_URL", "ADMIN_JWT_SECRET"]),
    );
    const secretNamed = entries.filter((e) => /SECRET|PASSWORD|_KEY$|_KEYS$/.test(e.name));
    expect(secretNamed.map((e) => e.name).sort()).toEqual(["ADMIN_JWT_SECRET", "ADMIN_PASSWORD", "PORTAL_SIGNING_KEYS"]);
    for (const e of secretNamed) expect(e).toEqual({ ...e, value: `\${${e.name}:-}` });
    expect(entries.filter((e) => isPlaceholder(e.value))).toEqual([]);
  });
});

describe("docker-compose.yml, every app", () => {
  // Every app with a service in docker-compose.yml (indexer-service has none).
  const apps: AppName[] = ["ingest-api", "read-api", "admin-api", "portal-api", "scoring-worker"];

  it.each(apps)("%s: starts its own bundle, is given every variable it requires and none it does not read", (app) => {
    const service = compose.services[app];
    const { reads, required } = appEnv(app);
    const given = Object.keys(service?.environment ?? {});
    expect({ app, unread: given.filter((name) => !reads.has(name)) }).toEqual({ app, unread: [] });
    expect({ app, missing: required.filter((name) => !given.includes(name)) }).toEqual({ app, missing: [] });
    expect(commandOf(app).join(" ")).toMatch(new RegExp(`node apps/${app}/dist/main\\.js$`));
    // A published port is the one the app listens on.
    for (const mapping of service?.ports ?? []) expect(mapping.split(":").at(-1)).toBe(service?.environment?.PORT);
  });

  it.each(apps)("%s: waits for the migration and NATS, and for Redis exactly when it reads REDIS_URL", (app) => {
    const waitsFor = Object.keys(compose.services[app]?.depends_on ?? {}).sort();
    const expected = appEnv(app).reads.has("REDIS_URL") ? ["migrate", "nats", "redis"] : ["migrate", "nats"];
    expect({ app, waitsFor }).toEqual({ app, waitsFor: expected });
  });
});
