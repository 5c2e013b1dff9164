// GET /users/{user_id}/scores: every credential against every target, fields and ranks, caching, 304 and HEAD.
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { Queryable } from "@pointwise/db";
import { userScoresResponseSchema } from "@pointwise/schemas";
import { seedApiKey, seedCampaign, seedIdentity, seedRuleVersion, seedScore, seedUser, waitUntil } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { get, startReadApi, type TestReadApi } from "./support";

const SECRET = "portal-shared-secret-for-tests-0123456789";
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PUBLIC_PEM = rsa.publicKey.export({ type: "spki", format: "pem" }).toString();

let api: TestReadApi;
let pool: Queryable;
let campaignA = "";
let campaignB = "";
const users = { a1: "", a2: "", b1: "" };
const keys = { a: "", b: "", revoked: "" };
const unknownUser = "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11";

const inAMinute = () => Math.floor(Date.now() / 1000) + 60;
const claims = { iss: "test-portal", aud: "test-read" };
const hs = (sub: string, extra: object = {}) => jwt.sign({ ...claims, sub, exp: inAMinute(), ...extra }, SECRET, { algorithm: "HS256" });
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

beforeAll(async () => {
  api = await startReadApi({
    PORTAL_JWT_SECRET: SECRET,
    PORTAL_JWT_PUBLIC_KEY: PUBLIC_PEM.replace(/\n/g, "\\n"),
    PORTAL_JWT_ISSUER: "test-portal",
    PORTAL_JWT_AUDIENCE: "test-read",
    API_KEY_CACHE_MS: "0",
  });
  pool = api.db;
  campaignA = await seedCampaign(api.db, { currencies: { xp: "Experience", gems: "Gems" }, primary: "xp" });
  campaignB = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
  await seedRuleVersion(api.db, campaignA, {
    campaignId: campaignA,
    version: 1,
    primaryCurrency: "xp",
    currencies: {
      xp: {
        name: "Experience",
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "gold", name: "Gold", minLifetime: "100" },
        ],
      },
      gems: { name: "Gems" },
    },
    rules: [],
  });
  users.a1 = await seedUser(api.db, campaignA, { displayName: "Alice" });
  users.a2 = await seedUser(api.db, campaignA, { displayName: "Bob" });
  users.b1 = await seedUser(api.db, campaignB, { displayName: "Carol" });
  await seedIdentity(api.db, campaignA, users.a2, "X_PROVIDER_ID", "1234567890123456789", "bob_on_x");
  await seedScore(api.db, campaignA, users.a1, "xp", { score: "150", referral: "25", tier: "gold" });
  await seedScore(api.db, campaignA, users.a1, "gems", { score: "3" });
  await seedScore(api.db, campaignA, users.a2, "xp", { score: "200", tier: "gold" });
  await seedScore(api.db, campaignB, users.b1, "xp", { score: "1" });
  keys.a = (await seedApiKey(api.db, campaignA)).key;
  keys.b = (await seedApiKey(api.db, campaignB)).key;
  keys.revoked = (await seedApiKey(api.db, campaignA, { revoked: true })).key;
});
afterAll(async () => {
  await api?.close();
});

type Target = "a1" | "a2" | "b1" | "unknown" | "malformed";
const targetId = (t: Target) => (t === "unknown" ? unknownUser : t === "malformed" ? "not-a-uuid" : users[t]);

