// admin-api sessions: the per-e-mail sign-in limit, password changes, removing an operator, signing out and token bounds.
import { testServiceEnv } from "@pointwise/testkit";
import jwt from "jsonwebtoken";
import { loadEnv } from "../src/env";
import { type Harness, type Operator, startHarness } from "./harness";

const SECRET = "test-only-secret-test-only-secret-0123456789";
const PASSWORD = "a-long-enough-password";
let h: Harness;
let op: Operator;

beforeAll(async () => {
  h = await startHarness({ ADMIN_SIGN_IN_ATTEMPTS: "3", ADMIN_SIGN_IN_WINDOW_S: "600" });
  op = await h.newProject("Sessions");
});
afterAll(() => h?.close());

const signIn = (email: string, password: string) => h.call("POST", "/api/auth/login", { email, password });
/** Moves an e-mail's sign-in window back, as if `seconds` had passed since it started. */
const age = (email: string, seconds: number) =>
  h.deps.db.query("UPDATE sign_in_attempt SET window_start = window_start - make_interval(secs => $2) WHERE key = $1", [`email:${email}`, seconds]);
const asToken = (token: string) => (method: string, path: string, body?: unknown) => h.call(method, path, body, { authorization: `Bearer ${token}` });

describe("sign-in attempts", () => {
  it("defaults to 5 password checks per e-mail and 30 sign-ins per client address in a 15-minute window, trusting no proxy", () => {
    const base = { ...testServiceEnv("defaults"), ADMIN_JWT_SECRET: SECRET };
    const env = loadEnv(base);
    expect([env.ADMIN_SIGN_IN_ATTEMPTS, env.ADMIN_SIGN_IN_ATTEMPTS_PER_IP, env.ADMIN_SIGN_IN_WINDOW_S, env.ADMIN_TRUST_PROXY]).toEqual([5, 30, 900, 0]);
    expect(() => loadEnv({ ...base, ADMIN_SIGN_IN_ATTEMPTS: "0" })).toThrow(/ADMIN_SIGN_IN_ATTEMPTS/);
    expect(() => loadEnv({ ...base, ADMIN_SIGN_IN_ATTEMPTS_PER_IP: "0" })).toThrow("ADMIN_SIGN_IN_ATTEMPTS_PER_IP: must be at least 1");
    expect(loadEnv({ ...base, ADMIN_TRUST_PROXY: "true" }).ADMIN_TRUST_PROXY).toBe(1);
    expect(loadEnv({ ...base, ADMIN_TRUST_PROXY: "2" }).ADMIN_TRUST_PROXY).toBe(2);
    expect(() => loadEnv({ ...base, ADMIN_TRUST_PROXY: "yes" })).toThrow("ADMIN_TRUST_PROXY: must be false, true, or the number of proxies in front (0 to 10)");
  });

  it("refuses an example ADMIN_PASSWORD or ADMIN_JWT_SECRET, naming it", () => {
    const base = { ...testServiceEnv("examples"), ADMIN_JWT_SECRET: SECRET, ADMIN_EMAIL: "demo@pointwise.test" };
    expect(() => loadEnv({ ...base, ADMIN_PASSWORD: "change-me-demo-password" })).toThrow(/ADMIN_PASSWORD: must not be an example value/);
    expect(() => loadEnv({ ...base, ADMIN_JWT_SECRET: "change-me-change-me-change-me-change-me-0000" })).toThrow(
      /ADMIN_JWT_SECRET: must not be an example value/,
    );
  });

  it("starts without REDIS_URL, which admin-api does not use", () => {
    const { REDIS_URL: _unused, ...withoutRedis } = testServiceEnv("no_redis");
    expect(loadEnv({ ...withoutRedis, ADMIN_JWT_SECRET: SECRET })).not.toHaveProperty("REDIS_URL");
  });

  it("refuses an e-mail's attempts over the limit with 429 and Retry-After, even with the right password, until the window ends", async () => {
    const other = await h.addOperator(op.projectId);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await signIn(other.email, "wrong-password")).status);
    expect(statuses).toEqual([401, 401, 401]);
    const refused = await signIn(other.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("too-many-attempts");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.body.error.message).toBe(`too many password attempts for this e-mail; try again in ${retryAfter} s`);
    // Another e-mail is not affected; the session the operator already had still works.
    expect((await signIn(op.email, PASSWORD)).status).toBe(200);
    expect((await other.call("GET", "/api/me")).status).toBe(200);

    await age(other.email, 601);
    expect((await signIn(other.email, PASSWORD)).status).toBe(200);
  });

  it("counts an unknown e-mail the same way, so the limit does not reveal who has an account", async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await signIn("Nobody.Here@pointwise.test", "wrong-password"));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    // Any spelling of the e-mail is the same e-mail.
    expect((await signIn("nobody.here@POINTWISE.test", "wrong-password")).status).toBe(429);
  });

  it("starts counting again after a successful sign-in", async () => {
    const other = await h.addOperator(op.projectId);
    for (let i = 0; i < 2; i++) expect((await signIn(other.email, "wrong-password")).status).toBe(401);
    expect((await signIn(other.email, PASSWORD)).status).toBe(200);
    const after = [];
    for (let i = 0; i < 3; i++) after.push((await signIn(other.email, "wrong-password")).status);
    expect(after).toEqual([401, 401, 401]);
  });

  it("lets no more guesses through than the limit when they arrive all at once", async () => {
    const other = await h.addOperator(op.projectId);
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(other.email, "wrong-password")));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it("removes ended windows of other e-mails when someone signs in", async () => {
    await signIn("stale@pointwise.test", "wrong-password");
    await age("stale@pointwise.test", 601);
    expect((await signIn(op.email, PASSWORD)).status).toBe(200);
    const { rows } = await h.deps.db.query("SELECT key FROM sign_in_attempt WHERE key = 'email:stale@pointwise.test'");
    expect(rows).toEqual([]);
  });
});

