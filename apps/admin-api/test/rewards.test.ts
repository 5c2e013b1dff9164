// admin-api rewards: the catalogue, voucher code uploads with per-row errors, manual fulfilment and rejection (refund), each audited.
import { randomUUID } from "node:crypto";
import { decryptVoucherCode, hashVoucherCode } from "@pointwise/auth";
import { seedRedemption, seedScore, seedUser } from "@pointwise/testkit";
import { type Harness, type Operator, perUnitRules, setUpCampaign, startHarness } from "./harness";
import { activateAsWorker } from "./seed";

const KEY = "7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0de7e57c0d1";
let h: Harness;
let op: Operator;
let campaignId: string;
beforeAll(async () => {
  h = await startHarness({ VOUCHER_CODE_KEY: KEY });
  op = await h.newProject();
  campaignId = (await setUpCampaign(op)).campaignId;
});
afterAll(() => h.close());

const url = () => `/api/campaigns/${campaignId}`;
async function trail(action: string) {
  const entries = (await op.call("GET", `${url()}/audit?limit=200`)).body.entries as { action: string; target: string; before: unknown; after: unknown }[];
  return entries.filter((e) => e.action === action);
}
const csv = (_: string) => ({ "content-type": "text/csv" });

describe("the rewards catalogue", () => {
  it("creates, lists and changes a reward, each change audited with before and after", async () => {
    const created = await op.call("POST", `${url()}/rewards`, {
      name: "Mug",
      kind: "manual",
      currency: "xp",
      price: "250.5",
      stock: 3,
      per_user_limit: 1,
      redeemable_from: "2026-01-01T00:00:00Z",
      redeemable_until: "2027-01-01T00:00:00Z",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Mug",
      kind: "manual",
      price: "250.5",
      stock: 3,
      per_user_limit: 1,
      status: "active",
      codes_available: null,
      claim_method: null,
    });
    const patched = await op.call("PATCH", `${url()}/rewards/${created.body.id}`, { price: "300", stock: null, status: "archived" });
    expect(patched.body).toMatchObject({ price: "300", stock: null, status: "archived" });
    const list = await op.call("GET", `${url()}/rewards`);
    expect(list.body.rewards.map((r: { id: string }) => r.id)).toContain(created.body.id);
    expect((await trail("reward.create")).map((e) => e.target)).toContain(`reward:${created.body.id}`);
    const update = (await trail("reward.update")).find((e) => e.target === `reward:${created.body.id}`);
    expect([(update?.before as { price?: string } | undefined)?.price, (update?.after as { status?: string } | undefined)?.status]).toEqual([
      "250.5",
      "archived",
    ]);
  });

  it.each([
    [{ name: "x", kind: "gift", currency: "xp", price: "1" }, "kind: must be voucher, token-claim or manual"],
    [{ name: "x", kind: "manual", currency: "nope", price: "1" }, "currency: must be one of the campaign's currencies (xp, gems)"],
    [{ name: "x", kind: "manual", currency: "xp", price: "0" }, "price: must not be zero"],
    [{ name: "x", kind: "manual", currency: "xp", price: "-1" }, 'price: must be a decimal string such as "100" or "2.5"'],
    [{ name: "x", kind: "token-claim", currency: "xp", price: "1" }, "token_amount: required for token-claim rewards and refused for the others"],
    [{ name: "x", kind: "manual", currency: "xp", price: "1", token_amount: "5" }, "token_amount: required for token-claim rewards and refused for the others"],
    [{ name: "x", kind: "manual", currency: "xp", price: "1", claim_method: "merkle" }, "claim_method: only token-claim rewards have one"],
    [{ name: "x", kind: "manual", currency: "xp", price: "1", stock: -1 }, "stock: must be a whole number from 0 to 100000000"],
    [
      { name: "x", kind: "manual", currency: "xp", price: "1", redeemable_from: "2026-02-01T00:00:00Z", redeemable_until: "2026-01-01T00:00:00Z" },
      "redeemable_until: must be later than redeemable_from",
    ],
    [
      { name: "x", kind: "manual", currency: "xp", price: "1", redeemable_from: "0000-01-01T00:00:00Z" },
      "redeemable_from: must not be in the year 0000, which PostgreSQL's calendar does not have",
    ],
    [
      { name: "x", kind: "manual", currency: "xp", price: "1", redeemable_until: "9999-12-31T23:00:00-05:00" },
      "redeemable_until: must fall in the years 0001 to 9999 in UTC",
    ],
    [
      { name: "x", kind: "token-claim", currency: "xp", price: "1", token_amount: (2n ** 256n).toString() },
      "token_amount: must be at most 2^256 - 1 base units (a uint256)",
    ],
    [{ name: "x", kind: "token-claim", currency: "xp", price: "1", token_amount: "0" }, "token_amount: must be a whole number of token base units (> 0)"],
  ])("refuses %j with validation-failed naming the field", async (body, message) => {
    const res = await op.call("POST", `${url()}/rewards`, body);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([400, "validation-failed", message]);
  });

  it("takes a token amount of 2^256 - 1 base units, the most a uint256 holds", async () => {
    const max = (2n ** 256n - 1n).toString();
    const res = await op.call("POST", `${url()}/rewards`, { name: "all", kind: "token-claim", currency: "xp", price: "1", token_amount: max });
    expect([res.status, res.body.token_amount]).toEqual([201, max]);
  });

  it("answers reward-not-found for an unknown reward", async () => {
    const res = await op.call("PATCH", `${url()}/rewards/${randomUUID()}`, { name: "y" });
    expect([res.status, res.body.error.code]).toEqual([404, "reward-not-found"]);
  });
});