/** Every credential kind the endpoint can meet. */
function credentials(): Record<string, Record<string, string>> {
  return {
    none: {},
    "jwt HS256 of a1": { authorization: `Bearer ${hs(users.a1)}` },
    "jwt RS256 of a1": { authorization: `Bearer ${jwt.sign({ ...claims, sub: users.a1, exp: inAMinute() }, rsa.privateKey, { algorithm: "RS256" })}` },
    "jwt of an unknown user": { authorization: `Bearer ${hs(unknownUser)}` },
    "expired jwt of a1": { authorization: `Bearer ${hs(users.a1, { exp: Math.floor(Date.now() / 1000) - 120 })}` },
    "alg none jwt of a1": { authorization: `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, sub: users.a1, exp: inAMinute() })}.` },
    "jwt of a1 with a bad signature": { authorization: `Bearer ${jwt.sign({ ...claims, sub: users.a1, exp: inAMinute() }, `${SECRET}!`)}` },
    "jwt of a1 from another issuer": { authorization: `Bearer ${hs(users.a1, { iss: "evil" })}` },
    "jwt of a1 for another audience": { authorization: `Bearer ${hs(users.a1, { aud: "other" })}` },
    "jwt of a1 without exp": { authorization: `Bearer ${jwt.sign({ ...claims, sub: users.a1 }, SECRET)}` },
    // jsonwebtoken's decode throws a SyntaxError of its own when the header says typ JWT and the payload is not JSON.
    "jwt whose payload is not JSON": { authorization: `Bearer ${b64({ alg: "HS256", typ: "JWT" })}.eA.${"A".repeat(43)}` },
    "Basic credentials": { authorization: "Basic dXNlcjpwYXNz" },
    "API key as bearer": { authorization: `Bearer ${keys.a}` },
    "key of campaign A": { "x-api-key": keys.a },
    "key of campaign B": { "x-api-key": keys.b },
    "revoked key of campaign A": { "x-api-key": keys.revoked },
    "unknown key": { "x-api-key": "pw_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
    "jwt and key together": { authorization: `Bearer ${hs(users.a1)}`, "x-api-key": keys.a },
  };
}

/** The documented answer (status and error code, or 200) for a credential and a target. */
function expected(credential: string, target: Target): string {
  if (target === "malformed") return "400 invalid-user-id";
  const denied: Record<string, string> = {
    none: "401 missing-credentials",
    "expired jwt of a1": "401 token-expired",
    "alg none jwt of a1": "401 invalid-token",
    "jwt of a1 with a bad signature": "401 invalid-token",
    "jwt of a1 from another issuer": "401 invalid-token",
    "jwt of a1 for another audience": "401 invalid-token",
    "jwt of a1 without exp": "401 invalid-token",
    "jwt whose payload is not JSON": "401 invalid-token",
    "Basic credentials": "401 invalid-token",
    "API key as bearer": "401 invalid-token",
    "revoked key of campaign A": "401 invalid-api-key",
    "unknown key": "401 invalid-api-key",
    "jwt and key together": "400 ambiguous-credentials",
  };
  const deny = denied[credential];
  if (deny) return deny;
  if (credential.startsWith("jwt") && credential.endsWith("of a1")) return target === "a1" ? "200" : "403 forbidden";
  if (credential === "jwt of an unknown user") return target === "unknown" ? "404 user-not-found" : "403 forbidden";
  const keyCampaign = credential === "key of campaign A" ? "A" : "B";
  const targetCampaign = target === "b1" ? "B" : target === "unknown" ? null : "A";
  return keyCampaign === targetCampaign ? "200" : "404 user-not-found";
}

describe("GET /users/{user_id}/scores authorization", () => {
  it("answers every credential kind x every target as documented", async () => {
    const table: string[] = [];
    const want: string[] = [];
    for (const [name, headers] of Object.entries(credentials())) {
      for (const target of ["a1", "a2", "b1", "unknown", "malformed"] as Target[]) {
        const res = await get(`${api.url}/users/${targetId(target)}/scores`, headers);
        const got = res.status === 200 ? "200" : `${res.status} ${res.body?.error?.code}`;
        table.push(`${name} -> ${target}: ${got}`);
        want.push(`${name} -> ${target}: ${expected(name, target)}`);
        // The answer depends on the credential headers, refusals included.
        expect(res.headers.get("vary")).toBe("Authorization, X-API-Key");
        if (res.status === 200) {
          expect(userScoresResponseSchema.parse(res.body).user_id).toBe(targetId(target));
          // Revalidated on every use (a 304 while the ETag holds), so a dropped entry shows new points at once.
          expect(res.headers.get("cache-control")).toBe("private, no-cache");
        } else {
          expect(Object.keys(res.body)).toEqual(["error"]);
          const tokenProblem = ["invalid-token", "token-expired"].includes(res.body.error.code);
          if (res.status === 401) expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="pointwise"${tokenProblem ? ', error="invalid_token"' : ""}`);
        }
      }
    }
    expect(table).toEqual(want);
  });

  it("answers a user id that is not valid percent-encoding with invalid-user-id, like any other malformed id", async () => {
    for (const id of ["%E0%A4%A", "%ZZ", "abc%"]) {
      const res = await get(`${api.url}/users/${id}/scores`, { "x-api-key": keys.a });
      expect({ id, status: res.status, body: res.body }).toEqual({
        id,
        status: 400,
        body: { error: { code: "invalid-user-id", message: "user_id must be a uuid" } },
      });
      expect(res.headers.get("vary")).toBe("Authorization, X-API-Key");
    }
  });

  it("matches user ids in any case: a token's sub and the path", async () => {
    const upper = users.a1.toUpperCase();
    const bySub = await get(`${api.url}/users/${users.a1}/scores`, { authorization: `Bearer ${hs(upper)}` });
    const byPath = await get(`${api.url}/users/${upper}/scores`, { authorization: `Bearer ${hs(users.a1)}` });
    expect([bySub.status, byPath.status]).toEqual([200, 200]);
    expect(byPath.body.user_id).toBe(users.a1);
  });

  it("gives a key of another campaign exactly the answer an unknown user gets", async () => {
    const other = await get(`${api.url}/users/${users.b1}/scores`, { "x-api-key": keys.a });
    const unknown = await get(`${api.url}/users/${unknownUser}/scores`, { "x-api-key": keys.a });
    expect(other.status).toBe(unknown.status);
    expect(other.text.replace(users.b1, "<id>")).toBe(unknown.text.replace(unknownUser, "<id>"));
    expect(other.headers.get("www-authenticate")).toBe(unknown.headers.get("www-authenticate"));
  });

  it("returns the spec's fields plus tiers, ranked by the primary currency", async () => {
    const res = await get(`${api.url}/users/${users.a1}/scores`, { "x-api-key": keys.a });
    const body = userScoresResponseSchema.parse(res.body);
    expect(body).toEqual({
      user_id: users.a1,
      rank: 2,
      cached_at: body.cached_at,
      display_name: "Alice",
      avatar_url: expect.stringMatching(/^https:\/\/gen\.test\/avatar\.svg\?seed=[0-9a-f]{24}$/),
      identities: {},
      currency_names: { xp: "Experience", gems: "Gems" },
      scores: { xp: { score: 150, referral_score: 25, total: 175 }, gems: { score: 3, referral_score: 0, total: 3 } },
      // Nothing spent: the balance is the total.
      balances: { xp: { spent: 0, balance: 175, shortfall: 0 }, gems: { spent: 0, balance: 3, shortfall: 0 } },
      tiers: { xp: { key: "gold", name: "Gold" }, gems: null },
    });
    const bob = userScoresResponseSchema.parse((await get(`${api.url}/users/${users.a2}/scores`, { authorization: `Bearer ${hs(users.a2)}` })).body);
    expect(bob).toMatchObject({ rank: 1, display_name: "Bob", identities: { x_username: "bob_on_x" }, avatar_url: "https://img.test/x/bob_on_x" });
  });

  it("ranks a user without points in the primary currency with everyone at 0, and shows zeros", async () => {
    const newcomer = await seedUser(api.db, campaignA, { displayName: "Newcomer" });
    const res = await get(`${api.url}/users/${newcomer}/scores`, { "x-api-key": keys.a });
    const body = userScoresResponseSchema.parse(res.body);
    const { rows } = await pool.query<{ above: number }>("SELECT count(*)::int AS above FROM score WHERE campaign_id = $1 AND currency = 'xp' AND total > 0", [
      campaignA,
    ]);
    expect(rows[0]?.above).toBeGreaterThan(0);
    expect(body.rank).toBe(1 + (rows[0]?.above as number));
    expect(body.scores).toEqual({ xp: { score: 0, referral_score: 0, total: 0 }, gems: { score: 0, referral_score: 0, total: 0 } });
    // No score row, so no tier, although xp's first tier starts at 0; and no place on the board.
    expect(body.tiers).toEqual({ xp: null, gems: null });
    const board = await get(`${api.url}/leaderboard?campaign_id=${campaignA}&limit=1000`);
    expect(board.body.entries.map((e: { user_id: string }) => e.user_id)).not.toContain(newcomer);
  });

  it("serves a user's record with the same bytes and cached_at within the cache window, and rebuilds it after", async () => {
    const user = await seedUser(api.db, campaignA, { displayName: "Windowed" });
    await seedScore(api.db, campaignA, user, "xp", { score: "10" });
    // A 3 s window: long enough that a busy machine cannot stretch two back-to-back requests across it.
    const url = await api.another({ env: { ...api.deps.env, CACHE_TTL_MS: 3000 } });
    const read = () => get(`${url}/users/${user}/scores`, { "x-api-key": keys.a });
    const first = await read();
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    // Changed behind the service's back (no score-change message): the window bounds how long it shows.
    await seedScore(api.db, campaignA, user, "xp", { score: "99" });
    expect((await read()).text).toBe(first.text);
    let latest = first;
    await waitUntil(
      async () => {
        latest = await read();
        return latest.body.cached_at !== first.body.cached_at;
      },
      10_000,
      "the cache window to pass",
    );
    expect(latest.body.scores.xp.total).toBe(99);
    expect(Date.parse(latest.body.cached_at)).toBeGreaterThan(Date.parse(first.body.cached_at));
  });

  it("checks credentials before the cache, and never serves one user's cached record to another", async () => {
    const warm = await get(`${api.url}/users/${users.a1}/scores`, { "x-api-key": keys.a });
    expect(warm.status).toBe(200);
    const attempts: Record<string, string>[] = [
      {},
      { "x-api-key": keys.b },
      { authorization: `Bearer ${hs(users.a2)}` },
      { authorization: `Bearer ${hs(users.a1, { exp: 1 })}` },
    ];
    for (const headers of attempts) {
      const res = await get(`${api.url}/users/${users.a1}/scores`, headers);
      expect(res.status).not.toBe(200);
      expect(res.text).not.toContain("Alice");
    }
    const second = await get(`${api.url}/users/${users.a2}/scores`, { "x-api-key": keys.a });
    expect(second.body.user_id).toBe(users.a2);
    expect(second.body.display_name).toBe("Bob");
    // Every cached per-user record sits under a key that names its user.
    const cached = await api.cache.scanKeys(api.cache.key("read", "user", "*"));
    expect(cached.length).toBeGreaterThanOrEqual(2);
    for (const key of cached) {
      const body = await api.cache.get(key);
      if (body?.startsWith("{")) expect(key.endsWith(`:${JSON.parse(body).user_id}`)).toBe(true);
    }
  });
});

/** A raw request (not fetch, which adds Cache-Control: no-cache and so never gets a 304). */
function raw(method: "GET" | "HEAD", url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject)
      .end();
  });
}

describe("GET /users/{user_id}/scores conditional and HEAD requests", () => {
  it("answers 304 without a body for a matching If-None-Match, with the same cache headers", async () => {
    const url = `${api.url}/users/${users.a1}/scores`;
    const first = await raw("GET", url, { "x-api-key": keys.a });
    expect(first.status).toBe(200);
    expect(first.headers["content-length"]).toBe(String(Buffer.byteLength(first.body)));
    // The `etag` package is what express itself uses for res.send bodies.
    expect(first.headers.etag).toBe(require("etag")(Buffer.from(first.body), { weak: true }));
    const again = await raw("GET", url, { "x-api-key": keys.a, "if-none-match": first.headers.etag as string });
    expect({ status: again.status, body: again.body }).toEqual({ status: 304, body: "" });
    expect(again.headers).toMatchObject({ etag: first.headers.etag, vary: "Authorization, X-API-Key", "cache-control": first.headers["cache-control"] });
    expect(again.headers["content-type"]).toBeUndefined();
    // Another ETag, or a client asking for no cached copy, gets the body.
    const other = await raw("GET", url, { "x-api-key": keys.a, "if-none-match": 'W/"0-nope"' });
    expect({ status: other.status, body: other.body }).toEqual({ status: 200, body: first.body });
    const noCache = await raw("GET", url, { "x-api-key": keys.a, "if-none-match": first.headers.etag as string, "cache-control": "no-cache" });
    expect(noCache.status).toBe(200);
    // Credentials are checked first: a matching ETag without a key is still refused.
    expect((await raw("GET", url, { "if-none-match": first.headers.etag as string })).status).toBe(401);
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    for (const [url, headers] of [
      [`${api.url}/users/${users.a1}/scores`, { "x-api-key": keys.a }],
      [`${api.url}/leaderboard?campaign_id=${campaignA}`, {}],
    ] as const) {
      const got = await raw("GET", url, headers);
      const head = await raw("HEAD", url, headers);
      expect(head.status).toBe(200);
      expect(head.body).toBe("");
      for (const name of ["content-length", "content-type", "etag", "vary"]) expect([name, head.headers[name]]).toEqual([name, got.headers[name]]);
      // The leaderboard's max-age counts down with the cached body, so a second may pass between the two.
      const seconds = (v: string | undefined) => v?.replace(/max-age=\d+/, "max-age=N");
      expect(seconds(head.headers["cache-control"])).toBe(seconds(got.headers["cache-control"]));
    }
  });
});
