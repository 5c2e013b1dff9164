// admin-api sessions: the per-e-mail sign-in limit, password changes, and removing an operator.
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
  h.deps.db.query("UPDATE sign_in_attempt SET window_start = window_start - make_interval(secs => $2) WHERE email = $1", [email, seconds]);
const asToken = (token: string) => (method: string, path: string, body?: unknown) => h.call(method, path, body, { authorization: `Bearer ${token}` });

describe("sign-in attempts", () => {
  it("defaults to 5 password checks per e-mail in a 15-minute window", () => {
    const base = { ...testServiceEnv("defaults"), ADMIN_JWT_SECRET: SECRET };
    const env = loadEnv(base);
    expect([env.ADMIN_SIGN_IN_ATTEMPTS, env.ADMIN_SIGN_IN_WINDOW_S]).toEqual([5, 900]);
    expect(() => loadEnv({ ...base, ADMIN_SIGN_IN_ATTEMPTS: "0" })).toThrow(/ADMIN_SIGN_IN_ATTEMPTS/);
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
    const { rows } = await h.deps.db.query("SELECT email FROM sign_in_attempt WHERE email = 'stale@pointwise.test'");
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
