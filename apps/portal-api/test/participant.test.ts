// What a signed-in participant does for themselves: display name, referral codes, linking wallets (with merges and limits), own ledger.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { seedEventType } from "@pointwise/testkit";
import { type Harness, linkWallet, newWallet, participant, signIn, startPortal } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startPortal({ PORTAL_MAX_WALLETS: "3" });
});
afterAll(() => h.close());

describe("display name", () => {
  it("sets and clears the name; refuses a bad word of the default list or of the campaign", async () => {
    const p = await participant(h);
    const set = await h.call("PATCH", "/me", { display_name: "Moon Walker" }, p.auth);
    expect([set.status, set.body.display_name]).toEqual([200, "Moon Walker"]);
    // "gizmo" is the campaign's own word (harness); the default list is the read API's file.
    const campaignWord = await h.call("PATCH", "/me", { display_name: "xGIZMOx" }, p.auth);
    expect([campaignWord.status, campaignWord.body.error.code]).toEqual([400, "display-name-not-allowed"]);
    // Compared as the read API compares: a capital dotted I (lower case: i and a combining dot) and accents do not hide the word.
    for (const name of ["xGİZMOx", "Gízmo"])
      expect((await h.call("PATCH", "/me", { display_name: name }, p.auth)).body.error?.code).toBe("display-name-not-allowed");
    const defaultWord = h.deps.badWords[0] as string;
    expect((await h.call("PATCH", "/me", { display_name: `a${defaultWord}b` }, p.auth)).body.error.code).toBe("display-name-not-allowed");
    const invisible = await h.call("PATCH", "/me", { display_name: "a\u200Bb" }, p.auth);
    expect([invisible.status, invisible.body.error.code]).toEqual([400, "validation-failed"]);
    const cleared = await h.call("PATCH", "/me", { display_name: null }, p.auth);
    expect(cleared.body.display_name).toBeNull();
    const { rows } = await h.deps.db.query<{ display_name: string | null }>("SELECT display_name FROM app_user WHERE id = $1", [p.userId]);
    expect(rows[0]?.display_name).toBeNull();
  });

  it("refuses a name the boards would hide for revealing an identity: an e-mail, a wallet address, a provider id, or the user's own address spaced out", async () => {
    const p = await participant(h);
    const own = p.wallet.address.toLowerCase().slice(2);
    const spacedOwn = own.match(/.{1,10}/g)?.join(" ") as string;
    for (const name of ["eve@example.com", "0x52908400098527886E0F7030069857D2E4169EE7", "123456789012345678", `me ${spacedOwn}`]) {
      const refused = await h.call("PATCH", "/me", { display_name: name }, p.auth);
      expect([name, refused.status, refused.body.error]).toEqual([
        name,
        400,
        {
          code: "display-name-not-allowed",
          message: "display_name looks like an e-mail address, a wallet address or an account id, which boards never show",
        },
      ]);
    }
    // Names with a few digits or an 0x of their own are names.
    for (const name of ["Team 42", "0xSam", "Agent 007"]) {
      const set = await h.call("PATCH", "/me", { display_name: name }, p.auth);
      expect([set.status, set.body.display_name]).toEqual([200, name]);
    }
  });
});

describe("referral codes", () => {
  it("gives every user one stable code; a new user sets the referrer with it once", async () => {
    const referrer = await participant(h);
    const code = (await h.call("GET", "/me", undefined, referrer.auth)).body.referral_code as string;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect((await h.call("GET", "/me", undefined, referrer.auth)).body.referral_code).toBe(code);
    const signedIn = await participant(h, newWallet(), { referral_code: code.toLowerCase() });
    expect(signedIn.body.referral).toEqual({ referrer_id: referrer.userId, error: null });
    const { rows } = await h.deps.db.query<{ referrer_id: string }>("SELECT referrer_id FROM app_user WHERE id = $1", [signedIn.userId]);
    expect(rows[0]?.referrer_id).toBe(referrer.userId);
    const other = (await h.call("GET", "/me", undefined, (await participant(h)).auth)).body.referral_code;
    const change = await h.call("POST", "/me/referrer", { referral_code: other }, signedIn.auth);
    expect([change.status, change.body.error.code]).toEqual([409, "referrer-already-set"]);
  });

  it("refuses the user's own code, a cycle, an unknown code, and a user who already has an event", async () => {
    const a = await participant(h);
    const b = await participant(h);
    const codeOf = async (p: { auth: Record<string, string> }) => (await h.call("GET", "/me", undefined, p.auth)).body.referral_code as string;
    const self = await h.call("POST", "/me/referrer", { referral_code: await codeOf(a) }, a.auth);
    expect([self.status, self.body.error.code]).toEqual([400, "self-referral"]);
    expect((await h.call("POST", "/me/referrer", { referral_code: await codeOf(b) }, a.auth)).status).toBe(200);
    const cycle = await h.call("POST", "/me/referrer", { referral_code: await codeOf(a) }, b.auth);
    expect([cycle.status, cycle.body.error.code]).toEqual([400, "referral-cycle"]);
    const unknown = await h.call("POST", "/me/referrer", { referral_code: "ZZZZZZZZ" }, b.auth);
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "invalid-referral-code"]);
    // A user with an event in the log: their points so far were computed without a referrer.
    const c = await participant(h);
    const typeId = await seedEventType(h.deps.db, h.campaignId);
    await h.deps.db.query(
      `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, occurred_at, received_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'EVM_ADDRESS', $4, 1, 'api', now(), now())`,
      [h.campaignId, typeId, c.userId, c.wallet.address.toLowerCase()],
    );
    const late = await h.call("POST", "/me/referrer", { referral_code: await codeOf(a) }, c.auth);
    expect([late.status, late.body.error.code]).toEqual([409, "referral-too-late"]);
  });

  it("reports a refused code beside the tokens of a sign-in that succeeded", async () => {
    const res = await h.call("POST", "/auth/wallet", { ...(await signIn(h, newWallet())), referral_code: "ZZZZZZZZ" });
    expect(res.status).toBe(200);
    expect(res.body.referral).toEqual({
      referrer_id: null,
      error: { code: "invalid-referral-code", message: "no user of this campaign has this referral code" },
    });
  });
});