describe("changing a password", () => {
  it("ends every older session, gives the caller a new token, and swaps which password signs in", async () => {
    const other = await h.addOperator(op.projectId);
    const secondDevice = (await signIn(other.email, PASSWORD)).body.token as string;
    const changed = await other.call("POST", "/api/me/password", { current_password: PASSWORD, new_password: "a-brand-new-password" });
    expect(changed.status).toBe(200);
    expect(Object.keys(changed.body)).toEqual(["token"]);

    for (const old of [other.token, secondDevice]) {
      const refused = await asToken(old)("GET", "/api/campaigns");
      expect(refused.status).toBe(401);
      expect(refused.body.error).toEqual({ code: "unauthenticated", message: "this session ended when the password was changed; sign in again" });
    }
    expect((await asToken(changed.body.token)("GET", "/api/me")).body.operator.email).toBe(other.email);
    expect((await signIn(other.email, PASSWORD)).status).toBe(401);
    expect((await signIn(other.email, "a-brand-new-password")).status).toBe(200);
  });

  it("refuses a wrong current password, a short or unchanged new one, and unknown fields, changing nothing", async () => {
    const other = await h.addOperator(op.projectId);
    const change = (body: unknown) => other.call("POST", "/api/me/password", body);
    expect((await change({ current_password: "not-my-password", new_password: "a-brand-new-password" })).body.error).toEqual({
      code: "current-password-wrong",
      message: "current_password: is not this operator's password",
    });
    expect((await change({ current_password: PASSWORD, new_password: "short" })).body.error.message).toBe("new_password: must be at least 12 characters");
    expect((await change({ current_password: PASSWORD, new_password: PASSWORD })).body.error.message).toBe(
      "new_password: must differ from the current password",
    );
    expect((await change({ current_password: PASSWORD, new_password: "a-brand-new-password", email: "x@y.z" })).status).toBe(400);
    expect((await change({ new_password: "a-brand-new-password" })).body.error.message).toMatch(/^current_password: /);
    // Nothing changed: the old session and the old password still work.
    expect((await other.call("GET", "/api/me")).status).toBe(200);
    expect((await signIn(other.email, PASSWORD)).status).toBe(200);
  });

  it("counts current-password checks against the sign-in limit of that e-mail", async () => {
    const other = await h.addOperator(op.projectId);
    const guesses = [];
    for (let i = 0; i < 4; i++) {
      guesses.push((await other.call("POST", "/api/me/password", { current_password: `guess-${i}`, new_password: "a-brand-new-password" })).status);
    }
    expect(guesses).toEqual([400, 400, 400, 429]);
    expect((await signIn(other.email, PASSWORD)).status).toBe(429);
  });

  it("accepts a token from before sessions had versions until the first password change", async () => {
    const legacy = jwt.sign({ pid: op.projectId }, SECRET, {
      subject: (await op.call("GET", "/api/me")).body.operator.id,
      audience: "pointwise-admin",
      expiresIn: 60,
    });
    expect((await asToken(legacy)("GET", "/api/me")).status).toBe(200);
    const forged = jwt.sign({ pid: op.projectId, ver: 7 }, SECRET, {
      subject: (await op.call("GET", "/api/me")).body.operator.id,
      audience: "pointwise-admin",
      expiresIn: 60,
    });
    expect((await asToken(forged)("GET", "/api/me")).status).toBe(401);
    const notUuid = jwt.sign({ pid: op.projectId }, SECRET, { subject: "x", audience: "pointwise-admin", expiresIn: 60 });
    expect((await asToken(notUuid)("GET", "/api/me")).body.error.code).toBe("unauthenticated");
  });
});

