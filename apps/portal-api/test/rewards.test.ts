// Redeeming rewards through portal-api against real PostgreSQL: exactly once per idempotency key, never below zero, every refusal by its code.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { encryptVoucherCode } from "@pointwise/auth";
import { type SeedRewardOptions, seedApiKey, seedCampaign, seedReward, seedRuleVersion, seedScore, seedUser } from "@pointwise/testkit";
import { type Harness, newWallet, startPortal, participant as walletParticipant } from "./harness";

const KEY = "5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee1";
let h: Harness;
beforeAll(async () => {
  h = await startPortal({ VOUCHER_CODE_KEY: KEY });
});
afterAll(() => h.close());

/** A participant signed in with a new wallet, holding `points` xp (no score row with null). */
async function participant(points: string | null = "100") {
  const p = await walletParticipant(h);
  if (points !== null) await seedScore(h.deps.db, h.campaignId, p.userId, "xp", { score: points });
  return p;
}

/** A reward of the harness's campaign, manual and active unless `f` says otherwise. */
const reward = (f: SeedRewardOptions = {}) => seedReward(h.deps.db, h.campaignId, { name: "r", ...f });

async function addCodes(rewardId: string, codes: string[]): Promise<void> {
  for (const [i, code] of codes.entries()) {
    await h.deps.db.query("INSERT INTO reward_code(reward_id, code_hash, ciphertext) VALUES ($1, $2, $3)", [
      rewardId,
      `hash-${rewardId}-${i}`,
      encryptVoucherCode(KEY, code),
    ]);
  }
}

async function scoreRow(userId: string) {
  const { rows } = await h.deps.db.query<{ total: string; spent: string; balance: string }>(
    "SELECT total::text, spent::text, balance::text FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'",
    [h.campaignId, userId],
  );
  return rows[0];
}

const redeem = (auth: Record<string, string>, rewardId: string, key: string = randomUUID(), extra: Record<string, unknown> = {}) =>
  h.call("POST", "/me/redemptions", { reward_id: rewardId, ...extra }, { ...auth, "idempotency-key": key });

/**
 * A client that retries with the same Idempotency-Key while the service answers 503 (all its database
 * connections busy: 200 requests at once wait longer than the pool's connection timeout), as a client should.
 */
async function redeemWithRetry(auth: Record<string, string>, rewardId: string): Promise<Awaited<ReturnType<typeof redeem>>> {
  const key = randomUUID();
  for (;;) {
    const res = await redeem(auth, rewardId, key);
    if (res.status !== 503) return res;
    expect(res.body.error.code).toBe("database-unavailable");
  }
}

