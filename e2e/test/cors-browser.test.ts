// A portal page on another origin calls the real read-api from headless Chromium: allowed origins read, others are blocked.
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AppProcess,
  createTestDatabase,
  openBrowser,
  seedApiKey,
  seedCampaign,
  seedScore,
  seedUser,
  spawnApp,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";

jest.setTimeout(90_000);

const SECRET = "portal-shared-secret-for-tests-0123456789";

/** A page server: another port on 127.0.0.1 is another origin to the browser. */
async function pageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>portal</title><p>portal</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An HS256 portal token written out by hand (RFC 7519), as a portal's back end would sign it. */
function portalToken(sub: string): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const claims = { sub, iss: "pointwise-portal", aud: "pointwise-read-api", exp: Math.floor(Date.now() / 1000) + 300 };
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
  return `${unsigned}.${createHmac("sha256", SECRET).update(unsigned).digest("base64url")}`;
}

type Outcome = { ok: true; status: number; body: unknown } | { ok: false; error: string };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let read: AppProcess;
let allowed: Awaited<ReturnType<typeof pageServer>>;
let other: Awaited<ReturnType<typeof pageServer>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let campaignId = "";
let userId = "";
let apiKey = "";

beforeAll(async () => {
  const schema = uniqueName("cors");
  db = await createTestDatabase(schema);
  campaignId = await seedCampaign(db, { currencies: { xp: "Experience" } });
  userId = await seedUser(db, campaignId, { displayName: "Alice" });
  await seedScore(db, campaignId, userId, "xp", { score: "42" });
  apiKey = (await seedApiKey(db, campaignId)).key;
  allowed = await pageServer();
  other = await pageServer();
  read = await spawnApp("read-api", { ...testServiceEnv(schema), PORTAL_JWT_SECRET: SECRET, CORS_ALLOWED_ORIGINS: allowed.origin, LOG_LEVEL: "warn" });
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  await read?.stop();
  await allowed?.close();
  await other?.close();
  await db?.drop();
});

/** Opens a page on `origin` and has it fetch `url` with `headers`, as a portal's script would. */
async function fetchFrom(origin: string, url: string, headers: Record<string, string> = {}): Promise<Outcome> {
  await browser.page.goto(`${origin}/`);
  return browser.page.evaluate(
    async ({ url, headers }) => {
      try {
        const res = await fetch(url, { headers });
        return { ok: true as const, status: res.status, body: await res.json() };
      } catch (err) {
        return { ok: false as const, error: String(err) };
      }
    },
    { url, headers },
  );
}

describe("a portal on another origin in a real browser", () => {
  it("reads the leaderboard from an allowed origin", async () => {
    const outcome = await fetchFrom(allowed.origin, `${read.url}/leaderboard?campaign_id=${campaignId}`);
    expect(outcome).toMatchObject({ ok: true, status: 200, body: { campaign_id: campaignId, entries: [{ user_id: userId, scores: { xp: { score: 42 } } }] } });
  });

  it("reads a user's scores with a portal token in Authorization (a preflighted request)", async () => {
    const outcome = await fetchFrom(allowed.origin, `${read.url}/users/${userId}/scores`, { authorization: `Bearer ${portalToken(userId)}` });
    expect(outcome).toMatchObject({ ok: true, status: 200, body: { user_id: userId } });
  });

  it("reads a user's scores with X-API-Key", async () => {
    const outcome = await fetchFrom(allowed.origin, `${read.url}/users/${userId}/scores`, { "x-api-key": apiKey });
    expect(outcome).toMatchObject({ ok: true, status: 200, body: { user_id: userId } });
  });

  it("is blocked by the browser on an origin that is not allowed, for the leaderboard and for user scores", async () => {
    const board = await fetchFrom(other.origin, `${read.url}/leaderboard?campaign_id=${campaignId}`);
    expect(board).toEqual({ ok: false, error: expect.stringMatching(/Failed to fetch/) });
    const scores = await fetchFrom(other.origin, `${read.url}/users/${userId}/scores`, { "x-api-key": apiKey });
    expect(scores).toEqual({ ok: false, error: expect.stringMatching(/Failed to fetch/) });
  });
});
