// admin-api users: lookup by identity, linking identities, display names, referrers and the ledger.
import { randomUUID } from "node:crypto";
import { backendPid, seedRedemption, waitUntilBlockedBy } from "@pointwise/testkit";
import { type Json, perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

const suite = sharedProject();

const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** 0x and 40 zeros: the mint and burn address, which nobody holds. */
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** A campaign with active rules (2 xp per unit) and one event per given wallet and amount. */
async function scoredCampaign(amounts: string[]) {
  const { campaignId, regEventId } = await setUpCampaign(suite.op);
  const users = await logEvents(
    suite.h.deps.db,
    campaignId,
    amounts.map((amount, i) => ({ identityType: "EVM_ADDRESS", accountId: wallet(i + 1), amount, regEventId })),
  );
  await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
  await activateAsWorker(suite.h.deps.db, campaignId, 1);
  return { campaignId, regEventId, users };
}

describe("finding users", () => {
  it("finds a user by any identity, normalising the account id the way ingest does", async () => {
    const { campaignId, users } = await scoredCampaign(["10"]);
    const upper = `0x${"A".repeat(38)}01`;
    await suite.h.deps.db.query("INSERT INTO identity(campaign_id, user_id, identity_type, account_id) VALUES ($1, $2, 'EMAIL', 'jane@example.com')", [
      campaignId,
      users[0],
    ]);
    const byWallet = await suite.op.call(
      "GET",
      `/api/campaigns/${campaignId}/users?identity_type=EVM_ADDRESS&account_id=${wallet(1).toUpperCase().replace("0X", "0x")}`,
    );
    expect(byWallet.status).toBe(200);
    expect(byWallet.body).toMatchObject({
      id: users[0],
      display_name: null,
      referrer_id: null,
      scores: [{ currency: "xp", score: String(10 * 2), total: "20", lifetime: "20" }],
    });
    expect(byWallet.body.identities.map((i: Json) => i.identity_type)).toEqual(["EVM_ADDRESS", "EMAIL"]);
    const byEmail = await suite.op.call("GET", `/api/campaigns/${campaignId}/users?identity_type=EMAIL&account_id=${encodeURIComponent("Jane@EXAMPLE.com")}`);
    expect(byEmail.body.id).toBe(users[0]);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${users[0]}`)).body).toEqual(byWallet.body);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users?identity_type=EVM_ADDRESS&account_id=${upper}`)).body.error.code).toBe(
      "user-not-found",
    );
  });

  it("finds a user whose identity is the EVM zero address, which earned points before ingest refused it", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [zeroUser] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: ZERO_ADDRESS, amount: "4", regEventId }]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const found = await suite.op.call("GET", `/api/campaigns/${campaignId}/users?identity_type=EVM_ADDRESS&account_id=${ZERO_ADDRESS}`);
    expect(found.status).toBe(200);
    // 4 units x 2 xp.
    expect(found.body).toMatchObject({ id: zeroUser, excluded: false, scores: [{ currency: "xp", total: "8" }] });
    expect(found.body.identities.map((i: Json) => [i.identity_type, i.account_id])).toEqual([["EVM_ADDRESS", ZERO_ADDRESS]]);
  });

  it.each([
    ["identity_type=PHONE&account_id=1", "identity_type: must be one of EVM_ADDRESS"],
    ["identity_type=EVM_ADDRESS&account_id=0x123", "account_id is not a valid EVM_ADDRESS"],
    ["identity_type=X_PROVIDER_ID&account_id=012", "account_id is not a valid X_PROVIDER_ID"],
    ["identity_type=EMAIL", "account_id"],
    ["identity_type=EMAIL&account_id=a@b.co&extra=1", "extra"],
  ])("refuses ?%s naming the field", async (query, message) => {
    const { campaignId } = await setUpCampaign(suite.op);
    const res = await suite.op.call("GET", `/api/campaigns/${campaignId}/users?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });
});

describe("linking and unlinking identities", () => {
  it("links a new X identity with its username, and refuses a username for other identity types", async () => {
    const { campaignId, users } = await scoredCampaign(["1"]);
    const linked = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, {
      identity_type: "X_PROVIDER_ID",
      account_id: "1234567890",
      handle: "@pointwise_fan",
    });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({
      identity: { identity_type: "X_PROVIDER_ID", account_id: "1234567890", handle: "pointwise_fan" },
      moved_from_user_id: null,
      recompute_job: null,
    });
    const again = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, {
      identity_type: "X_PROVIDER_ID",
      account_id: "1234567890",
      handle: "renamed",
    });
    expect(again.status).toBe(200);
    expect(again.body.identity).toMatchObject({ id: linked.body.identity.id, handle: "renamed" });
    const handleOnEmail = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, {
      identity_type: "EMAIL",
      account_id: "a@b.co",
      handle: "x",
    });
    expect(handleOnEmail.body.error.message).toBe("handle: can only be set for an X_PROVIDER_ID identity");
    const badHandle = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, {
      identity_type: "X_PROVIDER_ID",
      account_id: "5",
      handle: "not a handle!",
    });
    expect(badHandle.body.error.message).toBe("handle: must be an X username: 1-15 letters, digits or _");

    const patched = await suite.op.call("PATCH", `/api/campaigns/${campaignId}/users/${users[0]}/identities/${linked.body.identity.id}`, { handle: null });
    expect(patched.body.handle).toBeNull();
    const wallet1 = (await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${users[0]}`)).body.identities[0];
    expect((await suite.op.call("PATCH", `/api/campaigns/${campaignId}/users/${users[0]}/identities/${wallet1.id}`, { handle: "x" })).body.error.message).toBe(
      "handle can only be set for an X_PROVIDER_ID identity",
    );
  });

  it("refuses to link the EVM zero address with invalid-account-id: nobody holds it, so it is no identity of a user", async () => {
    const { campaignId, users } = await scoredCampaign(["1"]);
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: ZERO_ADDRESS,
    });
    expect([res.status, res.body.error]).toEqual([
      400,
      { code: "invalid-account-id", message: "account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds" },
    ]);
    const { rows } = await suite.h.deps.db.query("SELECT 1 FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, ZERO_ADDRESS]);
    expect(rows).toEqual([]);
  });

  it("answers identity-held, not a 500, when the scoring worker makes the identity while the link is inserting it", async () => {
    const { campaignId, users } = await scoredCampaign(["10"]);
    const newcomer = randomUUID();
    let reply: ReturnType<typeof suite.op.call> | undefined;
    await suite.h.deps.db.transaction(async (tx) => {
      const holder = await backendPid(tx);
      // An unseen identity as the scoring worker makes it in its apply transaction, which takes no users lock: the
      // link's look-up finds nothing and its insert waits on this one until it commits.
      await tx.query("INSERT INTO app_user(id, campaign_id) VALUES ($1, $2)", [newcomer, campaignId]);
      await tx.query("INSERT INTO identity(campaign_id, identity_type, account_id, user_id) VALUES ($1, 'EVM_ADDRESS', $2, $3)", [
        campaignId,
        wallet(77),
        newcomer,
      ]);
      reply = suite.op.call("POST", `/api/campaigns/${campaignId}/users/${users[0]}/identities`, { identity_type: "EVM_ADDRESS", account_id: wallet(77) });
      await waitUntilBlockedBy(suite.h.deps.db, holder, "the link's insert waiting on the identity made meanwhile");
    });
    const answered = await (reply as ReturnType<typeof suite.op.call>);
    expect([answered.status, answered.body.error]).toEqual([
      409,
      {
        code: "identity-held",
        message: `the EVM_ADDRESS ${wallet(77)} belongs to user ${newcomer}; send "move": true to move it, with its events and their points, to this user`,
      },
    ]);
  });

  it("moves an identity that belongs to another user and queues one identity-link recompute for any number of moves", async () => {
    const { campaignId, regEventId, users } = await scoredCampaign(["10", "20", "30"]);
    const [a, b, c] = users as [string, string, string];
    const asked = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, { identity_type: "EVM_ADDRESS", account_id: wallet(2) });
    expect([asked.status, asked.body.error]).toEqual([
      409,
      {
        code: "identity-held",
        message: `the EVM_ADDRESS ${wallet(2)} belongs to user ${b}; send "move": true to move it, with its events and their points, to this user`,
      },
    ]);
    const notMoved = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(2),
      move: false,
    });
    expect(notMoved.body.error.code).toBe("identity-held");
    const audited = await suite.h.deps.db.query("SELECT 1 FROM audit_event WHERE campaign_id = $1 AND action = 'identity.move'", [campaignId]);
    expect(audited.rows).toEqual([]);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${b}`)).body.identities.map((i: Json) => i.account_id)).toEqual([wallet(2)]);
    const badMove = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(2),
      move: "yes",
    });
    expect([badMove.status, badMove.body.error.message]).toEqual([400, "move: must be true or false"]);

    // Agreed to move it from another user than the one holding it now: asked again.
    const otherHolder = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(2),
      move: true,
      move_from_user_id: c,
    });
    expect([otherHolder.status, otherHolder.body.error.code]).toEqual([409, "identity-held"]);
    const moved = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(2),
      move: true,
      move_from_user_id: b.toUpperCase(),
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ moved_from_user_id: b, recompute_job: { reason: "identity-link", status: "queued", rule_version: 1, events_total: 3 } });
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}`)).body.identities.map((i: Json) => i.account_id)).toEqual([
      wallet(1),
      wallet(2),
    ]);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${b}`)).body.identities).toEqual([]);

    const second = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(3),
      move: true,
    });
    expect(second.body.recompute_job.id).toBe(moved.body.recompute_job.id);
    const { rows } = await suite.h.deps.db.query("SELECT reason, status FROM recompute_job WHERE campaign_id = $1", [campaignId]);
    expect(rows).toEqual([{ reason: "identity-link", status: "queued" }]);

    // A dry run replays the log with each event attributed to its identity's current owner: all three
    // wallets now belong to a, and b and c are on neither board.
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "3") });
    const diff = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/2/dry-run`, {});
    expect(diff.body).toMatchObject({ users_before: 1, users_after: 1, unchanged: 0 });
    expect(diff.body.moves).toEqual([
      expect.objectContaining({
        user_id: a,
        rank_before: 1,
        rank_after: 1,
        points_before: String((10 + 20 + 30) * 2),
        points_after: String((10 + 20 + 30) * 3),
      }),
    ]);
    expect(diff.body.moves.map((m: { user_id: string }) => m.user_id)).not.toContain(c);
  });

  it("unlinks an identity into a user of its own, and refuses to unlink a user's only identity", async () => {
    const { campaignId, users } = await scoredCampaign(["5"]);
    const [a] = users as [string];
    const only = (await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}`)).body.identities[0];
    expect((await suite.op.call("DELETE", `/api/campaigns/${campaignId}/users/${a}/identities/${only.id}`)).body.error.code).toBe("last-identity");
    const email = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, { identity_type: "EMAIL", account_id: "Me@Example.com" });
    expect(email.body.identity.account_id).toBe("me@example.com");
    const unlinked = await suite.op.call("DELETE", `/api/campaigns/${campaignId}/users/${a}/identities/${email.body.identity.id}`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.user.identities.map((i: Json) => i.id)).toEqual([only.id]);
    expect(unlinked.body.recompute_job).toMatchObject({ reason: "identity-link" });
    const detached = await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${unlinked.body.detached_user_id}`);
    expect(detached.body.identities.map((i: Json) => i.account_id)).toEqual(["me@example.com"]);
  });

  it("refuses to move or unlink an identity whose points its holder spent (identity-points-spent) until the redemptions are rejected", async () => {
    const { campaignId, users } = await scoredCampaign(["10", "20"]);
    const [a, b] = users as [string, string];
    // b spends 40 of its 40 xp on a manual reward: a pending redemption, as portal-api leaves it.
    const reward = await suite.op.call("POST", `/api/campaigns/${campaignId}/rewards`, { name: "Hoodie", kind: "manual", currency: "xp", price: "40" });
    await suite.h.deps.db.query("UPDATE score SET spent = 40 WHERE campaign_id = $1 AND user_id = $2", [campaignId, b]);
    const spentId = await seedRedemption(suite.h.deps.db, campaignId, b, reward.body.id, { price: "40" });
    const email = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${b}/identities`, { identity_type: "EMAIL", account_id: "b@example.com" });
    expect(email.status).toBe(201);
    const held = (await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${b}`)).body.identities[0];
    const refusal = {
      code: "identity-points-spent",
      message:
        "this identity's points were spent by the user who holds it (1 redemption not rejected); it cannot move to another user; rejecting those redemptions first (only pending ones can be) refunds their points and allows the move",
    };
    const move = { identity_type: "EVM_ADDRESS", account_id: wallet(2), move: true };
    const moved = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, move);
    expect([moved.status, moved.body.error]).toEqual([409, refusal]);
    const unlinked = await suite.op.call("DELETE", `/api/campaigns/${campaignId}/users/${b}/identities/${held.id}`);
    expect([unlinked.status, unlinked.body.error]).toEqual([409, refusal]);
    // Nothing changed: the wallet is still b's, nothing audited, no recompute queued.
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${b}`)).body.identities.map((i: Json) => i.account_id)).toEqual([
      wallet(2),
      "b@example.com",
    ]);
    const trail = await suite.h.deps.db.query("SELECT action FROM audit_event WHERE campaign_id = $1 AND action IN ('identity.move', 'identity.unlink')", [
      campaignId,
    ]);
    expect(trail.rows).toEqual([]);
    expect((await suite.h.deps.db.query("SELECT 1 FROM recompute_job WHERE campaign_id = $1", [campaignId])).rows).toEqual([]);

    // The e-mail address sent no event: it moves although b has spent.
    const quiet = await suite.op.call("DELETE", `/api/campaigns/${campaignId}/users/${b}/identities/${email.body.identity.id}`);
    expect(quiet.status).toBe(200);
    const owner = await suite.op.call("GET", `/api/campaigns/${campaignId}/users?identity_type=EMAIL&account_id=b%40example.com`);
    expect([owner.status, owner.body.id === b]).toEqual([200, false]);
    const left = (await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${b}`)).body.identities as { account_id: string }[];
    expect(left.map((i) => i.account_id)).not.toContain("b@example.com");
    // Once the redemption is rejected (its 40 xp given back), the wallet moves.
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/redemptions/${spentId}/reject`, { note: "out of hoodies" })).status).toBe(200);
    const after = await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${a}/identities`, move);
    expect([after.status, after.body.moved_from_user_id]).toEqual([200, b]);
  });

  it("answers 404 for a user or identity that is not in the campaign", async () => {
    const { campaignId, users } = await scoredCampaign(["5"]);
    const other = await scoredCampaign(["5"]);
    const otherIdentity = (await suite.op.call("GET", `/api/campaigns/${other.campaignId}/users/${other.users[0]}`)).body.identities[0];
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${other.users[0]}`)).body.error.code).toBe("user-not-found");
    expect(
      (await suite.op.call("POST", `/api/campaigns/${campaignId}/users/${other.users[0]}/identities`, { identity_type: "EMAIL", account_id: "a@b.co" })).status,
    ).toBe(404);
    expect((await suite.op.call("DELETE", `/api/campaigns/${campaignId}/users/${users[0]}/identities/${otherIdentity.id}`)).body.error.code).toBe(
      "identity-not-found",
    );
  });
});

describe("display names and referrers", () => {
  it("sets and clears a display name, refusing empty and control-character names", async () => {
    const { campaignId, users } = await scoredCampaign(["1"]);
    const url = `/api/campaigns/${campaignId}/users/${users[0]}`;
    expect((await suite.op.call("PATCH", url, { display_name: "  Captain Points  " })).body.display_name).toBe("Captain Points");
    expect((await suite.op.call("PATCH", url, { display_name: "" })).body.error.message).toBe("display_name: must not be empty (use null to clear it)");
    expect((await suite.op.call("PATCH", url, { display_name: "a\u0007b" })).body.error.message).toBe("display_name: must not contain control characters");
    expect((await suite.op.call("PATCH", url, { display_name: "x".repeat(65) })).status).toBe(400);
    expect((await suite.op.call("PATCH", url, { display_name: null })).body.display_name).toBeNull();
    expect((await suite.op.call("PATCH", url, {})).body.error.message).toBe("must change display_name or referrer_id");
  });

  it("refuses names with bidi controls, zero-width or separator characters and stacks of combining marks, keeping the stored name", async () => {
    const { campaignId, users } = await scoredCampaign(["1"]);
    const url = `/api/campaigns/${campaignId}/users/${users[0]}`;
    await suite.op.call("PATCH", url, { display_name: "Kept Name" });
    const cases: [string, string][] = [
      ["evil\u202Egnp.exe", "must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)"],
      ["a\u2067b", "must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)"],
      ["a\u200Db", "must not contain zero-width characters (U+200B-U+200D, U+2060, U+FEFF)"],
      ["a\uFEFFb", "must not contain zero-width characters (U+200B-U+200D, U+2060, U+FEFF)"],
      ["a\u2029b", "must not contain line or paragraph separators (U+2028, U+2029)"],
      ["a\u00ADb", "must not contain invisible format characters"],
      [`Zalgx${"\u0336".repeat(30)}`, "must not contain more than 2 combining marks in a row"],
    ];
    for (const [name, rule] of cases) {
      const res = await suite.op.call("PATCH", url, { display_name: name });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: "validation-failed", message: `display_name: ${rule}` });
    }
    const { rows } = await suite.h.deps.db.query("SELECT display_name FROM app_user WHERE id = $1", [users[0]]);
    expect(rows).toEqual([{ display_name: "Kept Name" }]);
    expect((await suite.op.call("PATCH", url, { display_name: "Nguye\u0302\u0303n" })).status).toBe(200);
  });

  it("refuses a name every board hides (a bad word, an identity) with display-name-not-allowed, keeping the stored name; a clean name is saved", async () => {
    const { campaignId, users } = await scoredCampaign(["1"]);
    const url = `/api/campaigns/${campaignId}/users/${users[0]}`;
    expect((await suite.op.call("PUT", `/api/campaigns/${campaignId}/bad-words`, { bad_words: ["gizmo"] })).status).toBe(200);
    // An X id of 8 digits is no identity by its shape (a provider id needs 12 digits); it is this user's own.
    await suite.h.deps.db.query("INSERT INTO identity(campaign_id, user_id, identity_type, account_id) VALUES ($1, $2, 'X_PROVIDER_ID', '80351110')", [
      campaignId,
      users[0],
    ]);
    expect((await suite.op.call("PATCH", url, { display_name: "Kept Name" })).body.display_name).toBe("Kept Name");
    const badWord = "display_name contains a word this campaign does not allow on its boards";
    const identity = "display_name looks like an e-mail address, a wallet address or an account id, which boards never show";
    const cases: [string, string][] = [
      // "official" is on the default list (apps/read-api/data/bad-words.txt), "gizmo" on the campaign's.
      ["The Official One", badWord],
      ["OFFİCİAL", badWord],
      ["xGIZMOx", badWord],
      ["jane@example.com", identity],
      ["0x52908400098527886E0F7030069857D2E4169EE7", identity],
      ["fan 8035 1110", identity],
    ];
    for (const [name, message] of cases) {
      const res = await suite.op.call("PATCH", url, { display_name: name });
      expect({ name, status: res.status, error: res.body.error }).toEqual({ name, status: 400, error: { code: "display-name-not-allowed", message } });
    }
    const { rows } = await suite.h.deps.db.query("SELECT display_name FROM app_user WHERE id = $1", [users[0]]);
    expect(rows).toEqual([{ display_name: "Kept Name" }]);
    // Another user's own id is no identity of this one: "8035 1110" alone is a plain name for them.
    const other = await scoredCampaign(["1"]);
    const saved = await suite.op.call("PATCH", `/api/campaigns/${other.campaignId}/users/${other.users[0]}`, { display_name: "fan 8035 1110" });
    expect([saved.status, saved.body.display_name]).toEqual([200, "fan 8035 1110"]);
    expect((await suite.op.call("PATCH", url, { display_name: "Moon Walker" })).body.display_name).toBe("Moon Walker");
  });

  it("sets a referrer once with the time of the link, and refuses itself, a cycle, a change, and a user of another campaign", async () => {
    const { campaignId, users } = await scoredCampaign(["1", "1", "1"]);
    const [a, b, c] = users as [string, string, string];
    const other = await scoredCampaign(["1"]);
    const set = (user: string, referrer: string | null) => suite.op.call("PATCH", `/api/campaigns/${campaignId}/users/${user}`, { referrer_id: referrer });

    expect((await set(a, a)).body.error.message).toBe("referrer_id must not be the user itself");
    const linked = await set(b, a);
    expect(linked.body).toMatchObject({ referrer_id: a, referred_at: expect.any(String) });
    expect((await set(c, b)).body.referrer_id).toBe(b);
    // a <- b <- c: a referred by c would close the loop.
    const cycle = await set(a, c);
    expect(cycle).toMatchObject({
      status: 400,
      body: { error: { message: `referrer_id would make a referral cycle: ${c} is referred by this user, directly or through others` } },
    });
    expect((await set(b, a)).status).toBe(200);
    expect((await set(b, c)).body.error.code).toBe("referrer-already-set");
    expect((await set(b, null)).body.error.code).toBe("referrer-already-set");
    expect((await set(a, other.users[0] as string)).body.error.message).toBe("referrer_id must be a user of this campaign");
    expect((await set(a, "nope")).body.error.message).toBe("referrer_id: must be a uuid");
  });
});

describe("the ledger", () => {
  it("lists where each point came from: event, event type, amount, rule, version and paid points, newest first, page by page", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [a] = await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "1.5", regEventId, receivedAt: "2026-01-01T10:00:00Z" },
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "4", regEventId, receivedAt: "2026-01-02T10:00:00Z" },
      { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "10", regEventId, receivedAt: "2026-01-03T10:00:00Z" },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, {
      document: perUnitRules(regEventId, "2", { currencies: { xp: { name: "XP", caps: [{ period: "campaign", limit: "20" }] } } }),
    });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);

    const page1 = await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}/ledger?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.rule_version).toBe(1);
    // 10 x 2 = 20 would pass the campaign cap of 20 after 3 + 8 were paid: only 20 - 11 = 9 is paid.
    expect(page1.body.entries.map((e: Json) => [e.event.amount, e.points, e.capped_points, e.paid])).toEqual([
      ["10", String(10 * 2), String(10 * 2 - (20 - 1.5 * 2 - 4 * 2)), String(20 - 1.5 * 2 - 4 * 2)],
      ["4", String(4 * 2), "0", String(4 * 2)],
    ]);
    expect(page1.body.entries[0]).toMatchObject({
      rule_id: "volume",
      rule_version: 1,
      kind: "base",
      currency: "xp",
      event: {
        reg_event_id: regEventId,
        event_type: "trade_volume",
        identity_type: "EVM_ADDRESS",
        account_id: wallet(1),
        source: "api",
        occurred_at: "2026-01-03T10:00:00.000Z",
        received_at: "2026-01-03T10:00:00.000Z",
      },
      lineage: { cappedBy: ["currency:xp:campaign"] },
    });
    const page2 = await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}/ledger?limit=2&before=${page1.body.next_before}`);
    expect(page2.body.entries.map((e: Json) => e.event.amount)).toEqual(["1.5"]);
    expect(page2.body.next_before).toBeNull();
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}/ledger?limit=0`)).body.error.message).toBe("limit: must be between 1 and 500");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}/ledger?rule_version=2`)).body.entries).toEqual([]);
  });

  it("gives each entry's event both times: when it happened (occurred_at) and when ingest received it", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [a] = await logEvents(suite.h.deps.db, campaignId, [
      // Reported by a backfill two days after it happened.
      { identityType: "EVM_ADDRESS", accountId: wallet(7), amount: "3", regEventId, occurredAt: "2026-02-01T08:30:00Z", receivedAt: "2026-02-03T09:00:00Z" },
      { identityType: "EVM_ADDRESS", accountId: wallet(7), amount: "2", regEventId, receivedAt: "2026-02-03T09:05:00Z" },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const ledger = await suite.op.call("GET", `/api/campaigns/${campaignId}/users/${a}/ledger`);
    expect(ledger.body.entries.map((e: Json) => [e.event.amount, e.event.occurred_at, e.event.received_at])).toEqual([
      ["2", "2026-02-03T09:05:00.000Z", "2026-02-03T09:05:00.000Z"],
      ["3", "2026-02-01T08:30:00.000Z", "2026-02-03T09:00:00.000Z"],
    ]);
  });
});