describe("linking wallets", () => {
  it("links a second wallet by its signature; signing in with either is the same user", async () => {
    const p = await participant(h);
    const second = newWallet();
    const linked = await linkWallet(h, p.auth, second);
    expect([linked.status, linked.body.merged]).toEqual([200, false]);
    expect(linked.body.identities.map((i: { account_id: string }) => i.account_id)).toEqual([p.wallet.address.toLowerCase(), second.address.toLowerCase()]);
    expect((await participant(h, second)).userId).toBe(p.userId);
  });

  it("takes over a wallet another user holds (proven by signature): the identity moves and the other user keeps the rest", async () => {
    const p = await participant(h);
    const other = await participant(h);
    const moved = await linkWallet(h, p.auth, other.wallet);
    expect([moved.status, moved.body.merged]).toEqual([200, true]);
    const { rows } = await h.deps.db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [
      h.campaignId,
      other.wallet.address.toLowerCase(),
    ]);
    expect(rows[0]?.user_id).toBe(p.userId);
  });

  it("refuses a wallet beyond PORTAL_MAX_WALLETS with identity-limit-reached, and a replayed link message with nonce-used", async () => {
    const p = await participant(h);
    expect((await linkWallet(h, p.auth, newWallet())).status).toBe(200);
    expect((await linkWallet(h, p.auth, newWallet())).status).toBe(200);
    const fourth = await linkWallet(h, p.auth, newWallet());
    expect([fourth.status, fourth.body.error.code]).toEqual([409, "identity-limit-reached"]);
    const q = await participant(h);
    const body = await signIn(h, newWallet());
    expect((await h.call("POST", "/me/wallets", { message: body.message, signature: body.signature }, q.auth)).status).toBe(200);
    const replay = await h.call("POST", "/me/wallets", { message: body.message, signature: body.signature }, q.auth);
    expect(replay.body.error.code).toBe("nonce-used");
  });
});

describe("unlinking", () => {
  it("detaches a linked wallet into a user of its own, refuses the last identity and another user's identity", async () => {
    const p = await participant(h);
    const second = newWallet();
    await linkWallet(h, p.auth, second);
    const [first, linked] = (await h.call("GET", "/me", undefined, p.auth)).body.identities as { id: string; account_id: string }[];
    const unlinked = await h.call("DELETE", `/me/identities/${linked?.id}`, undefined, p.auth);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.identities.map((i: { id: string }) => i.id)).toEqual([first?.id]);
    // Signing in with the unlinked wallet now reaches the user it was detached into.
    const detached = (await participant(h, second)).userId;
    expect(detached).not.toBe(p.userId);
    const last = await h.call("DELETE", `/me/identities/${first?.id}`, undefined, p.auth);
    expect([last.status, last.body.error.code]).toEqual([409, "last-identity"]);
    const other = await participant(h);
    const foreign = await h.call("DELETE", `/me/identities/${first?.id}`, undefined, other.auth);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "identity-not-found"]);
    const malformed = await h.call("DELETE", "/me/identities/%E0%A4%A", undefined, other.auth);
    expect([malformed.status, malformed.body.error]).toEqual([
      400,
      { code: "validation-failed", message: 'path segment "%E0%A4%A" is not valid percent-encoding' },
    ]);
  });
});

describe("another participant", () => {
  it("cannot read or change a user through their own token: every route acts on the token's user only", async () => {
    const a = await participant(h);
    const b = await participant(h);
    await h.call("PATCH", "/me", { display_name: "Bee" }, b.auth);
    const seen = await h.call("GET", "/me", undefined, a.auth);
    expect(seen.body.user_id).toBe(a.userId);
    expect(seen.body.display_name).toBeNull();
    const { rows } = await h.deps.db.query<{ display_name: string }>("SELECT display_name FROM app_user WHERE id = $1", [b.userId]);
    expect(rows[0]?.display_name).toBe("Bee");
  });
});
