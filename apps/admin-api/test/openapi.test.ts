// admin-api's OpenAPI document: exactly the served routes, and every answer of a walk through the API.
import { listRoutes, loadOpenApi } from "@pointwise/testkit";
import { startClaimsChain } from "./claims-chain-setup";
import { type Operator, perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

// The walk starts a local hardhat chain for the token-claim epochs, which takes a while on a busy machine.
jest.setTimeout(180_000);

const suite = sharedProject();
const api = loadOpenApi("admin");

/** Express's `:camelCase` parameters as the document spells them: `{snake_case}`, the campaign as `{campaign_id}`. */
function documented(route: string): string {
  return route.replace(/:id\b/, "{campaign_id}").replace(/:(\w+)/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`);
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes exactly the endpoints the app serves", () => {
    expect(api.doc.openapi).toMatch(/^3\.1\./);
    const served = listRoutes(suite.h.app)
      .filter((r) => r.includes(" /api/"))
      .map((r) => {
        const [method, path] = r.split(" ");
        return `${method} ${documented(path as string)}`;
      });
    expect(served.sort()).toEqual(api.operations().sort());
  });

  it("is served at /api/openapi.yaml without signing in", async () => {
    const res = await suite.h.call("GET", "/api/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/yaml");
    expect(res.body).toBe(api.text);
  });

  it("has a checker that notices a body, a status or a path the document does not describe", () => {
    expect(() => api.check("GET", "/api/campaigns", 200, { campaigns: [{ id: "abcd-0000" }] })).toThrow(/does not match/);
    expect(() => api.check("GET", "/api/campaigns/abcd-0000", 418, {})).toThrow(/does not list/);
    expect(() => api.check("GET", "/api/nowhere", 200, {})).toThrow(/not in the OpenAPI document/);
    expect(() => api.check("GET", "/api/campaigns/abcd-0000", 404, { error: { code: "campaign-not-found", message: "m" } })).not.toThrow();
  });

  it("matches every answer of a full walk through the API, success and failure", async () => {
    const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>, who: Operator | null = suite.op) => {
      const res = who ? await who.call(method, path, body, headers) : await suite.h.call(method, path, body, headers);
      api.check(method, path, res.status, res.body);
      return res;
    };
    await call("POST", "/api/auth/login", { email: suite.op.email, password: "a-long-enough-password" }, undefined, null);
    await call("POST", "/api/auth/login", { email: suite.op.email, password: "wrong" }, undefined, null);
    await call("GET", "/api/me");
    await call("GET", "/api/campaigns", undefined, undefined, null);
    await call("POST", "/api/operators", { email: "doc@pointwise.test", password: "documented-password" });
    await call("POST", "/api/operators", { email: "doc@pointwise.test", password: "documented-password" });
    await call("GET", "/api/operators");
    const colleague = await suite.h.addOperator(suite.op.projectId);
    const colleagueId = (await call("GET", "/api/me", undefined, undefined, colleague)).body.operator.id;
    await call("POST", "/api/me/password", { current_password: "wrong", new_password: "another-long-password" }, undefined, colleague);
    await call("POST", "/api/me/password", { current_password: "a-long-enough-password", new_password: "x" }, undefined, colleague);
    await call("POST", "/api/me/password", { current_password: "a-long-enough-password", new_password: "another-long-password" }, undefined, colleague);
    await call("GET", "/api/me", undefined, undefined, colleague);
    await call("DELETE", `/api/operators/${colleagueId}`);
    await call("DELETE", `/api/operators/${colleagueId}`);
    await call("DELETE", `/api/operators/${(await call("GET", "/api/me")).body.operator.id}`);
    await call("DELETE", "/api/operators/nope");
    const leaver = await suite.h.addOperator(suite.op.projectId);
    await call("POST", "/api/auth/logout", undefined, undefined, leaver);
    await call("POST", "/api/auth/logout", undefined, undefined, leaver);
    await call("POST", "/api/auth/login", { email: leaver.email, password: "a-long-enough-password", project_id: "nope" }, undefined, null);
    for (let i = 0; i < 6; i++) await call("POST", "/api/auth/login", { email: "guesser@pointwise.test", password: "wrong" }, undefined, null);

    const { campaignId: id, regEventId } = await setUpCampaign(suite.op);
    const c = `/api/campaigns/${id}`;
    await call("POST", "/api/campaigns", { name: "Doc", currencies: { xp: "XP" }, primary_currency: "xp", starts_at: "2026-01-01T00:00:00Z" });
    await call("POST", "/api/campaigns", { name: "" });
    await call("GET", "/api/campaigns");
    await call("GET", c);
    await call("GET", "/api/campaigns/zzzz-0000");
    await call("PATCH", c, { name: "Renamed", ends_at: null });
    await call("GET", `${c}/bad-words`);
    await call("PUT", `${c}/bad-words`, { bad_words: ["scam"] });

    const key = await call("POST", `${c}/api-keys`, { label: "doc" });
    await call("POST", `${c}/api-keys`, { label: "history", backfill: true });
    await call("GET", `${c}/api-keys`);
    await call("PATCH", `${c}/api-keys/${key.body.id}`, { backfill: true, label: null });
    await call("PATCH", `${c}/api-keys/${key.body.id}`, { backfill: "yes" });
    await call("POST", `${c}/api-keys/${key.body.id}/revoke`);
    await call("PATCH", `${c}/api-keys/${key.body.id}`, { backfill: false });
    await call("POST", `${c}/api-keys/nope/revoke`);
    await call("GET", `${c}/event-types`);
    const extra = await call("POST", `${c}/event-types`, { name: "to_retire", description: "gone soon" });
    await call("POST", `${c}/event-types`, { name: "to_retire" });
    await call("POST", `${c}/event-types/${extra.body.reg_event_id}/retire`);

    const [userA, userB] = await logEvents(suite.h.deps.db, id, [
      { identityType: "EVM_ADDRESS", accountId: "0x00000000000000000000000000000000000000a1", amount: "10", regEventId },
      { identityType: "EMAIL", accountId: "b@pointwise.test", amount: "4", regEventId },
    ]);
    await call("POST", `${c}/rule-versions/validate`, { document: perUnitRules(regEventId, "0") });
    await call("POST", `${c}/rule-versions/validate`, { document: perUnitRules(regEventId, "1") });
    await call("POST", `${c}/rule-versions`, { document: perUnitRules(regEventId, "0") });
    await call("POST", `${c}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    await call("POST", `${c}/rule-versions/1/dry-run`, {});
    await call("POST", `${c}/rule-versions/1/activate`, {});
    await call("POST", `${c}/rule-versions/1/activate`, {});
    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'done' WHERE campaign_id = $1", [id]);
    await activateAsWorker(suite.h.deps.db, id, 1);
    await call("POST", `${c}/rule-versions`, { document: perUnitRules(regEventId, "2") });
    await call("GET", `${c}/rule-versions`);
    await call("GET", `${c}/rule-versions/2`);
    await call("GET", `${c}/rule-versions/x`);
    await call("POST", `${c}/rule-versions/2/dry-run`, { at: "2030-01-01T00:00:00Z", limit: 5 });
    await call("PATCH", c, { starts_at: "2025-01-01T00:00:00Z" });
    await call("PATCH", c, { starts_at: "2025-01-01T00:00:00Z" });
    const activation = await call("POST", `${c}/rule-versions/2/activate`, {});
    await call("GET", `${c}/recompute-jobs`);
    await call("GET", `${c}/recompute-jobs/${activation.body.job.id}`);

    await call("GET", `${c}/users?identity_type=EMAIL&account_id=b@pointwise.test`);
    await call("GET", `${c}/users?identity_type=EMAIL&account_id=nobody@pointwise.test`);
    await call("GET", `${c}/users/${userA}`);
    await call("PATCH", `${c}/users/${userB}`, { display_name: "Bee", referrer_id: userA });
    await call("PATCH", `${c}/users/${userB}`, { referrer_id: null });
    const linked = await call("POST", `${c}/users/${userA}/identities`, { identity_type: "X_PROVIDER_ID", account_id: "12345", handle: "doc_user" });
    await call("POST", `${c}/users/${userA}/identities`, { identity_type: "EMAIL", account_id: "b@pointwise.test" });
    await call("PATCH", `${c}/users/${userA}/identities/${linked.body.identity.id}`, { handle: "renamed" });
    await call("DELETE", `${c}/users/${userA}/identities/${linked.body.identity.id}`);
    await call("GET", `${c}/users/${userA}/ledger?limit=1`);
    await call("GET", `${c}/leaderboard`);
    await call("GET", `${c}/chart?bucket=hour&points=3`);

    const csv = `account_id,identity_type,amount,reg_event_id\n0x00000000000000000000000000000000000000a1,EVM_ADDRESS,1,${regEventId}\nx,EMAIL,1,${regEventId}\n`;
    const upload = await call("POST", `${c}/csv-imports?mode=accept-valid`, csv, { "content-type": "text/csv" });
    await call("POST", `${c}/csv-imports`, "nope", { "content-type": "text/csv" });
    await call("GET", `${c}/csv-imports`);
    await call("GET", `${c}/csv-imports/${upload.body.import.import_id}`);

    const excluded = await call("POST", `${c}/exclusions`, {
      identity_type: "EVM_ADDRESS",
      account_id: "0x00000000000000000000000000000000000000A1",
      reason: "sybil",
    });
    await call("POST", `${c}/exclusions`, { identity_type: "EVM_ADDRESS", account_id: "0x00000000000000000000000000000000000000a1", reason: "again" });
    await call("POST", `${c}/exclusions`, { user_id: userB, reason: "" });
    await call("POST", `${c}/exclusions/csv?mode=accept-valid&reason=list`, "identity_type,account_id\nEMAIL,farm@pointwise.test\nEMAIL,not-an-email\n", {
      "content-type": "text/csv",
    });
    await call("POST", `${c}/exclusions/csv`, "who,what\n", { "content-type": "text/csv" });
    await call("GET", `${c}/exclusions`);
    await call("DELETE", `${c}/exclusions/${excluded.body.exclusion.id}`);
    await call("DELETE", `${c}/exclusions/${excluded.body.exclusion.id}`);
    const wide = await call("POST", "/api/exclusions", { identity_type: "EMAIL", account_id: "sanctioned@pointwise.test", reason: "sanctions" });
    await call("POST", "/api/exclusions/csv?reason=sanctions", "identity_type,account_id\nBTC_ADDRESS,nope\n", { "content-type": "text/csv" });
    await call("GET", "/api/exclusions");
    await call("DELETE", `/api/exclusions/${wide.body.exclusion.id}`);
    const grant = await call("POST", `${c}/adjustments`, { user_id: userB, currency: "xp", points: "12.5", reason: "bug bounty" });
    await call("POST", `${c}/adjustments`, { user_id: userB, currency: "xp", points: "0", reason: "nothing" });
    await call("POST", `${c}/adjustments`, { reverses: grant.body.id, reason: "granted twice" });
    await call("POST", `${c}/adjustments`, { reverses: grant.body.id, reason: "again" });
    await call(
      "POST",
      `${c}/adjustments/csv?mode=accept-valid`,
      "identity_type,account_id,currency,points,reason\nEMAIL,b@pointwise.test,xp,-1,fix\nEMAIL,b@pointwise.test,nope,1,fix\n",
      {
        "content-type": "text/csv",
      },
    );
    await call("GET", `${c}/adjustments?user_id=${userB}&limit=1`);
    await call("GET", `${c}/audit?limit=2`);
    await call("GET", `${c}/audit?action=nope`);
    await call("GET", "/api/audit?action=adjustment.create");
    // Rewards: the catalogue, codes (kept under a key), a manual redemption decided, and a token-claim epoch published on a local chain.
    const chain = await startClaimsChain();
    try {
      Object.assign(suite.h.deps.env, {
        ...chain.adminEnv,
        CLAIMS_CHAIN_ID: Number(chain.adminEnv.CLAIMS_CHAIN_ID),
        VOUCHER_CODE_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
      });
      await call("PATCH", c, { leaderboard_ranking: "balance" });
      await call("PATCH", c, { leaderboard_ranking: "spent" });
      const gift = await call("POST", `${c}/rewards`, { name: "Gift", kind: "voucher", currency: "xp", price: "5", stock: 10 });
      await call("POST", `${c}/rewards`, { name: "", kind: "voucher", currency: "xp", price: "5" });
      await call("PATCH", `${c}/rewards/${gift.body.id}`, { price: "6", per_user_limit: 1 });
      await call("PATCH", `${c}/rewards/${gift.body.id}`, {});
      await call("POST", `${c}/rewards/${gift.body.id}/codes`, "code\nA-1\nA-1\n", { "content-type": "text/csv" });
      await call("POST", `${c}/rewards/${gift.body.id}/codes?mode=accept-valid`, { codes: ["B-1", "B-2"] });
      await call("GET", `${c}/rewards`);
      const mug = await call("POST", `${c}/rewards`, { name: "Mug", kind: "manual", currency: "xp", price: "1" });
      const coin = await call("POST", `${c}/rewards`, { name: "Coin", kind: "token-claim", currency: "xp", price: "1", token_amount: "1000" });
      await call("POST", `${c}/rewards/${mug.body.id}/codes`, { codes: ["x"] });
      const spend = (rewardId: string, kind: string, status: string, extra: string) =>
        suite.h.deps.db.query<{ id: string }>(
          `INSERT INTO redemption(campaign_id, reward_id, user_id, idempotency_key, request_hash, channel, kind, currency, price, balance_before, balance_after, status${extra ? ", account, token_amount, claim_epoch_id" : ""})
           VALUES ($1, $2, $3, gen_random_uuid()::text, 'h', 'portal', $4, 'xp', 1, 1, 0, $5${extra}) RETURNING id`,
          [id, rewardId, userB, kind, status],
        );
      const pending = (await spend(mug.body.id, "manual", "pending", "")).rows[0]?.id;
      const other = (await spend(mug.body.id, "manual", "pending", "")).rows[0]?.id;
      await suite.h.deps.db.query("INSERT INTO claim_epoch(campaign_id) VALUES ($1)", [id]);
      await spend(coin.body.id, "token-claim", "claimable", `, '0x${"ab".repeat(20)}', 1000, (SELECT id FROM claim_epoch WHERE campaign_id = '${id}')`);
      await call("GET", `${c}/redemptions?status=pending&limit=5`);
      await call("GET", `${c}/redemptions?status=nope`);
      await call("POST", `${c}/redemptions/${pending}/fulfil`, { note: "sent" });
      await call("POST", `${c}/redemptions/${pending}/fulfil`, {});
      await call("POST", `${c}/redemptions/${other}/reject`, { note: "gone" });
      await call("POST", `${c}/redemptions/${other}/reject`, {});
      const epoch = await call("POST", `${c}/claim-epochs/close`);
      await call("POST", `${c}/claim-epochs/close`);
      await call("POST", `${c}/claim-epochs/${epoch.body.epoch}/publish`);
      await call("GET", `${c}/claim-epochs`);
      await suite.h.deps.db.query("INSERT INTO claim_epoch(campaign_id, status, root) VALUES ($1, 'closed', $2)", [id, `0x${"cd".repeat(32)}`]);
      const { rows: closed } = await suite.h.deps.db.query<{ id: string }>("SELECT id::text FROM claim_epoch WHERE campaign_id = $1 AND status = 'closed'", [
        id,
      ]);
      await call("POST", `${c}/claim-epochs/${closed[0]?.id}/publish`);
    } finally {
      await chain.node.stop();
    }
    await call("POST", `${c}/archive`);
    await call("POST", `${c}/api-keys`, {});
    await call("POST", `${c}/restore`);

    const withSuccess = new Set([...api.covered].filter((k) => / 2\d\d$/.test(k)).map((k) => k.replace(/ \d+$/, "")));
    const missing = api.operations().filter((o) => o !== "GET /api/openapi.yaml" && !withSuccess.has(o));
    expect(missing).toEqual([]);
  });
});