describe("redeeming a voucher reward", () => {
  it("debits the price, hands out one code that its owner sees, and a retry with the same key returns the same redemption", async () => {
    const p = await participant("100");
    const id = await reward({ kind: "voucher", price: "12.5" });
    await addCodes(id, ["GIFT-AAAA-1111", "GIFT-BBBB-2222"]);
    const first = await redeem(p.auth, id, "order-1");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      reward_id: id,
      user_id: p.userId,
      kind: "voucher",
      currency: "xp",
      price: "12.5",
      balance_before: "100",
      balance_after: "87.5",
      status: "delivered",
      channel: "portal",
      idempotency_key: "order-1",
      code: "GIFT-AAAA-1111",
    });
    // 100 - 12.5 = 87.5, stored as spent beside the unchanged total.
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "12.5", balance: "87.5" });
    const retry = await redeem(p.auth, id, "order-1");
    expect([retry.status, retry.body.id, retry.body.code]).toEqual([200, first.body.id, "GIFT-AAAA-1111"]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "12.5", balance: "87.5" });
    // The list (the user's ledger of spends) has the lineage but not the code; the one redemption shows it to its owner.
    const list = await h.call("GET", "/me/redemptions", undefined, p.auth);
    expect(list.body.redemptions.map((r: { id: string; code: unknown; balance_after: string }) => [r.id, r.code, r.balance_after])).toEqual([
      [first.body.id, null, "87.5"],
    ]);
    expect((await h.call("GET", `/me/redemptions/${first.body.id}`, undefined, p.auth)).body.code).toBe("GIFT-AAAA-1111");
    const other = await participant("0");
    const theirs = await h.call("GET", `/me/redemptions/${first.body.id}`, undefined, other.auth);
    expect([theirs.status, theirs.body.error.code]).toEqual([404, "redemption-not-found"]);
    // The second code goes to the next redemption; then the pool is empty.
    expect((await redeem(p.auth, id)).body.code).toBe("GIFT-BBBB-2222");
    const empty = await redeem(p.auth, id);
    expect([empty.status, empty.body.error.code]).toEqual([409, "out-of-stock"]);
    // The codes are stored encrypted: no column holds the plain text.
    const { rows } = await h.deps.db.query<{ t: string }>("SELECT row_to_json(c)::text AS t FROM reward_code c WHERE reward_id = $1", [id]);
    expect(rows.map((r) => r.t).join()).not.toMatch(/GIFT/);
  });

  it("refuses the same key with another reward with idempotency-key-reused, spending nothing", async () => {
    const p = await participant("100");
    const [a, b] = [await reward(), await reward()];
    expect((await redeem(p.auth, a, "k1")).status).toBe(201);
    const reused = await redeem(p.auth, b, "k1");
    expect([reused.status, reused.body.error.code]).toEqual([409, "idempotency-key-reused"]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "10", balance: "90" });
  });
});

describe("refusals", () => {
  it.each<[string, SeedRewardOptions, string, string, string]>([
    ["an archived reward", { status: "archived" }, "100", "reward-not-redeemable", "reward is archived"],
    ["a reward before its window", { redeemableFrom: new Date(Date.now() + 3_600_000) }, "100", "reward-not-redeemable", "reward can be redeemed from"],
    ["a reward after its window", { redeemableUntil: new Date(Date.now() - 1000) }, "100", "reward-not-redeemable", "reward could be redeemed until"],
    ["a reward out of stock", { stock: 0 }, "100", "out-of-stock", "reward is out of stock"],
    ["a balance below the price", { price: "100.01" }, "100", "insufficient-balance", "balance 100 is below the price 100.01"],
  ])("refuses %s with its code", async (_name, fields, points, code, message) => {
    const p = await participant(points);
    const res = await redeem(p.auth, await reward(fields));
    expect([res.status, res.body.error.code]).toEqual([409, code]);
    expect(res.body.error.message).toContain(message);
    expect(await scoreRow(p.userId)).toEqual({ total: points, spent: "0", balance: points });
  });

  it("enforces the per-user limit (reward-limit-reached) and refuses a user without points (insufficient-balance)", async () => {
    const p = await participant("100");
    const id = await reward({ perUserLimit: 2 });
    expect((await redeem(p.auth, id)).status).toBe(201);
    expect((await redeem(p.auth, id)).status).toBe(201);
    const third = await redeem(p.auth, id);
    expect([third.status, third.body.error.code, third.body.error.message]).toEqual([
      409,
      "reward-limit-reached",
      "reward may be redeemed at most 2 time(s) per user",
    ]);
    const poor = await participant(null);
    expect((await redeem(poor.auth, id)).body.error).toMatchObject({ code: "insufficient-balance", message: "balance 0 is below the price 10" });
  });

  it("checks the request: Idempotency-Key, reward id, account", async () => {
    const p = await participant("100");
    const manual = await reward();
    const none = await h.call("POST", "/me/redemptions", { reward_id: manual }, p.auth);
    expect([none.status, none.body.error.code]).toEqual([400, "idempotency-key-missing"]);
    const spaced = await redeem(p.auth, manual, "has space");
    expect([spaced.status, spaced.body.error.code]).toEqual([400, "invalid-idempotency-key"]);
    const badId = await redeem(p.auth, "nope");
    expect([badId.status, badId.body.error.message]).toEqual([400, "reward_id: must be a reward id (a UUID)"]);
    const unknown = await redeem(p.auth, randomUUID());
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "reward-not-found"]);
    const account = await redeem(p.auth, manual, undefined, { account: "0x0000000000000000000000000000000000000001" });
    expect([account.status, account.body.error.message]).toEqual([400, "account: only token-claim rewards take an account; this reward is manual"]);
    const claim = await reward({ kind: "token-claim" });
    expect((await redeem(p.auth, claim)).body.error.message).toBe("account: a token-claim reward needs the EVM address (0x...) that claims the tokens");
    expect((await redeem(p.auth, claim, undefined, { account: "0x12" })).body.error.message).toBe("account: must be an EVM address (0x and 40 hex digits)");
    const noToken = await h.call("POST", "/me/redemptions", { reward_id: manual }, { "idempotency-key": "x" });
    expect(noToken.body.error.code).toBe("missing-credentials");
    const tooLong = await redeem(p.auth, manual, "k".repeat(256));
    expect([tooLong.status, tooLong.body.error]).toEqual([
      400,
      { code: "invalid-idempotency-key", message: "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces" },
    ]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "0", balance: "100" });
    // The longest key every service takes.
    expect((await redeem(p.auth, manual, "k".repeat(255))).status).toBe(201);
  });
});

