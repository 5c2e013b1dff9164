// Moving identities between participants (wallet merge, unlink) after points were spent: spends stay with the user who made them, so an identity whose points were spent stays too.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { backendPid, seedReward, seedRuleVersion, seedScore, waitUntilBlockedBy } from "@pointwise/testkit";
import { userOfIdentity } from "../src/users";
import { type Harness, type Json, linkWallet, newWallet, type Participant, participant, signIn, startPortal } from "./harness";
import { logEventOf, ownerOf } from "./spent";

let h: Harness;
beforeAll(async () => {
  h = await startPortal();
  // Active rules, so a move that goes through queues its recompute and a refused one visibly does not.
  await seedRuleVersion(h.deps.db, h.campaignId, {
    campaignId: h.campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [],
  });
});
afterAll(() => h.close());

type Wallet = Participant["wallet"];

const account = (w: Wallet) => w.address.toLowerCase();

/** The wallet earned `points` xp: one event of it in the log and the live ledger, and the points on its user's score row as the worker leaves them. */
async function earned(p: Participant, points: string): Promise<void> {
  await logEventOf(h, "EVM_ADDRESS", account(p.wallet));
  await seedScore(h.deps.db, h.campaignId, p.userId, "xp", { score: points });
}

const redeem = (p: Participant, rewardId: string) => h.call("POST", "/me/redemptions", { reward_id: rewardId }, { ...p.auth, "idempotency-key": randomUUID() });

const link = (p: Participant, wallet: Wallet) => linkWallet(h, p.auth, wallet);

/** A manual reward of the harness's campaign costing `price` xp. */
const manualReward = (price: string, perUserLimit: number | null = null) => seedReward(h.deps.db, h.campaignId, { price, perUserLimit });

async function identityIdOf(p: Participant, wallet: Wallet): Promise<string> {
  const mine = (await h.call("GET", "/me", undefined, p.auth)).body.identities as Json[];
  return mine.find((i) => i.account_id === account(wallet))?.id as string;
}

async function scoreOf(userId: string) {
  const { rows } = await h.deps.db.query<{ total: string; spent: string; balance: string }>(
    "SELECT trim_scale(total)::text AS total, trim_scale(spent)::text AS spent, trim_scale(balance)::text AS balance FROM score WHERE campaign_id = $1 AND user_id = $2",
    [h.campaignId, userId],
  );
  return rows[0] ?? null;
}

// Each test starts from an empty queue, so "no recompute was queued" is a plain look at the table.
async function clearJobs(): Promise<void> {
  await h.deps.db.query("DELETE FROM recompute_job WHERE campaign_id = $1", [h.campaignId]);
}
async function jobs(): Promise<string[]> {
  const { rows } = await h.deps.db.query<{ reason: string }>("SELECT reason FROM recompute_job WHERE campaign_id = $1", [h.campaignId]);
  return rows.map((r) => r.reason);
}

const refusal = (redemptions: number) => ({
  code: "identity-points-spent",
  message: `this identity's points were spent by the user who holds it (${redemptions} redemption${redemptions === 1 ? "" : "s"} not rejected); it cannot move to another user`,
});