describe("a price and its currency's decimal places", () => {
  /** A campaign whose active rule version gives xp `decimals` places (version 1, then 2, ... as activated). */
  async function campaignWithXpDecimals(decimals: number) {
    const { campaignId: id, regEventId } = await setUpCampaign(op);
    const activate = async (places: number, version: number) => {
      const doc = { ...perUnitRules(regEventId, "1"), currencies: { xp: { name: "Experience", decimals: places } } };
      expect((await op.call("POST", `/api/campaigns/${id}/rule-versions`, { document: doc })).status).toBe(201);
      await activateAsWorker(h.deps.db, id, version);
    };
    await activate(decimals, 1);
    return { rewards: `/api/campaigns/${id}/rewards`, activate };
  }
  const manual = (price: string) => ({ name: "Sticker", kind: "manual", currency: "xp", price });

  it("refuses on create and on change a price with more places than the currency has, as adjustments do, and keeps valid prices", async () => {
    const { rewards } = await campaignWithXpDecimals(2);
    for (const [price, places] of [
      ["0.000000000000000001", 18],
      ["1.005", 3],
    ] as const) {
      const res = await op.call("POST", rewards, manual(price));
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([400, "validation-failed", `price: xp has 2 decimal places; got ${places}`]);
    }
    const created = await op.call("POST", rewards, manual("1.25"));
    expect([created.status, created.body.price]).toEqual([201, "1.25"]);
    const finer = await op.call("PATCH", `${rewards}/${created.body.id}`, { price: "1.251" });
    expect([finer.status, finer.body.error.code, finer.body.error.message]).toEqual([400, "validation-failed", "price: xp has 2 decimal places; got 3"]);
    const zero = await op.call("PATCH", `${rewards}/${created.body.id}`, { price: "0.00" });
    expect([zero.status, zero.body.error.message]).toEqual([400, "price: must not be zero"]);
    const changed = await op.call("PATCH", `${rewards}/${created.body.id}`, { price: "2.5" });
    expect([changed.status, changed.body.price]).toEqual([200, "2.5"]);
    // Nothing refused was written: the catalogue holds the one reward at its last valid price.
    expect((await op.call("GET", rewards)).body.rewards.map((r: { price: string }) => r.price)).toEqual(["2.5"]);
  });

  it("keeps a price finer than a later version's places, and refuses only a new price that does not fit them", async () => {
    const { rewards, activate } = await campaignWithXpDecimals(2);
    const created = await op.call("POST", rewards, manual("1.25"));
    expect(created.status).toBe(201);
    await activate(0, 2);
    const renamed = await op.call("PATCH", `${rewards}/${created.body.id}`, { name: "Big sticker" });
    expect([renamed.status, renamed.body.price]).toEqual([200, "1.25"]);
    const finer = await op.call("PATCH", `${rewards}/${created.body.id}`, { price: "1.5" });
    expect([finer.status, finer.body.error.message]).toEqual([400, "price: xp has 0 decimal places; got 1"]);
    expect((await op.call("PATCH", `${rewards}/${created.body.id}`, { price: "2" })).body.price).toBe("2");
    expect((await op.call("POST", rewards, manual("3.5"))).body.error.message).toBe("price: xp has 0 decimal places; got 1");
  });
});