describe("a token claim's account", () => {
  // EIP-55's own test vector (https://eips.ethereum.org/EIPS/eip-55), and the same address with the case of its last letter flipped.
  const CHECKSUMMED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
  const MISTYPED = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";

  it("refuses a mixed-case account whose EIP-55 checksum is wrong with invalid-account-id, spending nothing", async () => {
    const p = await participant("100");
    const claim = await reward({ kind: "token-claim" });
    const mistyped = await redeem(p.auth, claim, undefined, { account: MISTYPED });
    expect([mistyped.status, mistyped.body.error]).toEqual([
      400,
      { code: "invalid-account-id", message: "account: EIP-55 checksum mismatch: the address is likely mistyped; copy it again from your wallet" },
    ]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "0", balance: "100" });
    // The same address with its checksum, or in one case (which carries none), pays out to it.
    for (const account of [CHECKSUMMED, MISTYPED.toLowerCase(), MISTYPED.toUpperCase().replace("0X", "0x")]) {
      const ok = await redeem(p.auth, claim, undefined, { account });
      expect([ok.status, ok.body.account]).toEqual([201, CHECKSUMMED.toLowerCase()]);
    }
  });

  it("refuses the zero address with invalid-account-id, spending nothing", async () => {
    const p = await participant("100");
    const claim = await reward({ kind: "token-claim" });
    const zero = await redeem(p.auth, claim, undefined, { account: `0x${"0".repeat(40)}` });
    expect([zero.status, zero.body.error]).toEqual([
      400,
      { code: "invalid-account-id", message: "account: must not be the zero address, which no wallet holds: tokens paid there are burned" },
    ]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "0", balance: "100" });
  });
});

