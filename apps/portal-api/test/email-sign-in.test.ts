// Signing in with an e-mail code: the same answer for every address, codes used once, wrong entries counted, limits per IP and address.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { bearer, type Harness, startPortal } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startPortal({ PORTAL_EMAIL_CODE_ATTEMPTS: "3", PORTAL_ATTEMPTS_PER_IDENTITY: "6", PORTAL_ATTEMPTS_PER_IP: "40" });
});
afterAll(() => h.close());

const start = (email: string) => h.call("POST", "/auth/email/start", { campaign_id: h.campaignId, email });
const verify = (email: string, code: string, extra: object = {}) => h.call("POST", "/auth/email/verify", { campaign_id: h.campaignId, email, code, ...extra });
const lastCode = () => h.mails[h.mails.length - 1]?.code as string;
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("e-mail sign-in", () => {
  it("sends a 6-digit code and signs in with it once; the address (any case) is one user", async () => {
    const sent = await start("Ada@Example.org");
    expect([sent.status, sent.body]).toEqual([202, { status: "sent", expires_in: 600 }]);
    expect(h.mails[h.mails.length - 1]?.to).toBe("ada@example.org");
    const code = lastCode();
    expect(code).toMatch(/^[0-9]{6}$/);
    const signedIn = await verify("ada@example.org", code);
    expect(signedIn.status).toBe(200);
    const again = await verify("ada@example.org", code);
    expect([again.status, again.body.error.code]).toEqual([401, "invalid-code"]);
    await start("ADA@example.org");
    const second = await verify("Ada@example.org", lastCode());
    expect(second.body.user_id).toBe(signedIn.body.user_id);
    const me = await h.call("GET", "/me", undefined, bearer(second.body.access_token));
    expect(me.body.identities).toEqual([expect.objectContaining({ identity_type: "EMAIL", account_id: "ada@example.org" })]);
  });

  it("answers start the same for a known and an unknown address", async () => {
    await start("known@example.org");
    await verify("known@example.org", lastCode());
    const known = await start("known@example.org");
    const unknown = await start("nobody-yet@example.org");
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
  });

  it("voids a code after PORTAL_EMAIL_CODE_ATTEMPTS wrong entries, with one message for every refusal", async () => {
    await start("guess@example.org");
    const code = lastCode();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await verify("guess@example.org", wrong(code))).body.error);
    const right = await verify("guess@example.org", code);
    const never = await verify("never-sent@example.org", "123456");
    expect(new Set([...answers, right.body.error, never.body.error].map((e) => JSON.stringify(e)))).toEqual(
      new Set([JSON.stringify({ code: "invalid-code", message: "the code is wrong or no longer valid; request a new one" })]),
    );
  });

  it("refuses an expired code", async () => {
    await start("late@example.org");
    await h.deps.db.query("UPDATE portal_email_code SET expires_at = now() - interval '1 second' WHERE email = 'late@example.org'");
    expect((await verify("late@example.org", lastCode())).body.error.code).toBe("invalid-code");
  });

  it("limits attempts per address with 429 too-many-attempts and Retry-After", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof verify>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await verify("limited@example.org", "000000");
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect(last?.body.error.code).toBe("too-many-attempts");
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses a malformed address with invalid-email and a malformed code with validation-failed, naming the field", async () => {
    const bad = await start("not-an-email");
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid-email"]);
    expect(bad.body.error.message).toMatch(/^email: /);
    const code = await verify("a@example.org", "12345");
    expect([code.status, code.body.error.code, code.body.error.message]).toEqual([400, "validation-failed", "code: must be the 6 digits that were sent"]);
  });
});

describe("limits per IP", () => {
  it("stops one address from trying more than PORTAL_ATTEMPTS_PER_IP codes across many e-mails", async () => {
    const other = await startPortal({ PORTAL_ATTEMPTS_PER_IP: "3" });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await other.call("POST", "/auth/email/verify", { campaign_id: other.campaignId, email: `p${i}@example.org`, code: "000000" })).status);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await other.close();
    }
  });
});
