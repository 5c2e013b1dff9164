// portal-api as a real process: ready on its port, the JWKS and CORS answered, requests counted on /metrics, SIGTERM ends it with exit code 0.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { sampleValue } from "@pointwise/metrics";
import { type AppProcess, createTestDatabase, spawnApp, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import { newSigningKey } from "./harness";

const schema = uniqueName("portal_proc");
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let app: AppProcess;
beforeAll(async () => {
  db = await createTestDatabase(schema);
  app = await spawnApp("portal-api", { ...testServiceEnv(schema), PORTAL_SIGNING_KEYS: newSigningKey(), CORS_ALLOWED_ORIGINS: "https://portal.example" });
});
afterAll(async () => {
  await app?.stop("SIGKILL");
  await db?.drop();
});

describe("portal-api process", () => {
  it("warns at start that the log mailer keeps e-mail codes in its log, and that LOG_LEVEL above info hides them", async () => {
    // The warning follows the ready answer; the child's output can reach this process after /readyz does.
    const logs = (p: AppProcess, line: string) => waitUntil(async () => p.output().includes(line), 10_000, `portal-api to log "${line}"`);
    await logs(app, "PORTAL_MAILER=log: e-mail codes go to this log, not to participants");
    expect(app.output()).toContain("PORTAL_MAILER=log: e-mail codes go to this log, not to participants");
    const quiet = await spawnApp("portal-api", { ...testServiceEnv(schema), PORTAL_SIGNING_KEYS: newSigningKey(), LOG_LEVEL: "warn" });
    try {
      await logs(quiet, "PORTAL_MAILER=log writes e-mail codes at info, which LOG_LEVEL hides");
      expect(quiet.output()).toContain("PORTAL_MAILER=log writes e-mail codes at info, which LOG_LEVEL hides: e-mail sign-in cannot complete");
    } finally {
      await quiet.stop("SIGKILL");
    }
  });

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

  it("serves Prometheus metrics: requests by method, route template and status, its database's state", async () => {
    for (let i = 0; i < 2; i++) expect((await fetch(`${app.url}/.well-known/jwks.json`)).status).toBe(200);
    await fetch(`${app.url}/readyz`);
    const res = await fetch(`${app.url}/metrics`);
    expect([res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([200, "text/plain"]);
    const text = await res.text();
    // Two here and one in the test before; probes are not counted.
    expect(sampleValue(text, "pointwise_http_requests_total", { method: "GET", route: "/.well-known/jwks.json", status: "200" })).toBe(3);
    expect(text).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "postgres", optional: "false" })).toBe(1);
    expect(sampleValue(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("exits 0 on SIGTERM", async () => {
    expect(await app.stop("SIGTERM")).toBe(0);
  });
});