describe("a decaying currency", () => {
  it("refuses a price the shown balance rounds up to with the exact balance below it, not two equal numbers", async () => {
    // xp halves every 365 days from an epoch of (about) now: 129.789 stored is worth 129.789 x 2^(-elapsed / half-life),
    // a hair under 129.789 by the time of the request, which shows at 2 places (half to even) as 129.79.
    const halfLifeSeconds = 365 * 86_400;
    const epochMs = Math.floor(Date.now() / 1000) * 1000;
    const campaignId = await seedCampaign(h.deps.db, { currencies: { xp: "XP" } });
    await seedRuleVersion(h.deps.db, campaignId, {
      campaignId,
      version: 1,
      primaryCurrency: "xp",
      currencies: { xp: { name: "XP", decimals: 2, decay: { halfLifeSeconds, epoch: new Date(epochMs).toISOString() } } },
      rules: [],
    });
    const userId = await seedUser(h.deps.db, campaignId);
    await seedScore(h.deps.db, campaignId, userId, "xp", { score: "129.789" });
    const key = (await seedApiKey(h.deps.db, campaignId)).key;
    const priced = (price: string) => seedReward(h.deps.db, campaignId, { price });
    const redeemFor = async (rewardId: string) =>
      h.call("POST", `/campaigns/${campaignId}/users/${userId}/redemptions`, { reward_id: rewardId }, { "x-api-key": key, "idempotency-key": randomUUID() });

    const before = Date.now();
    const refused = await redeemFor(await priced("129.79"));
    const after = Date.now();
    expect([refused.status, refused.body.error.code]).toEqual([409, "insufficient-balance"]);
    const message: string = refused.body.error.message;
    const [, balance, price] = /^balance (\S+) is below the price (\S+)/.exec(message) ?? [];
    expect([balance === price, price]).toEqual([false, "129.79"]);
    const named = /^balance (\d+\.\d+) is below the price 129\.79 \(shown as 129\.79, rounded to 2 decimal places\)$/.exec(message);
    expect(named).not.toBeNull();
    // The balance named lies between its worth at the two ends of the request (decay only lowers it), so below 129.789.
    // Doubles are exact to ~1e-14 here, far inside the gap to the price; the message cuts (never rounds up) at 18 places.
    const worth = (ms: number) => 129.789 * 2 ** (-(ms - epochMs) / (halfLifeSeconds * 1000));
    const exact = Number(named?.[1]);
    expect(exact).toBeGreaterThanOrEqual(worth(after) - 1e-12);
    expect(exact).toBeLessThanOrEqual(worth(before) + 1e-12);
    expect(exact).toBeLessThan(129.79);
    const { rows: spent } = await h.deps.db.query<{ spent: string }>("SELECT spent::text FROM score WHERE campaign_id = $1 AND user_id = $2", [
      campaignId,
      userId,
    ]);
    expect(spent).toEqual([{ spent: "0" }]);
    // What the exact balance covers still redeems: 129.78 against the shown 129.79 leaves 0.01 shown.
    const cheaper = await redeemFor(await priced("129.78"));
    expect([cheaper.status, cheaper.body.balance_before, cheaper.body.balance_after]).toEqual([201, "129.79", "0.01"]);
  });
});

describe("a manual and a token-claim reward", () => {
  it("a manual redemption is pending; a token-claim redemption joins the campaign's open epoch with its account", async () => {
    const p = await participant("100");
    const manual = await redeem(p.auth, await reward());
    expect([manual.body.status, manual.body.code, manual.body.claim_epoch]).toEqual(["pending", null, null]);
    const account = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    const claim = await redeem(p.auth, await reward({ kind: "token-claim", tokenAmount: "5000000000000000000" }), undefined, { account });
    expect(claim.body).toMatchObject({ status: "claimable", account: account.toLowerCase(), token_amount: "5000000000000000000" });
    const { rows } = await h.deps.db.query<{ id: string; status: string }>("SELECT id::text, status FROM claim_epoch WHERE campaign_id = $1", [h.campaignId]);
    expect(rows).toEqual([{ id: claim.body.claim_epoch, status: "open" }]);
  });
});

