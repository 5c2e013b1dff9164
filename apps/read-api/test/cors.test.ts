// CORS headers of the read API: allowed origins echoed, preflights answered 204, others get no CORS header, Vary: Origin always.
import { seedApiKey, seedCampaign, seedScore, seedUser } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { loadEnv } from "../src/env";
import { startReadApi, type TestReadApi } from "./support";

const SECRET = "portal-shared-secret-for-tests-0123456789";
const PORTAL = "https://portal.example.com";
const OTHER = "https://portal.example.com:8443";

let api: TestReadApi;
let open: TestReadApi;
let closed: TestReadApi;
let campaignId = "";
let userId = "";
let apiKey = "";

beforeAll(async () => {
  api = await startReadApi({ PORTAL_JWT_SECRET: SECRET, CORS_ALLOWED_ORIGINS: ` ${PORTAL}/ , http://127.0.0.1:5173` });
  campaignId = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
  userId = await seedUser(api.db, campaignId, { displayName: "Alice" });
  await seedScore(api.db, campaignId, userId, "xp", { score: "12" });
  apiKey = (await seedApiKey(api.db, campaignId)).key;
  open = await startReadApi({ CORS_ALLOWED_ORIGINS: "*" });
  closed = await startReadApi();
});
afterAll(async () => {
  await api?.close();
  await open?.close();
  await closed?.close();
});

const corsHeaderNames = (headers: Headers) => [...headers.keys()].filter((k) => k.startsWith("access-control-")).sort();
const varyNames = (headers: Headers) => (headers.get("vary") ?? "").split(",").map((v) => v.trim().toLowerCase());

function preflight(base: string, path: string, origin: string, requestHeaders = "authorization, x-api-key") {
  return fetch(`${base}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": requestHeaders },
  });
}

describe("CORS on the read API", () => {
  it("answers a preflight from an allowed origin 204 with the origin, methods, credential headers and max age", async () => {
    const res = await preflight(api.url, `/users/${userId}/scores`, PORTAL);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "x-api-key"]));
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(varyNames(res.headers)).toContain("origin");
    expect(await res.text()).toBe("");
  });

  it("answers a preflight of the leaderboard too, whatever the path", async () => {
    const res = await preflight(api.url, `/leaderboard?campaign_id=${campaignId}`, "http://127.0.0.1:5173");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
  });

  it("gives a disallowed origin no CORS header at all, preflight or not, but still says Vary: Origin", async () => {
    for (const origin of [OTHER, "http://portal.example.com", "https://evil.example", "null"]) {
      const pre = await preflight(api.url, `/users/${userId}/scores`, origin);
      expect(pre.status).toBe(204);
      expect(corsHeaderNames(pre.headers)).toEqual([]);
      expect(varyNames(pre.headers)).toContain("origin");
      const res = await fetch(`${api.url}/leaderboard?campaign_id=${campaignId}`, { headers: { origin } });
      expect(res.status).toBe(200);
      expect(corsHeaderNames(res.headers)).toEqual([]);
      expect(varyNames(res.headers)).toContain("origin");
    }
  });

  it("echoes an allowed origin on leaderboard answers, cached or not, and on errors", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${api.url}/leaderboard?campaign_id=${campaignId}`, { headers: { origin: PORTAL } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe(PORTAL);
      expect(varyNames(res.headers)).toEqual(["origin"]);
    }
    const bad = await fetch(`${api.url}/leaderboard?campaign_id=nope`, { headers: { origin: PORTAL } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe(PORTAL);
    expect(varyNames(bad.headers)).toContain("origin");
    const missing = await fetch(`${api.url}/nowhere`, { headers: { origin: PORTAL } });
    expect(missing.status).toBe(404);
    expect(varyNames(missing.headers)).toContain("origin");
  });

  it("keeps the credential headers in Vary beside Origin on user scores, answered or refused", async () => {
    const token = jwt.sign({ sub: userId, exp: Math.floor(Date.now() / 1000) + 60 }, SECRET, {
      algorithm: "HS256",
      issuer: "pointwise-portal",
      audience: "pointwise-read-api",
    });
    const credentials: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { "x-api-key": apiKey }, {}];
    for (const headers of credentials) {
      const res = await fetch(`${api.url}/users/${userId}/scores`, { headers: { origin: PORTAL, ...headers } });
      expect([200, 401]).toContain(res.status);
      expect(res.status === 200).toBe(Object.keys(headers).length > 0);
      expect(res.headers.get("access-control-allow-origin")).toBe(PORTAL);
      expect(varyNames(res.headers).sort()).toEqual(["authorization", "origin", "x-api-key"]);
    }
  });

  it("echoes any origin when configured with *, but not the opaque origin null", async () => {
    const pre = await preflight(open.url, "/leaderboard", "https://anyone.example");
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://anyone.example");
    const opaque = await preflight(open.url, "/leaderboard", "null");
    expect(corsHeaderNames(opaque.headers)).toEqual([]);
  });

  it("sends no CORS header and leaves OPTIONS unrouted when no origin is configured", async () => {
    const pre = await preflight(closed.url, "/leaderboard", PORTAL);
    expect(pre.status).toBe(404);
    expect(corsHeaderNames(pre.headers)).toEqual([]);
  });
});

describe("CORS_ALLOWED_ORIGINS", () => {
  const required = { DATABASE_URL: "postgres://127.0.0.1:5432/x", REDIS_URL: "redis://127.0.0.1:6379", NATS_URL: "nats://127.0.0.1:4222" };

  it("is empty unless set, and keeps exact origins as browsers write them", () => {
    expect(loadEnv(required).CORS_ALLOWED_ORIGINS).toEqual([]);
    expect(loadEnv({ ...required, CORS_ALLOWED_ORIGINS: "https://Portal.Example.com:443/, http://localhost:3000" }).CORS_ALLOWED_ORIGINS).toEqual([
      "https://portal.example.com",
      "http://localhost:3000",
    ]);
    expect(loadEnv({ ...required, CORS_ALLOWED_ORIGINS: "*" }).CORS_ALLOWED_ORIGINS).toBe("*");
  });

  it.each([
    ["https://portal.example.com/app", /CORS_ALLOWED_ORIGINS.*https:\/\/portal\.example\.com\/app is not an origin/],
    ["portal.example.com", /is not an origin/],
    ["ftp://portal.example.com", /is not an origin/],
    ["*, https://portal.example.com", /CORS_ALLOWED_ORIGINS.*\* alone/],
  ])("refuses %s with a message naming the variable", (value, message) => {
    expect(() => loadEnv({ ...required, CORS_ALLOWED_ORIGINS: value })).toThrow(message);
  });
});
