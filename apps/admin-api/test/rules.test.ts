// admin-api rule versions: saving and validating drafts, dry runs of leaderboard moves, and queuing activation.
import { type Json, perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

const suite = sharedProject();

describe("creating and validating rule versions", () => {
  it("stores a valid document as version 1 (draft), filling in campaignId, version and the engine's defaults", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const created = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, {
      document: { ...perUnitRules(regEventId, "2"), campaignId: "copy-from", version: 7 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ version: 1, status: "draft", rule_count: 1, activation_job: null });
    expect(created.body.document).toMatchObject({ campaignId, version: 1, currencies: { xp: { name: "Experience", decimals: 2 } } });
    const second = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "3") });
    expect(second.body.version).toBe(2);
    const list = await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions`);
    expect(list.body.rule_versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(list.body.rule_versions[0].document).toBeUndefined();
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions/1`)).body.document.rules[0].base).toEqual({ kind: "perUnit", points: "2" });
  });

  it("gives every version its own number when saves race", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const saves = await Promise.all(
      Array.from({ length: 5 }, () => suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") })),
    );
    expect(saves.map((s) => s.status)).toEqual([201, 201, 201, 201, 201]);
    expect(saves.map((s) => s.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("refuses an invalid document with rule-version-invalid, naming the path of the first problem", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const doc = perUnitRules(regEventId, "0");
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: doc });
    expect(res).toMatchObject({
      status: 400,
      body: { error: { code: "rule-version-invalid", message: "document.rules[0].base.points must be greater than 0" } },
    });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, {})).body.error.message).toBe("document: is required");
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: [1] })).body.error.message).toBe(
      "document must be a JSON object",
    );
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions`)).body.rule_versions).toEqual([]);
  });

  it("checks what only the campaign knows: its event types (not retired), currencies and primary currency", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const other = await setUpCampaign(suite.op);
    const foreign = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/validate`, { document: perUnitRules(other.regEventId, "1") });
    expect(foreign.body).toEqual({
      valid: false,
      issues: [{ path: "rules[0].regEventId", message: "must be the reg_event_id of an event type registered in this campaign" }],
    });

    const gold = perUnitRules(regEventId, "1", { currencies: { xp: { name: "XP" }, gold: { name: "Gold" } } });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/validate`, { document: gold })).body.issues).toEqual([
      { path: "currencies.gold", message: "must be a currency of the campaign (xp, gems)" },
    ]);
    const gems = perUnitRules(regEventId, "1", { primaryCurrency: "gems", currencies: { xp: { name: "XP" }, gems: { name: "Gems" } } });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/validate`, { document: gems })).body.issues).toEqual([
      { path: "primaryCurrency", message: "must be the campaign's primary currency (xp)" },
    ]);

    await suite.op.call("POST", `/api/campaigns/${campaignId}/event-types/${regEventId}/retire`);
    const retired = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    expect(retired.body.error.message).toBe("document.rules[0].regEventId must not name a retired event type (trade_volume)");
  });

  it("lists every problem of a document through the validate endpoint without storing anything", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const doc = { ...perUnitRules(regEventId, "-1"), rules: [{ id: "a b", regEventId, currency: "xp", base: { kind: "perUnit", points: "-1" } }] };
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/validate`, { document: doc });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(["rules[0].base.points", "rules[0].id"]);
    const ok = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/validate`, { document: perUnitRules(regEventId, "1.5") });
    expect(ok.body).toMatchObject({ valid: true, issues: [], document: { version: 1 } });
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions`)).body.rule_versions).toEqual([]);
  });

  it("answers 400 for a malformed version number and 404 for a missing one", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions/abc`)).body.error.message).toBe("version must be a positive integer");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions/0`)).status).toBe(400);
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions/9`)).body.error.code).toBe("rule-version-not-found");
  });
});

