// Tenant isolation in admin-api: no campaign-scoped endpoint lets one project's operator reach another's data.
import { listRoutes } from "@pointwise/testkit";
import { type Harness, type Operator, perUnitRules, setUpCampaign, startHarness } from "./harness";
import { activateAsWorker, logEvents } from "./seed";

let h: Harness;
let a: Operator;
let b: Operator;

/** Ids of project A's things that project B's operator will try. */
interface Ids {
  campaign: string;
  key: string;
  regEvent: string;
  user: string;
  otherUser: string;
  identity: string;
  job: string;
  csvImport: string;
  exclusion: string;
  projectExclusion: string;
  adjustment: string;
}
let A: Ids;
let B: Ids;

async function seedProject(op: Operator): Promise<Ids> {
  const { campaignId, regEventId } = await setUpCampaign(op);
  const key = await op.call("POST", `/api/campaigns/${campaignId}/api-keys`, { label: "k" });
  const [user, otherUser] = await logEvents(h.deps.db, campaignId, [
    { identityType: "EVM_ADDRESS", accountId: "0x00000000000000000000000000000000000000a1", amount: "5", regEventId },
    { identityType: "EMAIL", accountId: "someone@pointwise.test", amount: "7", regEventId },
  ]);
  await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "2") });
  await activateAsWorker(h.deps.db, campaignId, 1);
  await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "3") });
  const job = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/2/activate`, {});
  const detail = await op.call("GET", `/api/campaigns/${campaignId}/users/${user}`);
  const csv = await op.call("POST", `/api/campaigns/${campaignId}/csv-imports`, `account_id,identity_type,amount,reg_event_id\nnobody,EMAIL,1,${regEventId}`, {
    "content-type": "text/csv",
  });
  const exclusion = await op.call("POST", `/api/campaigns/${campaignId}/exclusions`, {
    identity_type: "EMAIL",
    account_id: "farmer@pointwise.test",
    reason: "sybil",
  });
  const projectExclusion = await op.call("POST", "/api/exclusions", { identity_type: "EMAIL", account_id: "sanctioned@pointwise.test", reason: "sanctions" });
  const adjustment = await op.call("POST", `/api/campaigns/${campaignId}/adjustments`, { user_id: user, currency: "xp", points: "5", reason: "bonus" });
  return {
    exclusion: exclusion.body.exclusion.id,
    projectExclusion: projectExclusion.body.exclusion.id,
    adjustment: adjustment.body.id,
    csvImport: csv.body.import.import_id,
    campaign: campaignId,
    key: key.body.id,
    regEvent: regEventId,
    user: user as string,
    otherUser: otherUser as string,
    identity: detail.body.identities[0].id,
    job: job.body.job.id,
  };
}

/** Everything project A owns, as rows, to prove nothing changed. */
async function snapshot(campaignId: string): Promise<unknown> {
  const q = async (sql: string) => (await h.deps.db.query(sql, [campaignId])).rows;
  return {
    campaign: await q("SELECT * FROM campaign WHERE id = $1"),
    keys: await q("SELECT * FROM api_key WHERE campaign_id = $1 ORDER BY id"),
    types: await q("SELECT * FROM event_type WHERE campaign_id = $1 ORDER BY id"),
    rules: await q("SELECT * FROM rule_version WHERE campaign_id = $1 ORDER BY version"),
    users: await q("SELECT * FROM app_user WHERE campaign_id = $1 ORDER BY id"),
    identities: await q("SELECT * FROM identity WHERE campaign_id = $1 ORDER BY id"),
    jobs: await q("SELECT * FROM recompute_job WHERE campaign_id = $1 ORDER BY id"),
    imports: await q("SELECT * FROM csv_import WHERE campaign_id = $1 ORDER BY id"),
    exclusions: await q("SELECT * FROM exclusion WHERE campaign_id = $1 OR project_id = (SELECT project_id FROM campaign WHERE id = $1) ORDER BY id"),
    adjustments: await q("SELECT * FROM score_adjustment WHERE campaign_id = $1 ORDER BY id"),
    scores: await q("SELECT * FROM score WHERE campaign_id = $1 ORDER BY user_id, currency"),
  };
}

beforeAll(async () => {
  h = await startHarness();
  a = await h.newProject("Project A");
  b = await h.newProject("Project B");
  A = await seedProject(a);
  B = await seedProject(b);
});
afterAll(async () => {
  await h?.close();
});

type Case = [route: string, path: (ids: Ids) => string, body?: object | ((ids: Ids) => object)];

const bodyFor = (body: Case[2], ids: Ids) => (typeof body === "function" ? body(ids) : body);

/** Every campaign-scoped endpoint, called with ids of the campaign in `ids`. */
const CAMPAIGN_CASES: Case[] = [
  ["GET /api/campaigns/:id", (i) => `/api/campaigns/${i.campaign}`],
  ["PATCH /api/campaigns/:id", (i) => `/api/campaigns/${i.campaign}`, { name: "taken over" }],
  ["POST /api/campaigns/:id/archive", (i) => `/api/campaigns/${i.campaign}/archive`],
  ["POST /api/campaigns/:id/restore", (i) => `/api/campaigns/${i.campaign}/restore`],
  ["GET /api/campaigns/:id/bad-words", (i) => `/api/campaigns/${i.campaign}/bad-words`],
  ["PUT /api/campaigns/:id/bad-words", (i) => `/api/campaigns/${i.campaign}/bad-words`, { bad_words: ["x"] }],
  ["POST /api/campaigns/:id/api-keys", (i) => `/api/campaigns/${i.campaign}/api-keys`, {}],
  ["GET /api/campaigns/:id/api-keys", (i) => `/api/campaigns/${i.campaign}/api-keys`],
  ["PATCH /api/campaigns/:id/api-keys/:keyId", (i) => `/api/campaigns/${i.campaign}/api-keys/${i.key}`, { backfill: true }],
  ["POST /api/campaigns/:id/api-keys/:keyId/revoke", (i) => `/api/campaigns/${i.campaign}/api-keys/${i.key}/revoke`],
  ["POST /api/campaigns/:id/event-types", (i) => `/api/campaigns/${i.campaign}/event-types`, { name: "intruder" }],
  ["GET /api/campaigns/:id/event-types", (i) => `/api/campaigns/${i.campaign}/event-types`],
  ["POST /api/campaigns/:id/event-types/:regEventId/retire", (i) => `/api/campaigns/${i.campaign}/event-types/${i.regEvent}/retire`],
  ["GET /api/campaigns/:id/rule-versions", (i) => `/api/campaigns/${i.campaign}/rule-versions`],
  ["POST /api/campaigns/:id/rule-versions", (i) => `/api/campaigns/${i.campaign}/rule-versions`, { document: {} }],
  ["POST /api/campaigns/:id/rule-versions/validate", (i) => `/api/campaigns/${i.campaign}/rule-versions/validate`, { document: {} }],
  ["GET /api/campaigns/:id/rule-versions/:version", (i) => `/api/campaigns/${i.campaign}/rule-versions/1`],
  ["POST /api/campaigns/:id/rule-versions/:version/dry-run", (i) => `/api/campaigns/${i.campaign}/rule-versions/2/dry-run`, {}],
  ["POST /api/campaigns/:id/rule-versions/:version/activate", (i) => `/api/campaigns/${i.campaign}/rule-versions/1/activate`, {}],
  ["GET /api/campaigns/:id/recompute-jobs", (i) => `/api/campaigns/${i.campaign}/recompute-jobs`],
  ["GET /api/campaigns/:id/recompute-jobs/:jobId", (i) => `/api/campaigns/${i.campaign}/recompute-jobs/${i.job}`],
  ["GET /api/campaigns/:id/users", (i) => `/api/campaigns/${i.campaign}/users?identity_type=EMAIL&account_id=someone@pointwise.test`],
  ["GET /api/campaigns/:id/users/:userId", (i) => `/api/campaigns/${i.campaign}/users/${i.user}`],
  [
    "PATCH /api/campaigns/:id/users/:userId",
    (i) => `/api/campaigns/${i.campaign}/users/${i.user}`,
    (i) => ({ display_name: "pwned", referrer_id: i.otherUser }),
  ],
  [
    "POST /api/campaigns/:id/users/:userId/identities",
    (i) => `/api/campaigns/${i.campaign}/users/${i.user}/identities`,
    { identity_type: "EMAIL", account_id: "someone@pointwise.test" },
  ],
  [
    "PATCH /api/campaigns/:id/users/:userId/identities/:identityId",
    (i) => `/api/campaigns/${i.campaign}/users/${i.user}/identities/${i.identity}`,
    { handle: null },
  ],
  ["DELETE /api/campaigns/:id/users/:userId/identities/:identityId", (i) => `/api/campaigns/${i.campaign}/users/${i.user}/identities/${i.identity}`],
  ["GET /api/campaigns/:id/users/:userId/ledger", (i) => `/api/campaigns/${i.campaign}/users/${i.user}/ledger`],
  ["GET /api/campaigns/:id/leaderboard", (i) => `/api/campaigns/${i.campaign}/leaderboard`],
  ["GET /api/campaigns/:id/chart", (i) => `/api/campaigns/${i.campaign}/chart`],
  ["POST /api/campaigns/:id/csv-imports", (i) => `/api/campaigns/${i.campaign}/csv-imports`],
  ["GET /api/campaigns/:id/csv-imports", (i) => `/api/campaigns/${i.campaign}/csv-imports`],
  ["GET /api/campaigns/:id/csv-imports/:importId", (i) => `/api/campaigns/${i.campaign}/csv-imports/${i.csvImport}`],
  ["GET /api/campaigns/:id/exclusions", (i) => `/api/campaigns/${i.campaign}/exclusions`],
  ["POST /api/campaigns/:id/exclusions", (i) => `/api/campaigns/${i.campaign}/exclusions`, (i) => ({ user_id: i.user, reason: "x" })],
  ["POST /api/campaigns/:id/exclusions/csv", (i) => `/api/campaigns/${i.campaign}/exclusions/csv?reason=x`],
  ["DELETE /api/campaigns/:id/exclusions/:exclusionId", (i) => `/api/campaigns/${i.campaign}/exclusions/${i.exclusion}`],
  ["GET /api/campaigns/:id/adjustments", (i) => `/api/campaigns/${i.campaign}/adjustments`],
  ["POST /api/campaigns/:id/adjustments", (i) => `/api/campaigns/${i.campaign}/adjustments`, (i) => ({ reverses: i.adjustment, reason: "x" })],
  ["POST /api/campaigns/:id/adjustments/csv", (i) => `/api/campaigns/${i.campaign}/adjustments/csv`],
  ["GET /api/campaigns/:id/audit", (i) => `/api/campaigns/${i.campaign}/audit`],
  ["GET /api/campaigns/:id/rewards", (i) => `/api/campaigns/${i.campaign}/rewards`],
  ["POST /api/campaigns/:id/rewards", (i) => `/api/campaigns/${i.campaign}/rewards`, { name: "r", kind: "manual", currency: "xp", price: "1" }],
  ["PATCH /api/campaigns/:id/rewards/:rewardId", (i) => `/api/campaigns/${i.campaign}/rewards/${i.user}`, { name: "taken over" }],
  ["POST /api/campaigns/:id/rewards/:rewardId/codes", (i) => `/api/campaigns/${i.campaign}/rewards/${i.user}/codes`, { codes: ["A"] }],
  ["GET /api/campaigns/:id/redemptions", (i) => `/api/campaigns/${i.campaign}/redemptions`],
  ["POST /api/campaigns/:id/redemptions/:redemptionId/fulfil", (i) => `/api/campaigns/${i.campaign}/redemptions/${i.user}/fulfil`, {}],
  ["POST /api/campaigns/:id/redemptions/:redemptionId/reject", (i) => `/api/campaigns/${i.campaign}/redemptions/${i.user}/reject`, { note: "x" }],
  ["GET /api/campaigns/:id/claim-epochs", (i) => `/api/campaigns/${i.campaign}/claim-epochs`],
  ["POST /api/campaigns/:id/claim-epochs/close", (i) => `/api/campaigns/${i.campaign}/claim-epochs/close`],
  ["POST /api/campaigns/:id/claim-epochs/:epoch/publish", (i) => `/api/campaigns/${i.campaign}/claim-epochs/1/publish`],
];

const method = (route: string) => route.split(" ")[0] as string;
// it.each takes a short row's missing body for jest's `done` callback, so every row gets all three cells.
const rows = (cases: Case[]) => cases.map(([route, path, body]): [string, (ids: Ids) => string, Case[2]] => [route, path, body]);

describe("tenant isolation", () => {
  it("has a case for every campaign-scoped endpoint the app serves", () => {
    const served = listRoutes(h.app).filter((r) => r.includes("/api/campaigns/:id"));
    expect(served.sort()).toEqual(CAMPAIGN_CASES.map((c) => c[0]).sort());
  });

  it.each(rows(CAMPAIGN_CASES))("%s with project A's campaign answers 404 campaign-not-found to project B's operator", async (route, path, body) => {
    const before = await snapshot(A.campaign);
    const res = await b.call(method(route), path(A), bodyFor(body, A));
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "campaign-not-found", message: `campaign ${A.campaign} not found` });
    expect(await snapshot(A.campaign)).toEqual(before);
  });

  it.each(
    rows(
      CAMPAIGN_CASES.filter(
        ([route]) => /:(keyId|regEventId|userId|identityId|jobId|importId|exclusionId)/.test(route) || route === "POST /api/campaigns/:id/adjustments",
      ),
    ),
  )("%s with project B's own campaign and project A's ids answers 404 and changes nothing", async (route, path, body) => {
    const before = await snapshot(A.campaign);
    const mixed: Ids = { ...A, campaign: B.campaign, otherUser: B.otherUser };
    const res = await b.call(method(route), path(mixed), bodyFor(body, mixed));
    expect(res.status).toBe(404);
    expect(await snapshot(A.campaign)).toEqual(before);
  });

  it("gives the same answer for a campaign of another project as for one that does not exist", async () => {
    const foreign = await b.call("GET", `/api/campaigns/${A.campaign}`);
    const missing = await b.call("GET", "/api/campaigns/zzzz-0000");
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body.error.code).toBe(missing.body.error.code);
  });

  it("does not let a user of project A become a referrer or an identity owner in project B", async () => {
    const res = await b.call("PATCH", `/api/campaigns/${B.campaign}/users/${B.user}`, { referrer_id: A.user });
    expect(res.body.error.message).toBe("referrer_id must be a user of this campaign");
    const link = await b.call("POST", `/api/campaigns/${B.campaign}/users/${B.user}/identities`, {
      identity_type: "EVM_ADDRESS",
      account_id: "0x00000000000000000000000000000000000000a1",
    });
    // The same wallet in B's campaign is B's own identity (identities are per campaign): nothing of A moves.
    expect(link.status).toBe(200);
    const { rows } = await h.deps.db.query(
      "SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = '0x00000000000000000000000000000000000000a1'",
      [A.campaign],
    );
    expect(rows).toEqual([{ user_id: A.user }]);
  });

  it("keeps project-wide exclusions and the audit trail to their own project", async () => {
    const before = await snapshot(A.campaign);
    const lift = await b.call("DELETE", `/api/exclusions/${A.projectExclusion}`);
    expect(lift.status).toBe(404);
    expect(lift.body.error.code).toBe("exclusion-not-found");
    expect(await snapshot(A.campaign)).toEqual(before);
    const listed = await b.call("GET", "/api/exclusions");
    expect(listed.body.exclusions.map((e: { id: string }) => e.id)).toEqual([B.projectExclusion]);
    const trail = await b.call("GET", "/api/audit?limit=200");
    expect(trail.body.entries.length).toBeGreaterThan(0);
    expect(trail.body.entries.every((e: { campaign_id: string | null }) => e.campaign_id === null || e.campaign_id === B.campaign)).toBe(true);
  });

  it("lists only the operator's own campaigns and operators", async () => {
    const campaigns = await b.call("GET", "/api/campaigns");
    expect(campaigns.body.campaigns.map((c: { id: string }) => c.id)).toEqual([B.campaign]);
    const operators = await b.call("GET", "/api/operators");
    expect(operators.body.operators.map((o: { email: string }) => o.email)).toEqual([b.email]);
    expect((await b.call("GET", "/api/me")).body.project.name).toBe("Project B");
  });

  it("adds a new operator to the inviting operator's project only", async () => {
    const created = await b.call("POST", "/api/operators", { email: "joiner@pointwise.test", password: "joiner-password-long" });
    const { rows } = await h.deps.db.query("SELECT project_id FROM operator WHERE id = $1", [created.body.id]);
    expect(rows).toEqual([{ project_id: b.projectId }]);
    expect((await a.call("GET", "/api/operators")).body.operators.map((o: { email: string }) => o.email)).not.toContain("joiner@pointwise.test");
  });
});
