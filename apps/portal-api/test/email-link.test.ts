// Linking an e-mail address to a signed-in user: a one-time code to the address, kept apart from sign-in codes, the takeover rule, no existence oracle.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { bearer, type Harness, linkWallet, newWallet, participant, startPortal } from "./harness";
import { logEventOf, ownerOf, seedRedemption } from "./spent";

let h: Harness;
beforeAll(async () => {
  h = await startPortal({ PORTAL_EMAIL_CODE_ATTEMPTS: "3" });
});
afterAll(() => h.close());

async function emailUser(email: string) {
  await h.call("POST", "/auth/email/start", { campaign_id: h.campaignId, email });
  const body = (await h.call("POST", "/auth/email/verify", { campaign_id: h.campaignId, email, code: lastCode() })).body;
  return { userId: body.user_id as string, auth: bearer(body.access_token) };
}

const lastMail = () => h.mails[h.mails.length - 1];
const lastCode = () => lastMail()?.code as string;
const startLink = (auth: Record<string, string>, email: string) => h.call("POST", "/me/email/start", { email }, auth);
const verifyLink = (auth: Record<string, string>, email: string, code: string) => h.call("POST", "/me/email/verify", { email, code }, auth);
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("linking an e-mail address", () => {
  it("sends a link code to the address and links it as the user's EMAIL identity; an e-mail sign-in then reaches the same user", async () => {
    const p = await participant(h);
    const sent = await startLink(p.auth, "Grace@Example.org");
    expect([sent.status, sent.body]).toEqual([202, { status: "sent", expires_in: 600 }]);
    expect(lastMail()).toEqual(expect.objectContaining({ to: "grace@example.org", purpose: "link" }));
    const linked = await verifyLink(p.auth, "grace@example.org", lastCode());
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual(expect.objectContaining({ merged: false, recompute_job_id: null, user_id: p.userId }));
    expect(linked.body.identities).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: linked.body.identity_id, identity_type: "EMAIL", account_id: "grace@example.org" })]),
    );
    expect((await emailUser("grace@example.org")).userId).toBe(p.userId);
  });

  it("answers start alike for an address nobody has, another user's and the user's own", async () => {
    await emailUser("taken@example.org");
    const p = await participant(h);
    const answers = [];
    for (const email of ["free@example.org", "taken@example.org"]) answers.push(await startLink(p.auth, email));
    const own = await emailUser("own@example.org");
    answers.push(await startLink(own.auth, "own@example.org"));
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(3).fill([202, { status: "sent", expires_in: 600 }]));
  });

  it("keeps link and sign-in codes apart: neither works for the other, and asking for one leaves the other pending", async () => {
    const p = await participant(h);
    await h.call("POST", "/auth/email/start", { campaign_id: h.campaignId, email: "apart@example.org" });
    const signInCode = lastCode();
    await startLink(p.auth, "apart@example.org");
    const linkCode = lastCode();
    const signInWithLink = await h.call("POST", "/auth/email/verify", { campaign_id: h.campaignId, email: "apart@example.org", code: linkCode });
    expect([signInWithLink.status, signInWithLink.body.error.code]).toEqual(signInCode === linkCode ? [200, undefined] : [401, "invalid-code"]);
    if (signInCode !== linkCode) {
      const linkWithSignIn = await verifyLink(p.auth, "apart@example.org", signInCode);
      expect([linkWithSignIn.status, linkWithSignIn.body.error.code]).toEqual([401, "invalid-code"]);
      const signedIn = await h.call("POST", "/auth/email/verify", { campaign_id: h.campaignId, email: "apart@example.org", code: signInCode });
      expect(signedIn.status).toBe(200);
    }
  });

  it("binds a link code to the user who asked: another signed-in user entering it gets invalid-code", async () => {
    const asker = await participant(h);
    const other = await participant(h);
    await startLink(asker.auth, "bound@example.org");
    const code = lastCode();
    const stolen = await verifyLink(other.auth, "bound@example.org", code);
    expect([stolen.status, stolen.body.error]).toEqual([401, { code: "invalid-code", message: "the code is wrong or no longer valid; request a new one" }]);
    expect((await verifyLink(asker.auth, "bound@example.org", code)).status).toBe(200);
  });

  it("moves an address another user holds to the user who proves it, the holder keeping the rest (the takeover rule)", async () => {
    const holder = await emailUser("moving@example.org");
    const second = await linkWallet(h, holder.auth, newWallet());
    expect(second.status).toBe(200);
    const taker = await participant(h);
    await startLink(taker.auth, "moving@example.org");
    const moved = await verifyLink(taker.auth, "moving@example.org", lastCode());
    expect(moved.body.merged).toBe(true);
    // The seeded campaign has no active rule version, so there are no scores to recompute yet.
    expect(moved.body.recompute_job_id).toBeNull();
    const { rows } = await h.deps.db.query<{ user_id: string }>(
      "SELECT user_id FROM identity WHERE campaign_id = $1 AND identity_type = 'EMAIL' AND account_id = 'moving@example.org'",
      [h.campaignId],
    );
    expect(rows[0]?.user_id).toBe(taker.userId);
    // The holder keeps the wallet, and only that.
    const left = await h.call("GET", "/me", undefined, holder.auth);
    expect(left.body.identities.map((i: { identity_type: string }) => i.identity_type)).toEqual(["EVM_ADDRESS"]);
  });

  it("keeps an address whose points its holder spent with the holder: proving it is 409 identity-points-spent", async () => {
    const holder = await emailUser("spent@example.org");
    await logEventOf(h, "EMAIL", "spent@example.org");
    await seedRedemption(h, holder.userId);
    const taker = await participant(h);
    await startLink(taker.auth, "spent@example.org");
    const refused = await verifyLink(taker.auth, "spent@example.org", lastCode());
    expect([refused.status, refused.body.error.code]).toEqual([409, "identity-points-spent"]);
    expect(await ownerOf(h, "EMAIL", "spent@example.org")).toBe(holder.userId);
  });

  it("refuses a second address with identity-limit-reached (PORTAL_MAX_ACCOUNTS_PER_PROVIDER) once the code is proven", async () => {
    const p = await emailUser("first@example.org");
    await startLink(p.auth, "second@example.org");
    const refused = await verifyLink(p.auth, "second@example.org", lastCode());
    expect([refused.status, refused.body.error.code]).toEqual([409, "identity-limit-reached"]);
  });

  it("voids a link code after PORTAL_EMAIL_CODE_ATTEMPTS wrong entries, and refuses a code never sent", async () => {
    const p = await participant(h);
    await startLink(p.auth, "guessed@example.org");
    const code = lastCode();
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await verifyLink(p.auth, "guessed@example.org", wrong(code))).body.error.code);
    codes.push((await verifyLink(p.auth, "guessed@example.org", code)).body.error.code);
    codes.push((await verifyLink(p.auth, "never@example.org", "123456")).body.error.code);
    expect(codes).toEqual(Array(5).fill("invalid-code"));
  });

  it("refuses a malformed address, a malformed code, an unknown field and a missing token, each with its code", async () => {
    const p = await participant(h);
    const bad = await startLink(p.auth, "not-an-email");
    expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([400, "invalid-email", expect.stringMatching(/^email: /)]);
    const code = await verifyLink(p.auth, "a@example.org", "12ab56");
    expect([code.status, code.body.error.code, code.body.error.message]).toEqual([400, "validation-failed", "code: must be the 6 digits that were sent"]);
    const extra = await h.call("POST", "/me/email/start", { email: "a@example.org", user_id: p.userId }, p.auth);
    expect([extra.status, extra.body.error.code]).toEqual([400, "validation-failed"]);
    const anonymous = await h.call("POST", "/me/email/start", { email: "a@example.org" });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, "missing-credentials"]);
  });
});