describe("voucher codes", () => {
  it("stores uploaded codes encrypted with their hash, reports bad rows by line, and audits counts only", async () => {
    const reward = (await op.call("POST", `${url()}/rewards`, { name: "Gift card", kind: "voucher", currency: "xp", price: "10" })).body;
    const strict = await op.call("POST", `${url()}/rewards/${reward.id}/codes`, "code\nAAA-1\n\nAAA-1\nBBB-2\n", csv(""));
    expect(strict.body).toMatchObject({ status: "rejected", rows_read: 3, rows_invalid: 1, added: 0 });
    expect(strict.body.invalid_rows).toEqual([{ line: 4, code: "duplicate-code", message: "code: appears earlier in this upload" }]);
    const lenient = await op.call("POST", `${url()}/rewards/${reward.id}/codes?mode=accept-valid`, "code\nAAA-1\nAAA-1\nBBB-2\n", csv(""));
    expect(lenient.body).toMatchObject({ status: "done", rows_read: 3, rows_invalid: 1, added: 2 });
    const json = await op.call("POST", `${url()}/rewards/${reward.id}/codes?mode=accept-valid`, { codes: ["CCC-3", "AAA-1", "", "x".repeat(201)] });
    expect(json.body.invalid_rows).toEqual([
      { line: 2, code: "duplicate-code", message: "code: is already in this reward's pool" },
      { line: 3, code: "validation-failed", message: "code: must not be empty" },
      { line: 4, code: "validation-failed", message: "code: must be at most 200 characters" },
    ]);
    expect((await op.call("GET", `${url()}/rewards`)).body.rewards.find((r: { id: string }) => r.id === reward.id).codes_available).toBe(3);
    const { rows } = await h.deps.db.query<{ code_hash: string; ciphertext: string }>(
      "SELECT code_hash, ciphertext FROM reward_code WHERE reward_id = $1 ORDER BY id",
      [reward.id],
    );
    // The hash is SHA-256 of the code; the ciphertext opens with the key to the code and holds no plain text.
    expect(rows.map((r) => [r.code_hash, decryptVoucherCode(KEY, r.ciphertext)])).toEqual(["AAA-1", "BBB-2", "CCC-3"].map((c) => [hashVoucherCode(c), c]));
    const audit = await trail("reward.codes-upload");
    expect(JSON.stringify(audit)).not.toMatch(/AAA-1|BBB-2|CCC-3/);
    expect(audit.map((e) => (e.after as { added: number }).added).sort()).toEqual([1, 2]);
    const manual = (await op.call("POST", `${url()}/rewards`, { name: "m", kind: "manual", currency: "xp", price: "1" })).body;
    const wrong = await op.call("POST", `${url()}/rewards/${manual.id}/codes`, { codes: ["A"] });
    expect([wrong.status, wrong.body.error.code]).toEqual([409, "reward-not-voucher"]);
    const header = await op.call("POST", `${url()}/rewards/${reward.id}/codes`, "voucher\nA\n", csv(""));
    expect(header.body.error.code).toBe("csv-invalid-header");
  });

  it("refuses uploads without VOUCHER_CODE_KEY with voucher-codes-unavailable", async () => {
    const bare = await startHarness();
    try {
      const o = await bare.newProject();
      const c = (await setUpCampaign(o)).campaignId;
      const r = (await o.call("POST", `/api/campaigns/${c}/rewards`, { name: "g", kind: "voucher", currency: "xp", price: "1" })).body;
      const res = await o.call("POST", `/api/campaigns/${c}/rewards/${r.id}/codes`, { codes: ["A"] });
      expect([res.status, res.body.error.code]).toEqual([409, "voucher-codes-unavailable"]);
    } finally {
      await bare.close();
    }
  });
});

