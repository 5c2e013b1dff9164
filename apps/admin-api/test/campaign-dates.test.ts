// admin-api: changing a campaign's dates queues a recompute like a rule activation, and nothing else does.
import { perUnitRules, setUpCampaign } from "./harness";
import { sharedProject } from "./project";
import { activateAsWorker, logEvents } from "./seed";

const suite = sharedProject();

const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** A campaign with dates, three logged events and, unless `active` is false, rule version 1 active. */
async function scoredCampaign(active = true) {
  const { campaignId, regEventId } = await setUpCampaign(suite.op);
  const url = `/api/campaigns/${campaignId}`;
  await suite.op.call("PATCH", url, { starts_at: "2026-01-01T00:00:00Z", ends_at: "2026-03-01T00:00:00Z" });
  await logEvents(
    suite.h.deps.db,
    campaignId,
    [1, 2, 2].map((n) => ({ identityType: "EVM_ADDRESS", accountId: wallet(n), amount: "5", regEventId, receivedAt: "2026-01-10T12:00:00Z" })),
  );
  await suite.op.call("POST", `${url}/rule-versions`, { document: perUnitRules(regEventId, "1") });
  if (active) await activateAsWorker(suite.h.deps.db, campaignId, 1);
  return { campaignId, regEventId, url };
}

async function jobsOf(campaignId: string) {
  const { rows } = await suite.h.deps.db.query<{ id: string; reason: string; status: string; rule_version: number; events_total: number }>(
    "SELECT id, reason, status, rule_version, events_total::int FROM recompute_job WHERE campaign_id = $1 ORDER BY queue_seq",
    [campaignId],
  );
  return rows;
}

