// The built admin-api's /metrics as an operator scrapes it: request counts and latency by method, route
// template and status after real requests, and /readyz 503 with postgres down while PostgreSQL is away.
import { sampleValue } from "@pointwise/metrics";
import {
  type AppProcess,
  createTcpProxy,
  createTestDatabase,
  spawnApp,
  type TcpProxy,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

jest.setTimeout(90_000);

const EMAIL = "operator@pointwise.test";
const PASSWORD = "a-long-enough-password";
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: TcpProxy;
let admin: AppProcess | undefined;

beforeAll(async () => {
  const schema = uniqueName("t_am");
  db = await createTestDatabase(schema);
  proxy = await createTcpProxy(testUrls.database);
  await proxy.start();
  admin = await spawnApp("admin-api", {
    ...testServiceEnv(schema),
    DATABASE_URL: proxy.url,
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    ADMIN_EMAIL: EMAIL,
    ADMIN_PASSWORD: PASSWORD,
  });
});
afterAll(async () => {
  await admin?.stop("SIGKILL");
  await proxy?.stop();
  await db?.drop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${admin?.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

describe("admin-api /metrics", () => {
  it("counts each request once by method, route template and status, with a latency observation each", async () => {
    const base = admin?.url as string;
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 4; i++) expect((await fetch(`${base}/api/campaigns`, { headers })).status).toBe(200);
    // Refused before any route: counted as route "other".
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/campaigns`)).status).toBe(401);
    const missing = "abcd-9999";
    expect((await fetch(`${base}/api/campaigns/${missing}`, { headers })).status).toBe(404);
    // Probes are not traffic.
    await fetch(`${base}/healthz`);
    await fetch(`${base}/readyz`);

    const text = await scrape();
    const count = (method: string, route: string, status: string) => sampleValue(text, "pointwise_http_requests_total", { method, route, status });
    expect(count("POST", "/api/auth/login", "200")).toBe(1);
    expect(count("GET", "/api/campaigns", "200")).toBe(4);
    expect(count("GET", "other", "401")).toBe(3);
    expect(count("GET", "/api/campaigns/:id", "404")).toBe(1);
    expect(text).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
    expect(text).not.toContain(missing);
    const labels = { method: "GET", route: "/api/campaigns", status: "200" };
    expect(sampleValue(text, "pointwise_http_request_duration_seconds_count", labels)).toBe(4);
    expect(sampleValue(text, "pointwise_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(4);
    expect(sampleValue(text, "pointwise_http_request_duration_seconds_sum", labels)).toBeGreaterThan(0);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "postgres", optional: "false" })).toBe(1);
    expect(sampleValue(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("is not ready while PostgreSQL is away, says which, and is ready again when it is back", async () => {
    const base = admin?.url as string;
    await proxy.stop();
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 503, 10_000, "/readyz 503");
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ status: "unavailable", checks: { postgres: false } });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(sampleValue(await scrape(), "pointwise_dependency_up", { dependency: "postgres", optional: "false" })).toBe(0);
    await proxy.start();
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 10_000, "/readyz 200 again");
    expect(sampleValue(await scrape(), "pointwise_dependency_up", { dependency: "postgres" })).toBe(1);
  });
});
