// admin-api's sign-in limit per client address: guesses spread over many e-mails, the socket's address or a trusted proxy's.
import { createOperator } from "../src/operators";
import { type Harness, OPERATOR_PASSWORD, startHarness } from "./harness";

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

/** A harness whose address limit is `perAddress` (with 5 checks per e-mail), its counts cleared, and an operator made without signing in. */
async function limited(perAddress: number, overrides: Record<string, string> = {}) {
  const h = await startHarness({ ADMIN_SIGN_IN_ATTEMPTS_PER_IP: String(perAddress), ADMIN_SIGN_IN_ATTEMPTS: "5", ...overrides });
  harnesses.push(h);
  const owner = await h.newProject("Addresses");
  const email = `operator-${harnesses.length}@pointwise.test`;
  await createOperator(h.deps.db, owner.projectId, email, OPERATOR_PASSWORD);
  // newProject signed its operator in from 127.0.0.1: each test starts from no attempts.
  await h.deps.db.query("DELETE FROM sign_in_attempt");
  const signIn = (as: string, password: string, headers: Record<string, string> = {}) => h.call("POST", "/api/auth/login", { email: as, password }, headers);
  return { h, email, signIn };
}

describe("sign-in attempts per client address", () => {
  it("refuses an address over ADMIN_SIGN_IN_ATTEMPTS_PER_IP with 429 and Retry-After, however many e-mails it tries, even a right password", async () => {
    const { signIn, email } = await limited(4);
    const guesses = [];
    // One wrong guess each for four e-mails: no e-mail is near its own limit of 5.
    for (let i = 0; i < 4; i++) guesses.push((await signIn(`someone-${i}@pointwise.test`, "wrong-password")).status);
    expect(guesses).toEqual([401, 401, 401, 401]);
    const refused = await signIn(email, OPERATOR_PASSWORD);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(890);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(refused.body.error).toMatchObject({
      code: "too-many-attempts",
      message: `too many sign-in attempts from this address; try again in ${retryAfter} s`,
    });
  });

  it("keeps counting an address after one of its sign-ins succeeds, where an e-mail's count starts again", async () => {
    const { h, signIn, email } = await limited(3);
    expect((await signIn("guess@pointwise.test", "wrong-password")).status).toBe(401);
    expect((await signIn(email, OPERATOR_PASSWORD)).status).toBe(200);
    expect((await signIn(email, OPERATOR_PASSWORD)).status).toBe(200);
    expect((await signIn(email, OPERATOR_PASSWORD)).status).toBe(429);
    const { rows } = await h.deps.db.query<{ key: string; attempts: number }>("SELECT key, attempts FROM sign_in_attempt ORDER BY key");
    // The address counted all four; the e-mail's count was forgotten at its success and its refused attempt was not counted.
    expect(rows).toEqual([
      { key: "email:guess@pointwise.test", attempts: 1 },
      { key: "ip:127.0.0.1", attempts: 4 },
    ]);
  });

  it("counts the socket's address, not X-Forwarded-For, unless ADMIN_TRUST_PROXY says a proxy is in front", async () => {
    const { signIn } = await limited(2);
    const statuses = [];
    for (const forwarded of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      statuses.push((await signIn("guess@pointwise.test", "wrong-password", { "x-forwarded-for": forwarded })).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it("counts the address the proxy appended (ADMIN_TRUST_PROXY=1), whatever the client writes before it in X-Forwarded-For", async () => {
    const { h, signIn } = await limited(2, { ADMIN_TRUST_PROXY: "1" });
    const from = (client: string, written = "") => ({ "x-forwarded-for": written === "" ? client : `${written}, ${client}` });
    const statuses = [];
    // Two guesses from 198.51.100.7, each from another e-mail; a third, with a forged entry in front, is still that address.
    statuses.push((await signIn("a@pointwise.test", "wrong-password", from("198.51.100.7"))).status);
    statuses.push((await signIn("b@pointwise.test", "wrong-password", from("198.51.100.7", "203.0.113.1"))).status);
    statuses.push((await signIn("c@pointwise.test", "wrong-password", from("198.51.100.7", "203.0.113.2"))).status);
    expect(statuses).toEqual([401, 401, 429]);
    // Another client behind the same proxy has its own count.
    expect((await signIn("d@pointwise.test", "wrong-password", from("198.51.100.8"))).status).toBe(401);
    const { rows } = await h.deps.db.query<{ key: string; attempts: number }>("SELECT key, attempts FROM sign_in_attempt WHERE key LIKE 'ip:%' ORDER BY key");
    expect(rows).toEqual([
      { key: "ip:198.51.100.7", attempts: 3 },
      { key: "ip:198.51.100.8", attempts: 1 },
    ]);
  });
});
