// admin-api fair play: exclusions, adjustments and the audit trail through the API, against the real database.
import { perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

const suite = sharedProject();

const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const csv = { "content-type": "text/csv" };
/** 0x and 40 zeros: the mint and burn address, which nobody holds; ingest refuses it now, but it may have earned points before. */
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** A campaign with rule version 1 active (2 xp per unit) and two users: wallet 1 with 5 units, wallet 2 with 3. */
async function scored() {
  const { campaignId, regEventId } = await setUpCampaign(suite.op);
  const [u1, u2] = await logEvents(suite.h.deps.db, campaignId, [
    { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "5", regEventId },
    { identityType: "EVM_ADDRESS", accountId: wallet(2), amount: "3", regEventId },
  ]);
  await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
  await activateAsWorker(suite.h.deps.db, campaignId, 1);
  return { campaignId, regEventId, url: `/api/campaigns/${campaignId}`, u1: u1 as string, u2: u2 as string };
}

async function xpTotal(campaignId: string, userId: string): Promise<string | null> {
  const { rows } = await suite.h.deps.db.query<{ total: string }>(
    "SELECT trim_scale(total)::text AS total FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'",
    [campaignId, userId],
  );
  return rows[0]?.total ?? null;
}

async function trail(campaignId: string) {
  return (await suite.op.call("GET", `/api/campaigns/${campaignId}/audit?limit=200`)).body.entries as {
    action: string;
    operator_email: string;
    target: string | null;
    before: unknown;
    after: unknown;
  }[];
}

describe("exclusions", () => {
  it("excludes an address however it is spelled: the user's rows go at once, a recompute is queued, the user shows as excluded", async () => {
    const { campaignId, url, u1, u2 } = await scored();
    expect(await xpTotal(campaignId, u1)).toBe("10");
    const res = await suite.op.call("POST", `${url}/exclusions`, {
      identity_type: "EVM_ADDRESS",
      account_id: wallet(1).toUpperCase().replace("0X", "0x"),
      reason: "sybil cluster 7",
    });
    expect(res.status).toBe(201);
    expect(res.body.exclusion).toMatchObject({
      scope: "campaign",
      campaign_id: campaignId,
      identity_type: "EVM_ADDRESS",
      account_id: wallet(1),
      user_id: null,
      reason: "sybil cluster 7",
      source: "manual",
    });
    expect(res.body.recompute_job).toMatchObject({ reason: "exclusion", status: "queued", events_total: 2 });
    expect(await xpTotal(campaignId, u1)).toBeNull();
    // 3 units x 2 xp: the other user is untouched.
    expect(await xpTotal(campaignId, u2)).toBe("6");
    expect((await suite.op.call("GET", `${url}/users/${u1}`)).body).toMatchObject({ excluded: true, scores: [] });
    expect((await suite.op.call("GET", `${url}/users/${u2}`)).body.excluded).toBe(false);
    const board = await suite.op.call("GET", `${url}/leaderboard?currency=xp`);
    expect(board.body.entries.map((e: { user_id: string }) => e.user_id)).toEqual([u2]);

    const again = await suite.op.call("POST", `${url}/exclusions`, { identity_type: "EVM_ADDRESS", account_id: wallet(1), reason: "twice" });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "exclusion-exists", message: "this identity or user is already excluded in this scope" });

    const lifted = await suite.op.call("DELETE", `${url}/exclusions/${res.body.exclusion.id}`);
    expect(lifted.status).toBe(200);
    expect(lifted.body.lifted.id).toBe(res.body.exclusion.id);
    // One queued job covers the exclusion and its lifting.
    expect(lifted.body.recompute_job.id).toBe(res.body.recompute_job.id);
    expect((await suite.op.call("GET", `${url}/exclusions`)).body).toEqual({ exclusions: [], total: 0 });
    const missing = await suite.op.call("DELETE", `${url}/exclusions/${res.body.exclusion.id}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("exclusion-not-found");

    const actions = (await trail(campaignId)).map((e) => e.action);
    expect(actions.slice(0, 2)).toEqual(["exclusion.lift", "exclusion.create"]);
  });

  it("excludes a user, and refuses bad input with the field and the rule", async () => {
    const { url, u2 } = await scored();
    const ok = await suite.op.call("POST", `${url}/exclusions`, { user_id: u2, reason: "farming" });
    expect(ok.status).toBe(201);
    expect(ok.body.exclusion).toMatchObject({ user_id: u2, identity_type: null, account_id: null });
    const cases: [unknown, string, string][] = [
      [{ identity_type: "EVM_ADDRESS", account_id: "0x12", reason: "r" }, "invalid-account-id", "account_id"],
      [{ identity_type: "FAX", account_id: "1", reason: "r" }, "validation-failed", "must name either identity_type and account_id, or user_id"],
      [{ identity_type: "EMAIL", account_id: "a@b.co", reason: "   " }, "validation-failed", "reason: must not be empty"],
      [{ user_id: "nope", reason: "r" }, "validation-failed", "user_id must be a uuid"],
    ];
    for (const [body, code, text] of cases) {
      const res = await suite.op.call("POST", `${url}/exclusions`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toContain(text);
    }
    const unknown = await suite.op.call("POST", `${url}/exclusions`, { user_id: "00000000-0000-4000-8000-000000000000", reason: "r" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("user-not-found");
  });

  it("imports a CSV list with per-row errors: all-or-nothing adds nothing, accept-valid adds the good rows", async () => {
    const { url } = await scored();
    const file = `identity_type,account_id,reason\nEVM_ADDRESS,${wallet(7)},\nEMAIL,Farmer@Example.com,bot\nEVM_ADDRESS,0x12,\nSOMETHING,x,\n`;
    const rejected = await suite.op.call("POST", `${url}/exclusions/csv?reason=sanctions%20list`, file, csv);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: "rejected", rows_read: 4, rows_valid: 2, rows_invalid: 2, created: 0 });
    expect(rejected.body.invalid_rows.map((r: { line: number; code: string }) => [r.line, r.code])).toEqual([
      [4, "invalid-account-id"],
      [5, "validation-failed"],
    ]);
    expect((await suite.op.call("GET", `${url}/exclusions`)).body.total).toBe(0);
    const done = await suite.op.call("POST", `${url}/exclusions/csv?reason=sanctions%20list&mode=accept-valid`, file, csv);
    expect(done.body).toMatchObject({ status: "done", created: 2, already_excluded: 0 });
    const listed = (await suite.op.call("GET", `${url}/exclusions`)).body.exclusions;
    expect(listed.map((e: { account_id: string; reason: string; source: string }) => [e.account_id, e.reason, e.source]).sort()).toEqual([
      [wallet(7), "sanctions list", "csv"],
      ["farmer@example.com", "bot", "csv"],
    ]);
    const twice = await suite.op.call("POST", `${url}/exclusions/csv?reason=again&mode=accept-valid`, file, csv);
    expect(twice.body).toMatchObject({ created: 0, already_excluded: 2 });
    const header = await suite.op.call("POST", `${url}/exclusions/csv?reason=x`, "address\n0x1\n", csv);
    expect(header.status).toBe(400);
    expect(header.body.error.code).toBe("csv-invalid-header");
    const wrongType = await suite.op.call("POST", `${url}/exclusions/csv`, "{}");
    expect(wrongType.body.error.code).toBe("unsupported-media-type");
    const notUtf8 = await fetch(`${suite.h.url}${url}/exclusions/csv?reason=x`, {
      method: "POST",
      headers: { ...csv, authorization: `Bearer ${suite.op.token}` },
      body: new Uint8Array([0x69, 0x64, 0xff, 0x0a]),
    });
    expect(((await notUtf8.json()) as { error: { code: string } }).error.code).toBe("invalid-utf8");
  });

  it("excludes the EVM zero address, which earned points before ingest refused it: one by one, by CSV and project-wide", async () => {
    const { campaignId, regEventId, url, u1 } = await scored();
    // Logged as the scoring worker logged it before the refusal: 4 units x 2 xp under the active version.
    const [zeroUser] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: ZERO_ADDRESS, amount: "4", regEventId }]);
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    expect(await xpTotal(campaignId, zeroUser as string)).toBe("8");
    const res = await suite.op.call("POST", `${url}/exclusions`, { identity_type: "EVM_ADDRESS", account_id: ZERO_ADDRESS, reason: "mint address" });
    expect(res.status).toBe(201);
    expect(res.body.exclusion).toMatchObject({ scope: "campaign", identity_type: "EVM_ADDRESS", account_id: ZERO_ADDRESS, reason: "mint address" });
    expect(await xpTotal(campaignId, zeroUser as string)).toBeNull();
    // 5 units x 2 xp: the other users keep theirs.
    expect(await xpTotal(campaignId, u1)).toBe("10");
    expect((await suite.op.call("DELETE", `${url}/exclusions/${res.body.exclusion.id}`)).status).toBe(200);

    const listed = await suite.op.call("POST", `${url}/exclusions/csv?reason=burn`, `identity_type,account_id\nEVM_ADDRESS,${ZERO_ADDRESS}\n`, csv);
    expect(listed.body).toMatchObject({ status: "done", rows_invalid: 0, created: 1 });
    const project = await suite.op.call("POST", "/api/exclusions", { identity_type: "EVM_ADDRESS", account_id: ZERO_ADDRESS, reason: "burn" });
    expect(project.status).toBe(201);
    expect(project.body.exclusion).toMatchObject({ scope: "project", account_id: ZERO_ADDRESS });
    expect((await suite.op.call("DELETE", `/api/exclusions/${project.body.exclusion.id}`)).status).toBe(200);
  });

  it("excludes an identity from every campaign of the project, and lifts it", async () => {
    const a = await scored();
    const b = await scored();
    const res = await suite.op.call("POST", "/api/exclusions", { identity_type: "EVM_ADDRESS", account_id: wallet(2), reason: "sanctioned" });
    expect(res.status).toBe(201);
    expect(res.body.exclusion).toMatchObject({ scope: "project", campaign_id: null });
    expect(res.body.recompute_jobs.map((j: { campaign_id: string }) => j.campaign_id)).toEqual(expect.arrayContaining([a.campaignId, b.campaignId]));
    expect(await xpTotal(a.campaignId, a.u2)).toBeNull();
    expect(await xpTotal(b.campaignId, b.u2)).toBeNull();
    expect((await suite.op.call("GET", `${a.url}/exclusions`)).body.exclusions.map((e: { scope: string }) => e.scope)).toContain("project");
    const lifted = await suite.op.call("DELETE", `/api/exclusions/${res.body.exclusion.id}`);
    expect(lifted.status).toBe(200);
    const project = (await suite.op.call("GET", "/api/audit?limit=5")).body.entries;
    expect(project.slice(0, 2).map((e: { action: string; campaign_id: string | null }) => [e.action, e.campaign_id])).toEqual([
      ["exclusion.lift", null],
      ["exclusion.create", null],
    ]);
  });
});

describe("adjustments", () => {
  it("grants and deducts at once, reverses only once, and keeps every row with its operator and reason", async () => {
    const { campaignId, url, u1 } = await scored();
    const grant = await suite.op.call("POST", `${url}/adjustments`, { user_id: u1, currency: "xp", points: "25.5", reason: "bug bounty" });
    expect(grant.status).toBe(201);
    expect(grant.body).toMatchObject({ user_id: u1, currency: "xp", points: "25.5", reason: "bug bounty", operator_email: suite.op.email, reverses_id: null });
    // 5 units x 2 xp + 25.5.
    expect(await xpTotal(campaignId, u1)).toBe("35.5");
    const deduct = await suite.op.call("POST", `${url}/adjustments`, { user_id: u1, currency: "xp", points: "-12", reason: "wash trading" });
    expect(deduct.status).toBe(201);
    expect(await xpTotal(campaignId, u1)).toBe("23.5");
    const reversal = await suite.op.call("POST", `${url}/adjustments`, { reverses: grant.body.id, reason: "granted by mistake" });
    expect(reversal.body).toMatchObject({ points: "-25.5", reverses_id: grant.body.id, currency: "xp", user_id: u1 });
    expect(await xpTotal(campaignId, u1)).toBe("-2");
    const twice = await suite.op.call("POST", `${url}/adjustments`, { reverses: grant.body.id, reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toEqual({
      code: "adjustment-already-reversed",
      message: `adjustment ${grant.body.id} was already reversed by adjustment ${reversal.body.id}`,
    });
    const ofReversal = await suite.op.call("POST", `${url}/adjustments`, { reverses: reversal.body.id, reason: "undo the undo" });
    expect(ofReversal.body.error.code).toBe("adjustment-is-reversal");
    const list = await suite.op.call("GET", `${url}/adjustments?user_id=${u1}`);
    expect(list.body.adjustments.map((a: { points: string; reversed_by_id: string | null }) => [a.points, a.reversed_by_id])).toEqual([
      ["-25.5", null],
      ["-12", null],
      ["25.5", reversal.body.id],
    ]);
    const audit = (await trail(campaignId)).filter((e) => e.action === "adjustment.create");
    expect(audit).toHaveLength(3);
    expect(audit.every((e) => e.operator_email === suite.op.email)).toBe(true);
  });

  it("cancels a grant in a decaying currency to the last digit with a reversal made later, also after a recompute", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [u1] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "5", regEventId }]);
    // A one-hour half-life: a reversal decayed from its own time, even a moment after the grant, leaves a visible remainder.
    const epoch = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000).toISOString();
    const decaying = { xp: { name: "Experience", decimals: 2, decay: { halfLifeSeconds: 3600, epoch } } };
    const saved = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, {
      document: perUnitRules(regEventId, "2", { currencies: decaying }),
    });
    expect(saved.status).toBe(201);
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const score = async () =>
      (
        await suite.h.deps.db.query<{ score: string }>(
          "SELECT trim_scale(score)::text AS score FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'",
          [campaignId, u1],
        )
      ).rows[0]?.score;
    const earned = await score();
    const url = `/api/campaigns/${campaignId}`;
    const grant = await suite.op.call("POST", `${url}/adjustments`, { user_id: u1, currency: "xp", points: "1000", reason: "bonus" });
    expect(grant.status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));
    const reversal = await suite.op.call("POST", `${url}/adjustments`, { reverses: grant.body.id, reason: "granted by mistake" });
    expect(reversal.status).toBe(201);
    // The stored score is exactly what the events earned: the grant and its reversal add up to 0 in the stored form.
    // (Compared as values: NUMERIC addition keeps the larger scale, so an 18-place grant leaves a trailing zero.)
    expect(await score()).toBe(earned);
    // The recompute's switch adds every adjustment back the same way.
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    expect(await score()).toBe(earned);
  });

  it("refuses bad adjustments with the field and the rule", async () => {
    const { url, u1 } = await scored();
    const cases: [unknown, number, string, string][] = [
      [{ user_id: u1, currency: "xp", points: "0", reason: "r" }, 400, "validation-failed", "points: must not be zero"],
      [{ user_id: u1, currency: "xp", points: "1.001", reason: "r" }, 400, "validation-failed", "points: xp has 2 decimal places; got 3"],
      [{ user_id: u1, currency: "xp", points: "1e5", reason: "r" }, 400, "validation-failed", "points: must be a signed decimal string"],
      [{ user_id: u1, currency: "gold", points: "1", reason: "r" }, 400, "validation-failed", "currency: must be one of the campaign's currencies (xp, gems)"],
      [{ user_id: u1, currency: "xp", points: "1", reason: "" }, 400, "validation-failed", "reason: must not be empty"],
      [{ reverses: "0", reason: "r" }, 400, "validation-failed", "reverses: must be an adjustment id: a whole number from 1 to 9223372036854775807"],
      [{ reverses: "999999", reason: "r" }, 404, "adjustment-not-found", "adjustment 999999 not found"],
      [{ user_id: "00000000-0000-4000-8000-000000000000", currency: "xp", points: "1", reason: "r" }, 404, "user-not-found", "not found"],
    ];
    for (const [body, status, code, text] of cases) {
      const res = await suite.op.call("POST", `${url}/adjustments`, body);
      expect([res.status, res.body.error.code]).toEqual([status, code]);
      expect(res.body.error.message).toContain(text);
    }
  });

  it("makes bulk adjustments from a CSV with per-row errors", async () => {
    const { campaignId, url, u1, u2 } = await scored();
    const file = `identity_type,account_id,currency,points,reason\nEVM_ADDRESS,${wallet(1).toUpperCase().replace("0X", "0x")},xp,100,airdrop\nEVM_ADDRESS,${wallet(2)},xp,-1.5,clawback\nEVM_ADDRESS,${wallet(9)},xp,1,nobody\nEVM_ADDRESS,${wallet(2)},xp,abc,bad\n`;
    const rejected = await suite.op.call("POST", `${url}/adjustments/csv`, file, csv);
    expect(rejected.body).toMatchObject({ status: "rejected", rows_read: 4, rows_invalid: 2, created: 0, import_id: null });
    expect(rejected.body.invalid_rows.map((r: { line: number; code: string }) => [r.line, r.code])).toEqual([
      [4, "user-not-found"],
      [5, "validation-failed"],
    ]);
    expect(await xpTotal(campaignId, u1)).toBe("10");
    const done = await suite.op.call("POST", `${url}/adjustments/csv?mode=accept-valid`, file, csv);
    expect(done.body).toMatchObject({ status: "done", created: 2, rows_invalid: 2 });
    expect(await xpTotal(campaignId, u1)).toBe("110");
    expect(await xpTotal(campaignId, u2)).toBe("4.5");
    const imported = (await trail(campaignId)).find((e) => e.action === "adjustment.import");
    expect(imported?.target).toBe(`adjustment-import:${done.body.import_id}`);
  });

  it("refuses a CSV list row holding U+0000, which no text column stores, as a row error naming its column; the other rows import", async () => {
    const { campaignId, url, u1 } = await scored();
    const adjustments = `identity_type,account_id,currency,points,reason\nEVM_ADDRESS,${wallet(1)},xp,100,air\u0000drop\nEVM_ADDRESS,${wallet(1)},xp,5,airdrop\n`;
    const rejected = await suite.op.call("POST", `${url}/adjustments/csv`, adjustments, csv);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: "rejected", rows_read: 2, rows_invalid: 1, created: 0 });
    expect(rejected.body.invalid_rows).toEqual([{ line: 2, code: "validation-failed", message: "reason: must not contain the character U+0000" }]);
    const adjusted = await suite.op.call("POST", `${url}/adjustments/csv?mode=accept-valid`, adjustments, csv);
    expect(adjusted.body).toMatchObject({ status: "done", created: 1, rows_invalid: 1 });
    expect(await xpTotal(campaignId, u1)).toBe("15");
    const exclusions = `identity_type,account_id,reason\nEVM_ADDRESS,${wallet(7)},bot\u0000\nEMAIL,farmer@example.com,bot\nEVM_ADDRESS,0x\u0000,bot\n`;
    for (const path of [`${url}/exclusions/csv`, "/api/exclusions/csv"]) {
      const res = await suite.op.call("POST", `${path}?mode=accept-valid`, exclusions, csv);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "done", rows_read: 3, rows_invalid: 2, created: 1 });
      expect(res.body.invalid_rows).toEqual([
        { line: 2, code: "validation-failed", message: "reason: must not contain the character U+0000" },
        { line: 4, code: "validation-failed", message: "account_id: must not contain the character U+0000" },
      ]);
    }
  });

  it("refuses a CSV adjustment to the EVM zero address with invalid-account-id, even for a user it belongs to", async () => {
    const { campaignId, regEventId, url } = await scored();
    const [zeroUser] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: ZERO_ADDRESS, amount: "4", regEventId }]);
    const res = await suite.op.call(
      "POST",
      `${url}/adjustments/csv`,
      `identity_type,account_id,currency,points,reason\nEVM_ADDRESS,${ZERO_ADDRESS},xp,100,airdrop\n`,
      csv,
    );
    expect(res.body).toMatchObject({ status: "rejected", rows_invalid: 1, created: 0 });
    expect(res.body.invalid_rows).toEqual([
      { line: 2, code: "invalid-account-id", message: "account_id is not a valid EVM_ADDRESS: must not be the zero address, which no wallet holds" },
    ]);
    const { rows } = await suite.h.deps.db.query("SELECT 1 FROM score_adjustment WHERE user_id = $1", [zeroUser]);
    expect(rows).toEqual([]);
  });
  it("refuses an adjustment by user_id to a user holding the EVM zero address, grant or deduction, and stores nothing", async () => {
    const { campaignId, regEventId, url, u1 } = await scored();
    const [zeroUser] = await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: ZERO_ADDRESS, amount: "4", regEventId }]);
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    for (const points of ["100", "-3"]) {
      const res = await suite.op.call("POST", `${url}/adjustments`, { user_id: zeroUser, currency: "xp", points, reason: "airdrop" });
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        400,
        "validation-failed",
        `user_id: user ${zeroUser} holds the EVM zero address, which no wallet holds; exclude the user instead`,
      ]);
    }
    const { rows } = await suite.h.deps.db.query("SELECT 1 FROM score_adjustment WHERE user_id = $1", [zeroUser]);
    expect(rows).toEqual([]);
    expect(await xpTotal(campaignId, zeroUser as string)).toBe("8");
    // Anyone else is adjusted as before.
    const other = await suite.op.call("POST", `${url}/adjustments`, { user_id: u1, currency: "xp", points: "1", reason: "airdrop" });
    expect(other.status).toBe(201);
  });
});

describe("adjustments with an Idempotency-Key", () => {
  it("answers a retry with the first adjustment and grants once; the key with another request is refused", async () => {
    const { campaignId, url, u1 } = await scored();
    const body = { user_id: u1, currency: "xp", points: "7", reason: "quest winner" };
    const key = { "idempotency-key": "grant-quest-winner-1" };
    const first = await suite.op.call("POST", `${url}/adjustments`, body, key);
    expect(first.status).toBe(201);
    const retry = await suite.op.call("POST", `${url}/adjustments`, body, key);
    expect([retry.status, retry.body, retry.headers.get("idempotent-replayed")]).toEqual([200, first.body, "true"]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // 5 units x 2 xp + 7, once.
    expect(await xpTotal(campaignId, u1)).toBe("17");
    expect((await suite.op.call("GET", `${url}/adjustments?user_id=${u1}`)).body.adjustments).toHaveLength(1);
    expect((await trail(campaignId)).filter((e) => e.action === "adjustment.create")).toHaveLength(1);

    const other = await suite.op.call("POST", `${url}/adjustments`, { ...body, points: "8" }, key);
    expect([other.status, other.body.error]).toEqual([
      409,
      { code: "idempotency-key-reused", message: "Idempotency-Key grant-quest-winner-1 was used for another adjustment request" },
    ]);
    const asReversal = await suite.op.call("POST", `${url}/adjustments`, { reverses: first.body.id, reason: "undo" }, key);
    expect(asReversal.body.error.code).toBe("idempotency-key-reused");
    const reversalKey = { "idempotency-key": "undo-quest-winner-1" };
    const reversal = await suite.op.call("POST", `${url}/adjustments`, { reverses: first.body.id, reason: "undo" }, reversalKey);
    const reversalRetry = await suite.op.call("POST", `${url}/adjustments`, { reverses: first.body.id, reason: "undo" }, reversalKey);
    expect([reversal.status, reversalRetry.status, reversalRetry.body]).toEqual([201, 200, reversal.body]);
    expect(await xpTotal(campaignId, u1)).toBe("10");

    // A key belongs to its campaign: the same key in another campaign makes its own adjustment.
    const elsewhere = await scored();
    const there = await suite.op.call("POST", `${elsewhere.url}/adjustments`, { ...body, user_id: elsewhere.u1 }, key);
    expect(there.status).toBe(201);
    expect(await xpTotal(elsewhere.campaignId, elsewhere.u1)).toBe("17");

    for (const bad of ["", "has space", "x".repeat(256), "naïve"]) {
      const res = await suite.op.call("POST", `${url}/adjustments`, body, { "idempotency-key": bad });
      expect([res.status, res.body.error.code]).toEqual([400, "invalid-idempotency-key"]);
    }
    expect(await xpTotal(campaignId, u1)).toBe("10");
  });

  it("makes one adjustment for two requests with the same key sent at once", async () => {
    const { campaignId, url, u1 } = await scored();
    const body = { user_id: u1, currency: "xp", points: "3", reason: "double click" };
    const key = { "idempotency-key": "same-moment" };
    const answers = await Promise.all([1, 2, 3].map(() => suite.op.call("POST", `${url}/adjustments`, body, key)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await xpTotal(campaignId, u1)).toBe("13");
  });

  it("answers a retried CSV upload with its first answer; an upload that made nothing is not remembered", async () => {
    const { campaignId, url, u1, u2 } = await scored();
    const header = "identity_type,account_id,currency,points,reason\n";
    const bad = `${header}EVM_ADDRESS,${wallet(1)},xp,100,airdrop\nEVM_ADDRESS,${wallet(9)},xp,1,nobody\n`;
    const key = { ...csv, "idempotency-key": "airdrop-file-1" };
    const rejected = await suite.op.call("POST", `${url}/adjustments/csv`, bad, key);
    expect(rejected.body).toMatchObject({ status: "rejected", created: 0 });
    // The rejected file made nothing, so its key is free for the corrected file.
    const good = `${header}EVM_ADDRESS,${wallet(1)},xp,100,airdrop\nEVM_ADDRESS,${wallet(2)},xp,-1.5,clawback\n`;
    const done = await suite.op.call("POST", `${url}/adjustments/csv`, good, key);
    expect(done.body).toMatchObject({ status: "done", created: 2, rows_invalid: 0 });
    const retry = await suite.op.call("POST", `${url}/adjustments/csv`, good, key);
    expect([retry.status, retry.body, retry.headers.get("idempotent-replayed")]).toEqual([200, done.body, "true"]);
    expect([await xpTotal(campaignId, u1), await xpTotal(campaignId, u2)]).toEqual(["110", "4.5"]);
    expect((await trail(campaignId)).filter((e) => e.action === "adjustment.import")).toHaveLength(1);

    const edited = await suite.op.call("POST", `${url}/adjustments/csv`, good.replace("100", "1000"), key);
    expect([edited.status, edited.body.error.code]).toEqual([409, "idempotency-key-reused"]);
    const otherMode = await suite.op.call("POST", `${url}/adjustments/csv?mode=accept-valid`, good, key);
    expect(otherMode.body.error.code).toBe("idempotency-key-reused");
    const asSingle = await suite.op.call(
      "POST",
      `${url}/adjustments`,
      { user_id: u1, currency: "xp", points: "1", reason: "r" },
      { "idempotency-key": "airdrop-file-1" },
    );
    expect(asSingle.body.error.code).toBe("idempotency-key-reused");
    expect([await xpTotal(campaignId, u1), await xpTotal(campaignId, u2)]).toEqual(["110", "4.5"]);
  });
});

describe("the audit trail", () => {
  it("records who changed what with before and after, and cannot be edited", async () => {
    const { campaignId, url, u1 } = await scored();
    await suite.op.call("PATCH", url, { name: "Renamed season" });
    const key = await suite.op.call("POST", `${url}/api-keys`, { label: "k" });
    await suite.op.call("POST", `${url}/api-keys/${key.body.id}/revoke`);
    await suite.op.call("PATCH", `${url}/users/${u1}`, { display_name: "Alice" });
    const entries = await trail(campaignId);
    const byAction = new Map(entries.map((e) => [e.action, e]));
    expect(byAction.get("campaign.update")).toMatchObject({ before: { name: "Season" }, after: { name: "Renamed season" }, operator_email: suite.op.email });
    expect(byAction.get("api-key.revoke")).toMatchObject({ target: `api-key:${key.body.id}`, before: { revoked_at: null } });
    expect(byAction.get("user.update")).toMatchObject({ before: { display_name: null }, after: { display_name: "Alice" } });
    expect([...byAction.keys()]).toEqual(expect.arrayContaining(["campaign.create", "event-type.create", "rule-version.create", "api-key.create"]));
    await expect(suite.h.deps.db.query("UPDATE audit_event SET operator_email = 'someone-else' WHERE campaign_id = $1", [campaignId])).rejects.toThrow(
      /append-only/,
    );
    await expect(suite.h.deps.db.query("DELETE FROM audit_event WHERE campaign_id = $1", [campaignId])).rejects.toThrow(/append-only/);
    const page = await suite.op.call("GET", `${url}/audit?limit=2`);
    expect(page.body.entries).toHaveLength(2);
    const next = await suite.op.call("GET", `${url}/audit?limit=2&before=${page.body.next_before}`);
    expect(next.body.entries[0].id).not.toBe(page.body.entries[0].id);
    for (const before of ["1.5", "1e400", "9223372036854775808"]) {
      const res = await suite.op.call("GET", `${url}/audit?before=${before}`);
      expect([res.status, res.body.error.message]).toEqual([
        400,
        "before: must be an entry id from a previous page: a whole number from 1 to 9223372036854775807",
      ]);
      const adj = await suite.op.call("GET", `${url}/adjustments?before=${before}`);
      expect([adj.status, adj.body.error.message]).toEqual([400, "before: must be an adjustment id: a whole number from 1 to 9223372036854775807"]);
    }
    const bad = await suite.op.call("GET", `${url}/audit?action=delete-everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("action");
  });
});