describe("removing an operator", () => {
  it("ends the removed operator's sessions at once and stops them signing in", async () => {
    const other = await h.addOperator(op.projectId);
    const id = (await other.call("GET", "/api/me")).body.operator.id as string;
    const removed = await op.call("DELETE", `/api/operators/${id}`);
    expect(removed).toMatchObject({ status: 200, body: { removed: id } });
    const refused = await other.call("GET", "/api/campaigns");
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe("this operator no longer exists; sign in again");
    expect((await signIn(other.email, PASSWORD)).status).toBe(401);
    const list = await op.call("GET", "/api/operators");
    expect(list.body.operators.map((o: { id: string }) => o.id)).not.toContain(id);
    expect((await op.call("DELETE", `/api/operators/${id}`)).body.error.code).toBe("operator-not-found");
  });

  it("refuses removing yourself, an operator of another project, and a malformed id", async () => {
    const me = (await op.call("GET", "/api/me")).body.operator.id as string;
    expect(await op.call("DELETE", `/api/operators/${me}`)).toMatchObject({ status: 409, body: { error: { code: "cannot-remove-self" } } });
    const stranger = await h.newProject("Elsewhere");
    const strangerId = (await stranger.call("GET", "/api/me")).body.operator.id as string;
    expect(await op.call("DELETE", `/api/operators/${strangerId}`)).toMatchObject({ status: 404, body: { error: { code: "operator-not-found" } } });
    expect((await stranger.call("GET", "/api/me")).status).toBe(200);
    expect((await op.call("DELETE", "/api/operators/not-a-uuid")).body.error.message).toBe("operator_id must be a uuid");
    expect((await op.call("GET", "/api/me")).status).toBe(200);
  });
});

describe("signing out", () => {
  it("ends only this session: its token answers 401 afterwards while another session of the same operator goes on", async () => {
    const other = await h.addOperator(op.projectId);
    const laptop = (await signIn(other.email, PASSWORD)).body.token as string;
    const out = await other.call("POST", "/api/auth/logout");
    expect(out).toMatchObject({ status: 200, body: { signed_out: true } });
    for (const path of ["/api/me", "/api/campaigns"]) {
      const refused = await other.call("GET", path);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toEqual({ code: "unauthenticated", message: "this session was signed out; sign in again" });
    }
    expect((await other.call("POST", "/api/auth/logout")).status).toBe(401);
    expect((await asToken(laptop)("GET", "/api/me")).body.operator.email).toBe(other.email);
    // Signing in again gives a new session that works.
    const again = (await signIn(other.email, PASSWORD)).body.token as string;
    expect((await asToken(again)("GET", "/api/me")).status).toBe(200);
  });

  it("keeps a revocation until the token would have expired, then purges it", async () => {
    const other = await h.addOperator(op.projectId);
    const { jti, exp } = jwt.decode(other.token) as { jti: string; exp: number };
    await other.call("POST", "/api/auth/logout");
    const { rows } = await h.deps.db.query<{ expires_at: Date }>("SELECT expires_at FROM revoked_session WHERE session_id = $1", [jti]);
    expect(rows.map((r) => r.expires_at.getTime())).toEqual([exp * 1000]);
    await h.deps.db.query("UPDATE revoked_session SET expires_at = now() - interval '1 second' WHERE session_id = $1", [jti]);
    const next = await h.addOperator(op.projectId);
    await next.call("POST", "/api/auth/logout");
    expect((await h.deps.db.query("SELECT 1 FROM revoked_session WHERE session_id = $1", [jti])).rows).toEqual([]);
  });

  it("ends every session of the operator when the token has no session id (signed before sessions had ids)", async () => {
    const other = await h.addOperator(op.projectId);
    const id = (await other.call("GET", "/api/me")).body.operator.id as string;
    const legacy = jwt.sign({ pid: op.projectId, ver: 0 }, SECRET, { subject: id, audience: "pointwise-admin", expiresIn: 60 });
    expect((await asToken(legacy)("POST", "/api/auth/logout")).status).toBe(200);
    expect((await asToken(legacy)("GET", "/api/me")).status).toBe(401);
    expect((await other.call("GET", "/api/me")).status).toBe(401);
  });
});