describe("an identity whose points were spent", () => {
  it("is not merged into the user who proves it: 409 identity-points-spent, nothing moves, no recompute, and the points cannot be spent twice", async () => {
    // Wa earns 100 xp; its user spends 2 x 50 (balance 0); a new user X proves Wa.
    const u = await participant(h);
    await earned(u, "100");
    const reward = await manualReward("50");
    expect((await redeem(u, reward)).status).toBe(201);
    expect((await redeem(u, reward)).status).toBe(201);
    expect(await scoreOf(u.userId)).toEqual({ total: "100", spent: "100", balance: "0" });
    await clearJobs();
    const x = await participant(h);
    const taken = await link(x, u.wallet);
    expect([taken.status, taken.body.error]).toEqual([409, refusal(2)]);
    expect(await ownerOf(h, "EVM_ADDRESS", account(u.wallet))).toBe(u.userId);
    expect(((await h.call("GET", "/me", undefined, x.auth)).body.identities as Json[]).map((i) => i.account_id)).toEqual([account(x.wallet)]);
    expect(await jobs()).toEqual([]);
    // X holds no points to spend again; U keeps its row and its spends.
    expect(await scoreOf(x.userId)).toBeNull();
    expect((await redeem(x, reward)).body.error.code).toBe("insufficient-balance");
    expect(await scoreOf(u.userId)).toEqual({ total: "100", spent: "100", balance: "0" });
  });

  it("is not unlinked into a user of its own: 409 identity-points-spent, and the per-user limit still holds for the wallet", async () => {
    // U holds W5 (50 xp) and W6, redeems a per_user_limit 1 reward for 50, then tries to unlink W5.
    const u = await participant(h);
    await earned(u, "50");
    const w6 = newWallet();
    expect((await link(u, w6)).body.merged).toBe(false);
    const reward = await manualReward("50", 1);
    expect((await redeem(u, reward)).status).toBe(201);
    await clearJobs();
    const unlinked = await h.call("DELETE", `/me/identities/${await identityIdOf(u, u.wallet)}`, undefined, u.auth);
    expect([unlinked.status, unlinked.body.error]).toEqual([409, refusal(1)]);
    expect(await ownerOf(h, "EVM_ADDRESS", account(u.wallet))).toBe(u.userId);
    expect(await jobs()).toEqual([]);
    // Signing in with W5 still reaches U, whose limit is used up.
    const again = await participant(h, u.wallet);
    expect(again.userId).toBe(u.userId);
    expect((await redeem(again, reward)).body.error.code).toBe("reward-limit-reached");
  });

  it("moves once every redemption of its holder is rejected (the points given back), and a recompute is queued", async () => {
    const u = await participant(h);
    await earned(u, "100");
    const reward = await manualReward("50");
    const spent = await redeem(u, reward);
    expect(spent.status).toBe(201);
    // What admin-api's reject does: the redemption rejected, its price given back.
    await h.deps.db.query("UPDATE redemption SET status = 'rejected', status_note = 'no', status_at = now() WHERE id = $1", [spent.body.id]);
    await h.deps.db.query("UPDATE score SET spent = spent - 50 WHERE campaign_id = $1 AND user_id = $2", [h.campaignId, u.userId]);
    await clearJobs();
    const x = await participant(h);
    const taken = await link(x, u.wallet);
    expect([taken.status, taken.body.merged, typeof taken.body.recompute_job_id]).toEqual([200, true, "string"]);
    expect(await ownerOf(h, "EVM_ADDRESS", account(u.wallet))).toBe(x.userId);
    expect(await jobs()).toEqual(["identity-link"]);
  });

  it("does not hold back an identity without events: it is merged elsewhere or unlinked although its holder has spent", async () => {
    const u = await participant(h);
    await earned(u, "100");
    const [quiet, other] = [newWallet(), newWallet()];
    expect((await link(u, quiet)).status).toBe(200);
    expect((await link(u, other)).status).toBe(200);
    expect((await redeem(u, await manualReward("50"))).status).toBe(201);
    const x = await participant(h);
    const taken = await link(x, quiet);
    expect([taken.status, taken.body.merged]).toEqual([200, true]);
    expect(await ownerOf(h, "EVM_ADDRESS", account(quiet))).toBe(x.userId);
    const unlinked = await h.call("DELETE", `/me/identities/${await identityIdOf(u, other)}`, undefined, u.auth);
    expect(unlinked.status).toBe(200);
    expect(await ownerOf(h, "EVM_ADDRESS", account(other))).not.toBe(u.userId);
    // The wallet that earned stays with U.
    expect(await ownerOf(h, "EVM_ADDRESS", account(u.wallet))).toBe(u.userId);
  });

  it("waits for a redemption of the holder in flight and then refuses: the check and the move hold the lock every redemption takes", async () => {
    const u = await participant(h);
    await earned(u, "100");
    const rewardId = await manualReward("100");
    const x = await participant(h);
    const body = await signIn(h, u.wallet);
    let reply: Promise<Awaited<ReturnType<Harness["call"]>>> | undefined;
    // A redemption between its balance check and its commit, as portal-api's redeem holds it.
    await h.deps.db.transaction(async (tx) => {
      const holder = await backendPid(tx);
      await tx.lockCampaign("apply", h.campaignId);
      await tx.query(
        `INSERT INTO redemption(campaign_id, reward_id, user_id, idempotency_key, request_hash, channel, kind, currency, price, balance_before, balance_after, status)
         VALUES ($1, $2, $3, 'in-flight', 'h', 'portal', 'manual', 'xp', 100, 100, 0, 'pending')`,
        [h.campaignId, rewardId, u.userId],
      );
      reply = h.call("POST", "/me/wallets", { message: body.message, signature: body.signature }, x.auth);
      // The link waits on the campaign's apply lock (the key of @pointwise/db's locks.ts) until the redemption commits.
      await waitUntilBlockedBy(h.deps.db, holder, "the link waiting for the apply lock");
    });
    const answered = await (reply as Promise<Awaited<ReturnType<Harness["call"]>>>);
    expect([answered.status, answered.body.error]).toEqual([409, refusal(1)]);
    expect(await ownerOf(h, "EVM_ADDRESS", account(u.wallet))).toBe(u.userId);
  });
});

