// docker-compose.yml's portal-api command, run by sh as the container runs it (no Docker daemon needed): it signs with
// the PORTAL_SIGNING_KEYS it is given, and makes a P-256 key of its own when none is given.
import { spawn } from "node:child_process";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTestDatabase, freePort, repoRoot, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import { parse } from "yaml";

jest.setTimeout(60_000);

type Jwk = { kty: string; crv: string; x: string; y: string };

const compose = parse(readFileSync(path.join(repoRoot, "docker-compose.yml"), "utf8")) as {
  services: Record<string, { command: string[] }>;
};
// Compose turns `$$` into `$` before the container's shell sees the command.
const [shell, flag, script] = (compose.services["portal-api"]?.command ?? []).map((part) => part.replaceAll("$$", "$"));

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
