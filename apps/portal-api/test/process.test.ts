// portal-api as a real process: ready on its port, the JWKS and CORS answered, SIGTERM ends it with exit code 0.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type AppProcess, createTestDatabase, spawnApp, testServiceEnv, uniqueName } from "@pointwise/testkit";

const schema = uniqueName("portal_proc");
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let app: AppProcess;
beforeAll(async () => {
  db = await createTestDatabase(schema);
  const key = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  app = await spawnApp("portal-api", { ...testServiceEnv(schema), PORTAL_SIGNING_KEYS: key, CORS_ALLOWED_ORIGINS: "https://portal.example" });
});
afterAll(async () => {
  await app?.stop("SIGKILL");
  await db?.drop();
});

describe("portal-api process", () => {
  it("publishes one key and answers a preflight of an allowed origin only", async () => {
    const jwks = (await (await fetch(`${app.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(jwks.keys).toHaveLength(1);
    const preflight = (origin: string) =>
      fetch(`${app.url}/auth/wallet`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const allowed = await preflight("https://portal.example");
    expect([allowed.status, allowed.headers.get("access-control-allow-origin")]).toEqual([204, "https://portal.example"]);
    expect((await preflight("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("exits 0 on SIGTERM", async () => {
    expect(await app.stop("SIGTERM")).toBe(0);
  });
});