describe("changing a campaign's dates", () => {
  it("queues a campaign-dates recompute of the whole log under the active version when starts_at changes, and answers it", async () => {
    const { campaignId, url } = await scoredCampaign();
    const res = await suite.op.call("PATCH", url, { starts_at: "2026-01-15T00:00:00Z" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: campaignId, starts_at: "2026-01-15T00:00:00.000Z", ends_at: "2026-03-01T00:00:00.000Z" });
    // Three events were logged; version 1 is the active one.
    expect(res.body.recompute_job).toMatchObject({ campaign_id: campaignId, reason: "campaign-dates", status: "queued", rule_version: 1, events_total: 3 });
    expect(await jobsOf(campaignId)).toEqual([{ id: res.body.recompute_job.id, reason: "campaign-dates", status: "queued", rule_version: 1, events_total: 3 }]);
    const job = await suite.op.call("GET", `${url}/recompute-jobs/${res.body.recompute_job.id}`);
    expect(job.body).toEqual(res.body.recompute_job);
  });

  it.each([
    [{ ends_at: "2026-02-01T00:00:00Z" }, "ends_at moved"],
    [{ ends_at: null }, "ends_at cleared"],
    [{ starts_at: null }, "starts_at cleared"],
    [{ name: "Renamed", starts_at: "2025-12-01T00:00:00Z" }, "starts_at moved with another field"],
  ])("queues one for %j (%s)", async (change, _what) => {
    const { campaignId, url } = await scoredCampaign();
    const res = await suite.op.call("PATCH", url, change);
    expect(res.status).toBe(200);
    expect(res.body.recompute_job).toMatchObject({ reason: "campaign-dates", status: "queued" });
    expect((await jobsOf(campaignId)).map((j) => j.reason)).toEqual(["campaign-dates"]);
  });

  it("queues nothing when the dates do not change: other fields only, the same dates again, the same instant in another offset", async () => {
    const { campaignId, url } = await scoredCampaign();
    const unchanged = [
      { name: "Only the name" },
      { currencies: { xp: "XP", gems: "Gems" } },
      { starts_at: "2026-01-01T00:00:00Z", ends_at: "2026-03-01T00:00:00Z" },
      // 2026-01-01T01:00:00+01:00 is 2026-01-01T00:00:00Z.
      { starts_at: "2026-01-01T01:00:00+01:00" },
      { ends_at: "2026-03-01T00:00:00.000Z" },
    ];
    for (const change of unchanged) {
      const res = await suite.op.call("PATCH", url, change);
      expect(res.status).toBe(200);
      expect(res.body.recompute_job).toBeNull();
    }
    expect(await jobsOf(campaignId)).toEqual([]);
    expect((await suite.op.call("GET", url)).body).toMatchObject({ name: "Only the name", starts_at: "2026-01-01T00:00:00.000Z" });
  });

  it("queues nothing when no rule version is active (there are no scores), and still changes the dates", async () => {
    const { campaignId, url } = await scoredCampaign(false);
    const res = await suite.op.call("PATCH", url, { starts_at: "2026-01-20T00:00:00Z" });
    expect(res.body).toMatchObject({ starts_at: "2026-01-20T00:00:00.000Z", recompute_job: null });
    expect(await jobsOf(campaignId)).toEqual([]);
  });

  it("reuses the queued job for further changes, and queues a new one once the worker has started it", async () => {
    const { campaignId, url } = await scoredCampaign();
    const first = await suite.op.call("PATCH", url, { starts_at: "2026-01-02T00:00:00Z" });
    const second = await suite.op.call("PATCH", url, { ends_at: "2026-04-01T00:00:00Z" });
    expect(second.body.recompute_job.id).toBe(first.body.recompute_job.id);
    expect(await jobsOf(campaignId)).toHaveLength(1);
    // A running job may have read the dates before this change: the change gets a job of its own.
    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'running', started_at = now() WHERE id = $1", [first.body.recompute_job.id]);
    const third = await suite.op.call("PATCH", url, { ends_at: "2026-05-01T00:00:00Z" });
    expect(third.body.recompute_job.id).not.toBe(first.body.recompute_job.id);
    expect((await jobsOf(campaignId)).map((j) => [j.reason, j.status])).toEqual([
      ["campaign-dates", "running"],
      ["campaign-dates", "queued"],
    ]);
  });

  it("queues one after an activation the worker is running (it may have read the old dates) and none for a merely queued one", async () => {
    const { campaignId, url } = await scoredCampaign(false);
    const activation = await suite.op.call("POST", `${url}/rule-versions/1/activate`, {});
    expect(activation.status).toBe(202);
    // Queued, not started: the activation will read the new dates itself.
    expect((await suite.op.call("PATCH", url, { starts_at: "2026-01-03T00:00:00Z" })).body.recompute_job).toBeNull();
    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'running', started_at = now() WHERE id = $1", [activation.body.job.id]);
    const res = await suite.op.call("PATCH", url, { starts_at: "2026-01-04T00:00:00Z" });
    expect(res.body.recompute_job).toMatchObject({ reason: "campaign-dates", status: "queued", rule_version: 1 });
    expect((await jobsOf(campaignId)).map((j) => j.reason)).toEqual(["rule-activation", "campaign-dates"]);
    // A queued date recompute does not hold up the next activation.
    await suite.h.deps.db.query("UPDATE recompute_job SET status = 'done' WHERE id = $1", [activation.body.job.id]);
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const { body: v2 } = await suite.op.call("POST", `${url}/rule-versions`, {
      document: (await suite.op.call("GET", `${url}/rule-versions/1`)).body.document,
    });
    expect((await suite.op.call("POST", `${url}/rule-versions/${v2.version}/activate`, {})).status).toBe(202);
  });

  it("changes nothing and queues nothing when the new dates are refused", async () => {
    const { campaignId, url } = await scoredCampaign();
    const res = await suite.op.call("PATCH", url, { ends_at: "2025-12-31T00:00:00Z" });
    expect(res).toMatchObject({ status: 400, body: { error: { code: "validation-failed", message: "ends_at: must be later than starts_at" } } });
    expect((await suite.op.call("PATCH", url, { starts_at: "soon" })).body.error.message).toContain("starts_at: must be an ISO 8601 date-time");
    const yearZero = await suite.op.call("PATCH", url, { starts_at: "0000-01-01T00:00:00Z" });
    expect([yearZero.status, yearZero.body.error.message]).toEqual([400, "starts_at: must not be in the year 0000, which PostgreSQL's calendar does not have"]);
    expect((await suite.op.call("GET", url)).body).toMatchObject({ starts_at: "2026-01-01T00:00:00.000Z", ends_at: "2026-03-01T00:00:00.000Z" });
    expect(await jobsOf(campaignId)).toEqual([]);
  });

  it("never stores an end before the start when two changes of different dates race", async () => {
    const { campaignId, url } = await scoredCampaign();
    // Each alone is valid against 2026-01-01 .. 2026-03-01; together the end would come before the start.
    const [a, b] = await Promise.all([
      suite.op.call("PATCH", url, { starts_at: "2026-02-15T00:00:00Z" }),
      suite.op.call("PATCH", url, { ends_at: "2026-02-01T00:00:00Z" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect([a, b].find((r) => r.status === 400)?.body.error).toEqual({ code: "validation-failed", message: "ends_at: must be later than starts_at" });
    const { body: stored } = await suite.op.call("GET", url);
    expect(Date.parse(stored.ends_at)).toBeGreaterThan(Date.parse(stored.starts_at));
    expect(await jobsOf(campaignId)).toHaveLength(1);
  });
});

describe("changing a campaign's dates under rules with decay", () => {
  const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  const hourly = (regEventId: string, epoch: string) =>
    perUnitRules(regEventId, "1", { currencies: { xp: { name: "Experience", decimals: 2, decay: { halfLifeSeconds: 3600, epoch } } } });

  /** A campaign that ended 50 hours ago, with hourly decay from an epoch 4021 hours ago: it scores until 20 hours ago (4001 half-lives on). */
  async function endedCampaign() {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const url = `/api/campaigns/${campaignId}`;
    expect((await suite.op.call("PATCH", url, { ends_at: hoursFromNow(-50) })).status).toBe(200);
    expect((await suite.op.call("POST", `${url}/rule-versions`, { document: hourly(regEventId, hoursFromNow(-4021)) })).status).toBe(201);
    return { campaignId, url };
  }

  it("refuses with 409 dates-outside-decay-range an end the active version's decay range does not reach, changing and queuing nothing", async () => {
    const { campaignId, url } = await endedCampaign();
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    const before = (await suite.op.call("GET", url)).body;
    const later = await suite.op.call("PATCH", url, { ends_at: hoursFromNow(-10) });
    expect([later.status, later.body.error.code]).toEqual([409, "dates-outside-decay-range"]);
    expect(later.body.error.message).toMatch(
      /^ends_at: the active rule version \(1\) cannot score these dates: document\.currencies\.xp\.decay\.epoch must be at or after \S+: points decay over fewer than 4001 half-lives of 3600 s from the epoch, and events come until the campaign's ends_at \(\S+\); activate a version with another epoch first$/,
    );
    const open = await suite.op.call("PATCH", url, { ends_at: null });
    expect([open.status, open.body.error.code]).toEqual([409, "dates-outside-decay-range"]);
    expect(open.body.error.message).toMatch(/and events come until now \(\S+\); activate a version with another epoch first$/);
    expect((await suite.op.call("GET", url)).body).toEqual(before);
    expect(await jobsOf(campaignId)).toEqual([]);
    // An end the range still reaches is taken.
    const within = await suite.op.call("PATCH", url, { ends_at: hoursFromNow(-30) });
    expect([within.status, within.body.recompute_job?.reason]).toEqual([200, "campaign-dates"]);
  });

  it("takes new dates when the active version could not score the old ones either (the campaign is held until a new version)", async () => {
    const { campaignId, url } = await endedCampaign();
    await activateAsWorker(suite.h.deps.db, campaignId, 1);
    // Its range ran out before the old end as well: the change does not make it worse.
    await suite.h.deps.db.query(
      "UPDATE rule_version SET document = jsonb_set(document, '{currencies,xp,decay,epoch}', to_jsonb($2::text)) WHERE campaign_id = $1 AND version = 1",
      [campaignId, hoursFromNow(-5000)],
    );
    expect((await suite.op.call("PATCH", url, { ends_at: hoursFromNow(-10) })).status).toBe(200);
  });

  it("refuses a start that puts the epoch of the version being activated more than 30 half-lives after the first awards", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const url = `/api/campaigns/${campaignId}`;
    expect((await suite.op.call("PATCH", url, { starts_at: hoursFromNow(100) })).status).toBe(200);
    expect((await suite.op.call("POST", `${url}/rule-versions`, { document: hourly(regEventId, hoursFromNow(125)) })).status).toBe(201);
    expect((await suite.op.call("POST", `${url}/rule-versions/1/activate`, {})).status).toBe(202);
    const sooner = await suite.op.call("PATCH", url, { starts_at: hoursFromNow(1) });
    expect([sooner.status, sooner.body.error.code]).toEqual([409, "dates-outside-decay-range"]);
    expect(sooner.body.error.message).toMatch(
      /^starts_at: the rule version being activated \(1\) cannot score these dates: document\.currencies\.xp\.decay\.epoch must be at or before \S+: at most 30 half-lives of 3600 s after the first awards \(the campaign's starts_at\)/,
    );
    expect((await suite.op.call("PATCH", url, { starts_at: hoursFromNow(99) })).status).toBe(200);
  });

  it("lets only one of an activation and a date change that cannot both stand through when they come at once", async () => {
    const { campaignId, url } = await endedCampaign();
    // Alone, each is accepted: version 1 reaches the present end, and nothing scores yet with the later end.
    const [activation, change] = await Promise.all([
      suite.op.call("POST", `${url}/rule-versions/1/activate`, {}),
      suite.op.call("PATCH", url, { ends_at: hoursFromNow(-10) }),
    ]);
    const outcome = [`${activation.status} ${activation.body.error?.code ?? ""}`, `${change.status} ${change.body.error?.code ?? ""}`];
    expect([
      ["202 ", "409 dates-outside-decay-range"],
      ["400 rule-version-invalid", "200 "],
    ]).toContainEqual(outcome);
    expect((await jobsOf(campaignId)).map((j) => j.reason)).toEqual(activation.status === 202 ? ["rule-activation"] : []);
  });
});