describe("bounds of a session token signed with the real secret", () => {
  const now = () => Math.floor(Date.now() / 1000);
  let operatorId: string;
  beforeAll(async () => {
    operatorId = (await op.call("GET", "/api/me")).body.operator.id;
  });
  // jsonwebtoken keeps a given iat, and adds none with noTimestamp.
  const forge = (payload: { iat?: number; exp?: number }, header: object = {}) =>
    jwt.sign({ pid: op.projectId, ver: 0, sub: operatorId, aud: "pointwise-admin", ...payload }, SECRET, {
      algorithm: "HS256",
      noTimestamp: payload.iat === undefined,
      header: { alg: "HS256", ...header } as jwt.JwtHeader,
    });
  const errorOf = async (token: string) => {
    const res = await asToken(token)("GET", "/api/me");
    return res.status === 200 ? "accepted" : { status: res.status, ...res.body.error };
  };

  it("signs sessions for 12 hours, with a session id", () => {
    const claims = jwt.decode(op.token) as jwt.JwtPayload;
    expect((claims.exp as number) - (claims.iat as number)).toBe(12 * 60 * 60);
    expect(claims.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("refuses a token without exp", async () => {
    expect(await errorOf(forge({ iat: now() }))).toEqual({ status: 401, code: "unauthenticated", message: "token must carry exp; sign in again" });
  });

  it("refuses a token with a crit header (RFC 7515 4.1.11)", async () => {
    expect(await errorOf(forge({ iat: now(), exp: now() + 60 }, { crit: ["b64"], b64: false }))).toEqual({
      status: 401,
      code: "unauthenticated",
      message: "token header crit lists extensions this service does not understand: b64; sign in again",
    });
  });

  it("refuses a token claiming a life over ADMIN_SESSION_MAX_AGE_S (12 hours), by exp - iat or by exp - now without iat", async () => {
    const t = now();
    expect(await errorOf(forge({ iat: t, exp: t + 43_200 }))).toBe("accepted");
    expect(await errorOf(forge({ iat: t, exp: t + 43_201 }))).toEqual({
      status: 401,
      code: "unauthenticated",
      message: "token lifetime (exp - iat) must be at most 43200 s; this one claims 43201 s; sign in again",
    });
    expect(await errorOf(forge({ iat: t - 86_400, exp: t + 600 }))).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(await errorOf(forge({ exp: t + 10 * 86_400 }))).toMatchObject({ status: 401, message: expect.stringMatching(/^token lifetime/) });
  });

  it("follows ADMIN_SESSION_MAX_AGE_S for the life it signs and accepts", async () => {
    const short = await startHarness({ ADMIN_SESSION_MAX_AGE_S: "600" });
    try {
      const someone = await short.newProject("Short sessions");
      const claims = jwt.decode(someone.token) as jwt.JwtPayload;
      expect((claims.exp as number) - (claims.iat as number)).toBe(600);
      const id = (await someone.call("GET", "/api/me")).body.operator.id;
      const hour = jwt.sign({ pid: someone.projectId, ver: 0 }, SECRET, { subject: id, audience: "pointwise-admin", expiresIn: 3600 });
      expect((await short.call("GET", "/api/me", undefined, { authorization: `Bearer ${hour}` })).status).toBe(401);
    } finally {
      await short.close();
    }
    expect(() => loadEnv({ ...testServiceEnv("bounds"), ADMIN_JWT_SECRET: SECRET, ADMIN_SESSION_MAX_AGE_S: "5" })).toThrow(/ADMIN_SESSION_MAX_AGE_S/);
  });
});