describe("a claim epoch's total per account", () => {
  it("refuses a token claim that would take its account's total in the open epoch past 2^256 - 1 with claim-total-too-large, spending nothing", async () => {
    const p = await participant("100");
    const account = `0x${randomBytes(20).toString("hex")}`;
    const max = (2n ** 256n - 1n).toString();
    const first = await redeem(p.auth, await reward({ kind: "token-claim", price: "10", tokenAmount: max }), undefined, { account });
    expect([first.status, first.body.status, first.body.token_amount]).toEqual([201, "claimable", max]);
    const one = await reward({ kind: "token-claim", price: "10", tokenAmount: "1" });
    const refused = await redeem(p.auth, one, undefined, { account });
    expect([refused.status, refused.body.error]).toEqual([
      409,
      {
        code: "claim-total-too-large",
        message: `the tokens ${account} is owed in the open claim epoch would pass 2^256 - 1 base units, more than one claim can pay; redeem again once the epoch is closed`,
      },
    ]);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "10", balance: "90" });
    // Another account's total is its own.
    const other = await redeem(p.auth, one, undefined, { account: `0x${randomBytes(20).toString("hex")}` });
    expect([other.status, other.body.status]).toEqual([201, "claimable"]);
  });
});

describe("on the user's behalf with the campaign's API key", () => {
  it("redeems for a user of the campaign with X-API-Key and refuses a missing, wrong or foreign key", async () => {
    const userId = await seedUser(h.deps.db, h.campaignId);
    await seedScore(h.deps.db, h.campaignId, userId, "xp", { score: "30" });
    const key = await seedApiKey(h.deps.db, h.campaignId);
    const id = await reward({ price: "30" });
    const path = `/campaigns/${h.campaignId}/users/${userId}/redemptions`;
    const ok = await h.call("POST", path, { reward_id: id }, { "x-api-key": key.key, "idempotency-key": "crm-77" });
    expect([ok.status, ok.body.channel, ok.body.balance_after]).toEqual([201, "api-key", "0"]);
    const again = await h.call("POST", path, { reward_id: id }, { "x-api-key": key.key, "idempotency-key": "crm-77" });
    expect([again.status, again.body.id]).toEqual([200, ok.body.id]);
    expect((await h.call("POST", path, { reward_id: id }, { "idempotency-key": "a" })).body.error.code).toBe("missing-credentials");
    const revoked = await seedApiKey(h.deps.db, h.campaignId, { revoked: true });
    expect((await h.call("POST", path, { reward_id: id }, { "x-api-key": revoked.key, "idempotency-key": "a" })).body.error.code).toBe("invalid-api-key");
    const stranger = await h.call(
      "POST",
      `/campaigns/${h.campaignId}/users/${randomUUID()}/redemptions`,
      { reward_id: id },
      { "x-api-key": key.key, "idempotency-key": "a" },
    );
    expect([stranger.status, stranger.body.error.code]).toEqual([404, "user-not-found"]);
  });
});

describe("what a campaign API key cannot do on a user's behalf", () => {
  it("replays only its own redemptions: a participant's Idempotency-Key sent with the key gets no voucher code", async () => {
    const p = await participant();
    const id = await reward({ kind: "voucher" });
    await addCodes(id, ["OWNER-ONLY-0001"]);
    const own = await redeem(p.auth, id, "participant-key-1");
    expect([own.status, own.body.code]).toEqual([201, "OWNER-ONLY-0001"]);
    const key = await seedApiKey(h.deps.db, h.campaignId);
    const path = `/campaigns/${h.campaignId}/users/${p.userId}/redemptions`;
    const replay = await h.call("POST", path, { reward_id: id }, { "x-api-key": key.key, "idempotency-key": "participant-key-1" });
    expect({ status: replay.status, body: replay.body }).toEqual({
      status: 409,
      body: { error: { code: "idempotency-key-reused", message: "Idempotency-Key participant-key-1 was used for a redemption made by the participant" } },
    });
    // And the other way round: a participant cannot replay what the key redeemed.
    const byKey = await h.call("POST", path, { reward_id: await reward() }, { "x-api-key": key.key, "idempotency-key": "crm-1" });
    expect(byKey.status).toBe(201);
    const back = await redeem(p.auth, id, "crm-1");
    expect([back.status, back.body.error.code]).toEqual([409, "idempotency-key-reused"]);
  });

  it("pays a token claim only to one of the user's linked EVM wallets", async () => {
    const { wallet, userId } = await participant("100");
    const key = await seedApiKey(h.deps.db, h.campaignId);
    const claim = await reward({ kind: "token-claim", price: "10", tokenAmount: "5" });
    const path = `/campaigns/${h.campaignId}/users/${userId}/redemptions`;
    const elsewhere = await h.call(
      "POST",
      path,
      { reward_id: claim, account: newWallet().address },
      { "x-api-key": key.key, "idempotency-key": "claim-elsewhere" },
    );
    expect([elsewhere.status, elsewhere.body.error.message]).toEqual([
      400,
      "account: on the user's behalf, tokens go only to one of the user's linked EVM wallets",
    ]);
    expect((await scoreRow(userId))?.spent).toBe("0");
    const own = await h.call("POST", path, { reward_id: claim, account: wallet.address }, { "x-api-key": key.key, "idempotency-key": "claim-own" });
    expect([own.status, own.body.account]).toEqual([201, wallet.address.toLowerCase()]);
  });
});