describe("manual fulfilment", () => {
  /** A pending redemption of 40 xp as portal-api makes it (spent on the score row, stock taken). */
  async function pending(stock: number | null) {
    const reward = (await op.call("POST", `${url()}/rewards`, { name: "Hoodie", kind: "manual", currency: "xp", price: "40", stock })).body;
    const userId = await seedUser(h.deps.db, campaignId);
    await seedScore(h.deps.db, campaignId, userId, "xp", { score: "100" });
    await h.deps.db.query("UPDATE score SET spent = 40 WHERE campaign_id = $1 AND user_id = $2", [campaignId, userId]);
    if (stock !== null) await h.deps.db.query("UPDATE reward SET stock = stock - 1 WHERE id = $1", [reward.id]);
    const id = await seedRedemption(h.deps.db, campaignId, userId, reward.id, { price: "40", balanceBefore: "100" });
    return { id, userId, rewardId: reward.id as string };
  }
  const balanceOf = async (userId: string) =>
    (await h.deps.db.query<{ spent: string; balance: string }>("SELECT spent::text, balance::text FROM score WHERE user_id = $1", [userId])).rows[0];

  it("fulfils a pending redemption once, with its note, and audits it", async () => {
    const r = await pending(null);
    const done = await op.call("POST", `${url()}/redemptions/${r.id}/fulfil`, { note: "shipped, tracking 42" });
    expect(done.body).toMatchObject({ id: r.id, status: "fulfilled", status_note: "shipped, tracking 42", balance_after: "60" });
    const again = await op.call("POST", `${url()}/redemptions/${r.id}/fulfil`, {});
    expect([again.status, again.body.error.code]).toEqual([409, "redemption-not-pending"]);
    expect(await balanceOf(r.userId)).toEqual({ spent: "40", balance: "60" });
    expect((await trail("redemption.fulfil")).map((e) => e.target)).toContain(`redemption:${r.id}`);
    const list = await op.call("GET", `${url()}/redemptions?status=fulfilled&user_id=${r.userId}`);
    expect(list.body.redemptions.map((x: { id: string; code: unknown }) => [x.id, x.code])).toEqual([[r.id, null]]);
  });

  it("rejects with a reason, giving the points and the stock back", async () => {
    const r = await pending(4);
    const noReason = await op.call("POST", `${url()}/redemptions/${r.id}/reject`, {});
    expect([noReason.status, noReason.body.error.message]).toEqual([400, "note: must say why (the user sees it)"]);
    const done = await op.call("POST", `${url()}/redemptions/${r.id}/reject`, { note: "size out of stock" });
    expect(done.body).toMatchObject({ status: "rejected", status_note: "size out of stock" });
    // 40 given back: spent 40 - 40 = 0, balance 100; stock 4 - 1 + 1 = 4.
    expect(await balanceOf(r.userId)).toEqual({ spent: "0", balance: "100" });
    expect((await h.deps.db.query<{ stock: number }>("SELECT stock FROM reward WHERE id = $1", [r.rewardId])).rows[0]?.stock).toBe(4);
    expect((await op.call("POST", `${url()}/redemptions/${randomUUID()}/reject`, { note: "x" })).body.error.code).toBe("redemption-not-found");
    expect((await op.call("GET", `${url()}/redemptions?status=lost`)).body.error.message).toBe(
      "status: must be one of delivered, pending, fulfilled, rejected, claimable",
    );
  });
});