describe("linking a wallet that the scoring worker or a sign-in creates at the same moment", () => {
  it("waits for that identity and takes it over as a merge with its recompute, instead of failing on its key", async () => {
    const x = await participant(h);
    const w = newWallet();
    const body = await signIn(h, w);
    let reply: Promise<Awaited<ReturnType<Harness["call"]>>> | undefined;
    let madeFor: string | undefined;
    await h.deps.db.transaction(async (tx) => {
      const holder = await backendPid(tx);
      // The statement the scoring worker and a sign-in use for an identity nobody holds yet, its transaction still open:
      // neither takes the campaign's users lock, so the link's look-up finds nothing and its insert waits on this one.
      madeFor = await userOfIdentity(tx, h.campaignId, "EVM_ADDRESS", account(w));
      reply = h.call("POST", "/me/wallets", { message: body.message, signature: body.signature }, x.auth);
      await waitUntilBlockedBy(h.deps.db, holder, "the link's insert waiting on the identity made meanwhile");
    });
    const answered = await (reply as Promise<Awaited<ReturnType<Harness["call"]>>>);
    expect([answered.status, answered.body.merged, typeof answered.body.recompute_job_id]).toEqual([200, true, "string"]);
    expect(madeFor).not.toBe(x.userId);
    expect(await ownerOf(h, "EVM_ADDRESS", account(w))).toBe(x.userId);
  });
});

describe("points of an identity that moved away, before the recompute switches in", () => {
  const recomputing = { code: "scores-recomputing", message: expect.stringMatching(/^an identity of this user moved to another user/) };

  it("cannot be spent by the user they left: 409 scores-recomputing while the identity-link recompute is queued or failed, until a later one finishes", async () => {
    // U earns 100 xp with Wa and has spent nothing, so X may take Wa over; U's balance still holds its 100 until the switch.
    const u = await participant(h);
    await earned(u, "100");
    const rewardId = await manualReward("100");
    const x = await participant(h);
    await clearJobs();
    expect((await link(x, u.wallet)).body.merged).toBe(true);
    expect(await jobs()).toEqual(["identity-link"]);

    const refused = await redeem(u, rewardId);
    expect([refused.status, refused.body.error]).toEqual([409, recomputing]);
    expect((await scoreOf(u.userId))?.spent).toBe("0");
    // A failed recompute leaves the balance as stale as a queued one.
    await h.deps.db.query("UPDATE recompute_job SET status = 'failed' WHERE campaign_id = $1", [h.campaignId]);
    expect((await redeem(u, rewardId)).body.error?.code).toBe("scores-recomputing");
    // Any later finished recompute replays the log with the identities as they are (here: the worker's switch, as far as
    // this check reads it), and the user spends what their score row says.
    await h.deps.db.query("INSERT INTO recompute_job(campaign_id, rule_version, reason, status) VALUES ($1, 1, 'manual', 'done')", [h.campaignId]);
    expect((await redeem(u, rewardId)).status).toBe(201);
  });

  it("does not hold back a user whose balance holds no moved identity's points, while another user's recompute is pending", async () => {
    const v = await participant(h);
    await earned(v, "30");
    const rewardId = await manualReward("30");
    // Another participant's identity moves; its recompute is queued.
    const w = await participant(h);
    await logEventOf(h, "EVM_ADDRESS", account(w.wallet));
    const y = await participant(h);
    await clearJobs();
    expect((await link(y, w.wallet)).body.merged).toBe(true);
    expect(await jobs()).toEqual(["identity-link"]);
    expect((await redeem(v, rewardId)).status).toBe(201);
  });
});