describe("concurrent redemptions", () => {
  it("200 at once against a balance for exactly 10 leave exactly 10 redemptions and a balance of 0, never below", async () => {
    const p = await participant("100");
    const id = await reward({ price: "10" });
    const answers = await Promise.all(Array.from({ length: 200 }, () => redeemWithRetry(p.auth, id)));
    const codes = answers.map((a) => (a.status === 201 ? "created" : a.body.error.code));
    // 100 / 10 = 10 redemptions fit; each of the other 190 is refused for the balance.
    expect(codes.filter((c) => c === "created")).toHaveLength(10);
    expect(codes.filter((c) => c === "insufficient-balance")).toHaveLength(190);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "100", balance: "0" });
    const { rows } = await h.deps.db.query<{ n: number; before: string[]; after: string[] }>(
      "SELECT count(*)::int AS n, array_agg(balance_before::text ORDER BY created_at, id) AS before, array_agg(balance_after::text ORDER BY created_at, id) AS after FROM redemption WHERE user_id = $1",
      [p.userId],
    );
    // The lineage runs 100 -> 90 -> ... -> 0 without a gap or a repeat.
    expect(rows[0]).toEqual({
      n: 10,
      before: ["100", "90", "80", "70", "60", "50", "40", "30", "20", "10"],
      after: ["90", "80", "70", "60", "50", "40", "30", "20", "10", "0"],
    });
  });

  it("200 at once from 20 users against a stock of 7 leave exactly 7 redemptions and a stock of 0", async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => participant("1000")));
    const id = await reward({ price: "1", stock: 7 });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => redeemWithRetry((users[i % 20] as { auth: Record<string, string> }).auth, id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === "out-of-stock")).toHaveLength(193);
    const { rows } = await h.deps.db.query<{ stock: number; n: number; spent: string }>(
      `SELECT stock, (SELECT count(*)::int FROM redemption WHERE reward_id = $1) AS n,
              (SELECT sum(spent)::text FROM score WHERE campaign_id = $2 AND user_id = ANY($3::uuid[])) AS spent FROM reward WHERE id = $1`,
      [id, h.campaignId, users.map((u) => u.userId)],
    );
    expect(rows[0]).toEqual({ stock: 0, n: 7, spent: "7" });
  });

  it("200 retries of one idempotency key at once spend once", async () => {
    const p = await participant("100");
    const id = await reward({ price: "10" });
    const answers: Awaited<ReturnType<typeof redeem>>[] = await Promise.all(
      Array.from({ length: 200 }, async () => {
        for (;;) {
          const res = await redeem(p.auth, id, "same-key");
          if (res.status !== 503) return res;
        }
      }),
    );
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(199);
    expect(await scoreRow(p.userId)).toEqual({ total: "100", spent: "10", balance: "90" });
  });
});
