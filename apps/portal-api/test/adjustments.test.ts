// The participant's own adjustments (operators' grants and deductions) beside the ledger, and what an excluded participant sees.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type Harness, participant, startPortal } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startPortal();
});
afterAll(() => h.close());

/** Writes an adjustment row as admin-api's POST /adjustments does (operator and reason included). */
async function adjust(userId: string, points: string, reversesId: string | null = null): Promise<string> {
  const { rows } = await h.deps.db.query<{ id: string }>(
    `INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_email, reverses_id)
     VALUES ($1, $2, 'xp', $3, 'sybil cluster 7, see ticket 42', 'ops@pointwise.test', $4) RETURNING id::text`,
    [h.campaignId, userId, points, reversesId],
  );
  return rows[0]?.id as string;
}

describe("GET /me/adjustments", () => {
  it("lists the user's grants and deductions newest first, with reversals linked, without the operator or the reason", async () => {
    const p = await participant(h);
    const other = await participant(h);
    const grant = await adjust(p.userId, "12.50");
    const deduction = await adjust(p.userId, "-2.25");
    const reversal = await adjust(p.userId, "-12.5", grant);
    await adjust(other.userId, "99");
    const res = await h.call("GET", "/me/adjustments", undefined, p.auth);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(p.userId);
    expect(res.body.excluded).toBe(false);
    expect(res.body.next_before).toBeNull();
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(res.body.adjustments).toEqual([
      { id: reversal, currency: "xp", kind: "deduction", points: "-12.5", reverses_id: grant, reversed_by_id: null, created_at: at },
      { id: deduction, currency: "xp", kind: "deduction", points: "-2.25", reverses_id: null, reversed_by_id: null, created_at: at },
      { id: grant, currency: "xp", kind: "grant", points: "12.5", reverses_id: null, reversed_by_id: reversal, created_at: at },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/sybil|ops@pointwise/);
  });

  it("pages with limit and before", async () => {
    const p = await participant(h);
    const ids = [];
    for (const points of ["1", "2", "3"]) ids.push(await adjust(p.userId, points));
    const first = await h.call("GET", "/me/adjustments?limit=2", undefined, p.auth);
    expect(first.body.adjustments.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.next_before).toBe(ids[1]);
    const second = await h.call("GET", `/me/adjustments?limit=2&before=${first.body.next_before}`, undefined, p.auth);
    expect([second.body.adjustments.map((a: { id: string }) => a.id), second.body.next_before]).toEqual([[ids[0]], null]);
  });

  it("refuses a bad limit or before with validation-failed naming the field", async () => {
    const p = await participant(h);
    const limit = await h.call("GET", "/me/adjustments?limit=201", undefined, p.auth);
    expect([limit.status, limit.body.error.code, limit.body.error.message]).toEqual([400, "validation-failed", "limit: must be at most 200"]);
    const before = await h.call("GET", "/me/adjustments?before=-1", undefined, p.auth);
    expect([before.status, before.body.error.message]).toEqual([400, "before: must be an entry id"]);
    // 2^63, one past the largest id PostgreSQL's bigint holds, on both paged routes.
    for (const path of ["/me/adjustments", "/me/ledger"]) {
      for (const before of ["9223372036854775808", "1.5", "1e3"]) {
        const past = await h.call("GET", `${path}?before=${before}`, undefined, p.auth);
        expect([past.status, past.body.error.code, past.body.error.message]).toEqual([400, "validation-failed", "before: must be an entry id"]);
      }
    }
    expect((await h.call("GET", "/me/adjustments?before=9223372036854775807", undefined, p.auth)).status).toBe(200);
    expect((await h.call("GET", "/me/adjustments")).body.error.code).toBe("missing-credentials");
  });
});

describe("an excluded participant", () => {
  it("is told excluded: true on the ledger and the adjustments (by an exclusion of an identity they own, in every campaign of the project), and nothing more", async () => {
    const p = await participant(h);
    await adjust(p.userId, "5");
    const { rows } = await h.deps.db.query<{ project_id: string }>("SELECT project_id FROM campaign WHERE id = $1", [h.campaignId]);
    await h.deps.db.query("INSERT INTO exclusion(project_id, identity_type, account_id, reason) VALUES ($1, 'EVM_ADDRESS', $2, 'farm ring 3')", [
      rows[0]?.project_id,
      p.wallet.address.toLowerCase(),
    ]);
    const ledger = await h.call("GET", "/me/ledger", undefined, p.auth);
    const adjustments = await h.call("GET", "/me/adjustments", undefined, p.auth);
    expect([ledger.status, ledger.body.excluded, ledger.body.entries]).toEqual([200, true, []]);
    expect([adjustments.body.excluded, adjustments.body.adjustments.length]).toEqual([true, 1]);
    expect(JSON.stringify([ledger.body, adjustments.body])).not.toMatch(/farm ring|exclusion_id|EVM_ADDRESS/);
    // Another participant of the campaign is not affected.
    expect((await h.call("GET", "/me/ledger", undefined, (await participant(h)).auth)).body.excluded).toBe(false);
  });

  it("is excluded by an exclusion of the user itself in the campaign", async () => {
    const p = await participant(h);
    const { rows } = await h.deps.db.query<{ project_id: string }>("SELECT project_id FROM campaign WHERE id = $1", [h.campaignId]);
    await h.deps.db.query("INSERT INTO exclusion(project_id, campaign_id, user_id, reason) VALUES ($1, $2, $3, 'x')", [
      rows[0]?.project_id,
      h.campaignId,
      p.userId,
    ]);
    expect((await h.call("GET", "/me/adjustments", undefined, p.auth)).body.excluded).toBe(true);
  });
});