describe("dry runs", () => {
  const alice = "0x00000000000000000000000000000000000000a1";
  const bob = "0x00000000000000000000000000000000000000b2";

  it("shows who moves on the leaderboard, with ranks and points before and after, without changing anything", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const [aliceId, , bobId] = await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EVM_ADDRESS", accountId: alice, amount: "10", regEventId },
      { identityType: "EVM_ADDRESS", accountId: alice, amount: "5", regEventId },
      { identityType: "EVM_ADDRESS", accountId: bob, amount: "20", regEventId },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });

    // Nothing active yet: everybody enters the board.
    const first = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/dry-run`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      currency: "xp",
      before_version: null,
      after_version: 1,
      events: 3,
      users_before: 0,
      users_after: 2,
      unchanged: 0,
      moves_total: 2,
    });
    expect(first.body.moves.map((m: Json) => [m.user_id, m.rank_before, m.rank_after, m.points_after])).toEqual([
      [bobId, null, 1, String(20 * 2)],
      [aliceId, null, 2, String((10 + 5) * 2)],
    ]);
    expect(first.body.moves[0].identity).toEqual({ identity_type: "EVM_ADDRESS", account_id: bob, handle: null });

    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const fixed = { ...perUnitRules(regEventId, "1"), rules: [{ id: "per-trade", regEventId, currency: "xp", base: { kind: "fixed", points: "10" } }] };
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: fixed });
    const second = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/2/dry-run`, { at: "2030-01-01T00:00:00Z" });
    expect(second.body).toMatchObject({ before_version: 1, after_version: 2, at: "2030-01-01T00:00:00Z", users_before: 2, users_after: 2, unchanged: 0 });
    // Alice traded twice (2 x 10 fixed), Bob once (1 x 10): they swap places.
    expect(second.body.moves).toEqual([
      expect.objectContaining({
        user_id: aliceId,
        rank_before: 2,
        rank_after: 1,
        rank_change: 1,
        points_before: "30",
        points_after: String(2 * 10),
        points_change: String(2 * 10 - 30),
      }),
      expect.objectContaining({
        user_id: bobId,
        rank_before: 1,
        rank_after: 2,
        rank_change: -1,
        points_before: "40",
        points_after: String(10),
        points_change: String(10 - 40),
      }),
    ]);
    const versions = await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions`);
    expect(versions.body.rule_versions.map((v: Json) => [v.version, v.status])).toEqual([
      [2, "draft"],
      [1, "active"],
    ]);
  });

  it("refuses an unknown currency and a log larger than DRY_RUN_MAX_EVENTS", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EVM_ADDRESS", accountId: alice, amount: "1", regEventId },
      { identityType: "EVM_ADDRESS", accountId: alice, amount: "1", regEventId },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/dry-run`, { currency: "gold" })).body.error).toEqual({
      code: "validation-failed",
      message: "currency must be a currency of the rule versions (xp)",
    });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/dry-run`, { limit: 0 })).status).toBe(400);
    const limit = suite.h.deps.env.DRY_RUN_MAX_EVENTS;
    suite.h.deps.env.DRY_RUN_MAX_EVENTS = 1;
    try {
      const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/dry-run`, {});
      expect(res).toMatchObject({ status: 409, body: { error: { code: "log-too-large" } } });
      // A log of exactly the limit is replayed.
      suite.h.deps.env.DRY_RUN_MAX_EVENTS = 2;
      expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/dry-run`, {})).status).toBe(200);
    } finally {
      suite.h.deps.env.DRY_RUN_MAX_EVENTS = limit;
    }
  });
});

describe("activation", () => {
  it("queues a rule-activation recompute job counting the campaign's events, and leaves the version draft until the worker switches", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    await logEvents(suite.h.deps.db, campaignId, [
      { identityType: "EMAIL", accountId: "a@pointwise.test", amount: "1", regEventId },
      { identityType: "EMAIL", accountId: "b@pointwise.test", amount: "2", regEventId },
    ]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    const activated = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {});
    expect(activated.status).toBe(202);
    expect(activated.body).toMatchObject({
      version: 1,
      status: "draft",
      job: { rule_version: 1, reason: "rule-activation", status: "queued", events_total: 2, events_done: 0, progress: 0 },
    });
    const { rows } = await suite.h.deps.db.query("SELECT campaign_id, rule_version, reason, status, events_total::int FROM recompute_job WHERE id = $1", [
      activated.body.job.id,
    ]);
    expect(rows).toEqual([{ campaign_id: campaignId, rule_version: 1, reason: "rule-activation", status: "queued", events_total: 2 }]);

    // A second activation while one is pending is refused.
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/2/activate`, {})).body.error.code).toBe("recompute-in-progress");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions/1`)).body.activation_job.id).toBe(activated.body.job.id);
  });

  it("lets one of two activations sent at once through and refuses the other with recompute-in-progress; the switch leaves one version active", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    for (const points of ["1", "2", "3"]) {
      await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, points) });
    }
    await activateAsWorker(suite.h.deps.db, campaignId, 1);

    const answers = await Promise.all([2, 3].map((v) => suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/${v}/activate`, {})));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const won = answers.find((a) => a.status === 202)?.body.version as number;
    const lost = won === 2 ? 3 : 2;
    expect(answers.find((a) => a.status === 409)?.body.error).toEqual({
      code: "recompute-in-progress",
      message: `rule version ${won} is being activated; wait until its recompute finishes`,
    });
    const { rows: jobs } = await suite.h.deps.db.query("SELECT rule_version FROM recompute_job WHERE campaign_id = $1 AND reason = 'rule-activation'", [
      campaignId,
    ]);
    expect(jobs).toEqual([{ rule_version: won }]);

    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'done', finished_at = now() WHERE campaign_id = $1", [campaignId]);
    await activateAsWorker(suite.h.deps.db, campaignId, won);
    const list = await suite.op.call("GET", `/api/campaigns/${campaignId}/rule-versions`);
    const statusOf = Object.fromEntries(list.body.rule_versions.map((v: Json) => [v.version, v.status]));
    expect(statusOf).toEqual({ 1: "superseded", [won]: "active", [lost]: "draft" });
  });

  it("refuses to activate a version whose decay range has run out since it was saved, queuing nothing", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const hourly = (epoch: string) =>
      perUnitRules(regEventId, "1", { currencies: { xp: { name: "Experience", decimals: 2, decay: { halfLifeSeconds: 3600, epoch } } } });
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const saved = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: hourly(hoursAgo(3000)) });
    expect(saved.status).toBe(201);
    // Saved long ago: its epoch now lies more than 4001 hours back.
    await suite.h.deps.db.query(
      "UPDATE rule_version SET document = jsonb_set(document, '{currencies,xp,decay,epoch}', to_jsonb($2::text)) WHERE campaign_id = $1 AND version = 1",
      [campaignId, hoursAgo(4100)],
    );
    const refused = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {});
    expect([refused.status, refused.body.error.code]).toEqual([400, "rule-version-invalid"]);
    expect(refused.body.error.message).toMatch(
      /^rule version 1 cannot be activated: document\.currencies\.xp\.decay\.epoch must be at or after \S+: points decay over fewer than 4001 half-lives of 3600 s from the epoch, and events come until now/,
    );
    const { rows } = await suite.h.deps.db.query("SELECT 1 FROM recompute_job WHERE campaign_id = $1", [campaignId]);
    expect(rows).toEqual([]);
  });

  it("reports the worker's progress from the job row, and refuses to activate the active version again", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    await logEvents(suite.h.deps.db, campaignId, [{ identityType: "EMAIL", accountId: "a@pointwise.test", amount: "1", regEventId }]);
    await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    const { body } = await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {});
    const jobUrl = `/api/campaigns/${campaignId}/recompute-jobs/${body.job.id}`;

    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'running', started_at = now(), events_total = 4, events_done = 1 WHERE id = $1", [
      body.job.id,
    ]);
    expect((await suite.op.call("GET", jobUrl)).body).toMatchObject({
      status: "running",
      events_total: 4,
      events_done: 1,
      progress: 1 / 4,
      started_at: expect.any(String),
    });

    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'done', finished_at = now(), events_done = 4 WHERE id = $1", [body.job.id]);
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    expect((await suite.op.call("GET", jobUrl)).body).toMatchObject({ status: "done", progress: 1, finished_at: expect.any(String) });
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/recompute-jobs`)).body.recompute_jobs.map((j: { id: string }) => j.id)).toEqual([
      body.job.id,
    ]);
    expect((await suite.op.call("POST", `/api/campaigns/${campaignId}/rule-versions/1/activate`, {})).body.error.code).toBe("rule-version-active");
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/recompute-jobs/00000000-0000-4000-8000-000000000000`)).body.error.code).toBe(
      "recompute-job-not-found",
    );
    expect((await suite.op.call("GET", `/api/campaigns/${campaignId}/recompute-jobs/nope`)).body.error.message).toBe("job_id must be a uuid");
  });
});
