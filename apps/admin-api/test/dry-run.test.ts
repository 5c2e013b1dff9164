// A dry run's "points now" are what the read API serves after the real scoring worker's recompute, and its "after" what activating serves: dates, exclusions and adjustments included.
import { type AppProcess, dropNamespace, seedApiKey, spawnApp, testServiceEnv } from "@pointwise/testkit";
import { type Harness, type Json, type Operator, perUnitRules, recomputesSettled, setUpCampaign, startHarness } from "./harness";
import { logEvents } from "./seed";

jest.setTimeout(120_000);

let h: Harness;
let op: Operator;
let worker: AppProcess;
let read: AppProcess;

beforeAll(async () => {
  h = await startHarness();
  op = await h.newProject();
  const env = { ...testServiceEnv(h.deps.env.DATABASE_SCHEMA, { namespace: h.deps.env.NAMESPACE }), LOG_LEVEL: "warn" };
  [worker, read] = await Promise.all([
    spawnApp("scoring-worker", { ...env, RECOMPUTE_POLL_MS: "100" }),
    spawnApp("read-api", { ...env, CACHE_TTL_MS: "1000" }),
  ]);
});
afterAll(async () => {
  await worker?.stop();
  await read?.stop();
  const namespace = h?.deps.env.NAMESPACE;
  await h?.close();
  if (namespace) await dropNamespace(namespace);
});

const wallet = (name: string) => `0x${Buffer.from(name).toString("hex").padStart(40, "0")}`;
const EVM = "EVM_ADDRESS";

async function save(campaignId: string, document: unknown): Promise<number> {
  const res = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.version;
}

/** Activates a version through the API and waits for the real worker to switch it in. */
async function activate(campaignId: string, version: number): Promise<void> {
  const res = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/${version}/activate`, {});
  if (res.status !== 202) throw new Error(JSON.stringify(res.body));
  await recomputesSettled(op, campaignId);
  expect((await op.call("GET", `/api/campaigns/${campaignId}/rule-versions/${version}`)).body.status).toBe("active");
}

/** Rank and xp total of each user as the read API serves them now (totals as the decimal text of the JSON number). */
async function served(key: string, users: Record<string, string>): Promise<Record<string, { rank: number | null; points: string }>> {
  // Past the read API's cache window (1 s), so no answer cached before the last change is served.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const out: Record<string, { rank: number | null; points: string }> = {};
  for (const [name, userId] of Object.entries(users)) {
    const res = await fetch(`${read.url}/users/${userId}/scores`, { headers: { "x-api-key": key } });
    if (res.status !== 200) throw new Error(`read-api /users/${userId}/scores: ${res.status} ${await res.text()}`);
    const text = await res.text();
    const body = JSON.parse(text);
    // The exact digits the read API wrote (JSON.parse would round a long decimal).
    const total = /"xp":\{[^}]*"total":(-?[0-9.]+)/.exec(text)?.[1] ?? "0";
    out[name] = { rank: body.rank, points: total };
  }
  return out;
}

/** A dry run's moves by user: rank and points before and after. */
function byUser(moves: Json[]): Record<string, Json> {
  return Object.fromEntries(moves.map((m) => [m.user_id, m]));
}

/** The dry run's "before" is what is served now, and once `version` is activated its "after" is what is served then. */
async function expectServedAsDryRun(
  moves: Record<string, Json>,
  run: { campaignId: string; version: number; key: string; users: Record<string, string>; now: Awaited<ReturnType<typeof served>> },
): Promise<void> {
  for (const [name, userId] of Object.entries(run.users)) {
    expect([name, moves[userId]?.rank_before, moves[userId]?.points_before]).toEqual([name, run.now[name]?.rank, run.now[name]?.points]);
  }
  await activate(run.campaignId, run.version);
  const later = await served(run.key, run.users);
  for (const [name, userId] of Object.entries(run.users)) {
    expect([name, moves[userId]?.rank_after, moves[userId]?.points_after]).toEqual([name, later[name]?.rank, later[name]?.points]);
  }
}

/** Who holds score rows of the campaign: excluded users hold none. */
async function usersWithRows(campaignId: string): Promise<string[]> {
  const { rows } = await h.deps.db.query<{ user_id: string }>("SELECT DISTINCT user_id FROM score WHERE campaign_id = $1", [campaignId]);
  return rows.map((r) => r.user_id);
}

describe("dry runs count what the scoring worker serves", () => {
  it("leaves events outside the campaign's dates out of both sides (the audit's 165 -> 235)", async () => {
    const { campaignId, regEventId: trade } = await setUpCampaign(op);
    const login = (await op.call("POST", `/api/campaigns/${campaignId}/event-types`, { name: "login" })).body.reg_event_id as string;
    const at = (day: string) => ({ receivedAt: `2026-01-${day}T12:00:00Z` });
    const [alice, bob] = await logEvents(h.deps.db, campaignId, [
      // Before the start the campaign will get (2026-01-10).
      { identityType: EVM, accountId: wallet("alice"), amount: "33.33", regEventId: trade, ...at("05") },
      { identityType: EVM, accountId: wallet("bob"), amount: "100", regEventId: trade, ...at("05") },
      { identityType: EVM, accountId: wallet("alice"), amount: "1", regEventId: login, ...at("06") },
      // Inside [2026-01-10, 2026-01-25).
      { identityType: EVM, accountId: wallet("alice"), amount: "70", regEventId: trade, ...at("12") },
      ...["13", "14", "15", "16", "17"].map((d) => ({ identityType: EVM, accountId: wallet("alice"), amount: "1", regEventId: login, ...at(d) })),
      { identityType: EVM, accountId: wallet("bob"), amount: "40", regEventId: trade, ...at("12") },
      { identityType: EVM, accountId: wallet("bob"), amount: "1", regEventId: login, ...at("13") },
      // After the end.
      { identityType: EVM, accountId: wallet("bob"), amount: "500", regEventId: trade, ...at("28") },
    ]);
    const users = { alice: alice as string, bob: bob as string };
    const key = (await seedApiKey(h.deps.db, campaignId)).key;
    const rules = (perUnit: string) =>
      perUnitRules(trade, perUnit, {
        rules: [
          { id: "volume", regEventId: trade, currency: "xp", base: { kind: "perUnit", points: perUnit } },
          { id: "login", regEventId: login, currency: "xp", base: { kind: "fixed", points: "5" } },
        ],
      });
    await activate(campaignId, await save(campaignId, rules("2")));
    const dated = await op.call("PATCH", `/api/campaigns/${campaignId}`, { starts_at: "2026-01-10T00:00:00Z", ends_at: "2026-01-25T00:00:00Z" });
    expect(dated.body.recompute_job).toMatchObject({ reason: "campaign-dates" });
    await recomputesSettled(op, campaignId);

    // v2 within the dates: Alice 70 x 2 + 5 logins x 5 = 165, Bob 40 x 2 + 1 x 5 = 85.
    const now = await served(key, users);
    expect(now).toEqual({ alice: { rank: 1, points: String(70 * 2 + 5 * 5) }, bob: { rank: 2, points: String(40 * 2 + 5) } });

    const v2 = await save(campaignId, rules("3"));
    const dry = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/${v2}/dry-run`, {});
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ before_version: 1, after_version: v2, users_before: 2, users_after: 2, unchanged: 0, moves_total: 2 });
    const moves = byUser(dry.body.moves);
    // 3 per unit: Alice 70 x 3 + 25 = 235, Bob 40 x 3 + 5 = 125.
    expect(moves[users.alice]).toMatchObject({
      rank_before: 1,
      rank_after: 1,
      points_before: "165",
      points_after: String(70 * 3 + 5 * 5),
      points_change: "70",
    });
    expect(moves[users.bob]).toMatchObject({ rank_before: 2, rank_after: 2, points_before: "85", points_after: String(40 * 3 + 5), points_change: "40" });
    // Activating v2 serves exactly the dry run's "after".
    await expectServedAsDryRun(moves, { campaignId, version: v2, key, users, now });
  });

  it("does not list an excluded user, nor count referral shares of an excluded referee", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const event = (name: string, amount: string) => ({ identityType: EVM, accountId: wallet(name), amount, regEventId });
    const [alice, bob, carol, dave] = (await logEvents(h.deps.db, campaignId, [
      event("alice", "30"),
      event("bob", "20"),
      event("carol", "40"),
      event("dave", "50"),
    ])) as [string, string, string, string];
    // Bob refers Carol and Dave refers Erin: the events logged from now on carry their referrer.
    expect((await op.call("PATCH", `/api/campaigns/${campaignId}/users/${carol}`, { referrer_id: bob })).status).toBe(200);
    await logEvents(h.deps.db, campaignId, [event("carol", "60")]);
    const [erin] = (await logEvents(h.deps.db, campaignId, [event("erin", "1")])) as [string];
    expect((await op.call("PATCH", `/api/campaigns/${campaignId}/users/${erin}`, { referrer_id: dave })).status).toBe(200);
    await logEvents(h.deps.db, campaignId, [event("erin", "9")]);
    const key = (await seedApiKey(h.deps.db, campaignId)).key;
    const referral = { referral: { shares: { xp: "0.1" } } };
    await activate(campaignId, await save(campaignId, perUnitRules(regEventId, "1", referral)));

    // Carol excluded as a user, Dave through his wallet.
    expect((await op.call("POST", `/api/campaigns/${campaignId}/exclusions`, { user_id: carol, reason: "sybil" })).status).toBe(201);
    expect((await op.call("POST", `/api/campaigns/${campaignId}/exclusions`, { identity_type: EVM, account_id: wallet("dave"), reason: "sybil" })).status).toBe(
      201,
    );
    await recomputesSettled(op, campaignId);
    const users = { alice, bob, erin };
    // Alice 30; Bob 20 and no 10% of Carol's 60; Erin 1 + 9 = 10 (her share to Dave is not paid).
    const now = await served(key, users);
    expect(now).toEqual({ alice: { rank: 1, points: "30" }, bob: { rank: 2, points: "20" }, erin: { rank: 3, points: String(1 + 9) } });
    expect((await usersWithRows(campaignId)).sort()).toEqual([alice, bob, erin].sort());

    const v2 = await save(campaignId, perUnitRules(regEventId, "2", referral));
    const dry = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/${v2}/dry-run`, {});
    expect(dry.body).toMatchObject({ users_before: 3, users_after: 3, unchanged: 0, moves_total: 3 });
    expect(dry.body.moves.map((m: Json) => [m.user_id, m.rank_before, m.rank_after, m.points_before, m.points_after])).toEqual([
      [alice, 1, 1, "30", String(30 * 2)],
      [bob, 2, 2, "20", String(20 * 2)],
      [erin, 3, 3, "10", String(10 * 2)],
    ]);
    const moves = byUser(dry.body.moves);
    // Activating v2 serves exactly the dry run's "after".
    await expectServedAsDryRun(moves, { campaignId, version: v2, key, users, now });
    expect((await usersWithRows(campaignId)).sort()).toEqual([alice, bob, erin].sort());
  });

  it("adds operator adjustments to both sides, so a grant and a deduction decide the ranks", async () => {
    const { campaignId, regEventId } = await setUpCampaign(op);
    const login = (await op.call("POST", `/api/campaigns/${campaignId}/event-types`, { name: "login" })).body.reg_event_id as string;
    const [alice, bob, carol] = (await logEvents(h.deps.db, campaignId, [
      { identityType: EVM, accountId: wallet("alice"), amount: "10", regEventId },
      { identityType: EVM, accountId: wallet("bob"), amount: "13", regEventId },
      // No rule pays logins: Carol has only what she is granted.
      { identityType: EVM, accountId: wallet("carol"), amount: "1", regEventId: login },
    ])) as [string, string, string];
    const key = (await seedApiKey(h.deps.db, campaignId)).key;
    await activate(campaignId, await save(campaignId, perUnitRules(regEventId, "1")));
    const adjust = (user_id: string, points: string) =>
      op.call("POST", `/api/campaigns/${campaignId}/adjustments`, { user_id, currency: "xp", points, reason: "support" });
    for (const [user, points] of [
      [alice, "5"],
      [bob, "-0.5"],
      [carol, "7"],
    ] as const) {
      expect((await adjust(user, points)).status).toBe(201);
    }
    const users = { alice, bob, carol };
    // Alice 10 + 5 = 15, Bob 13 - 0.5 = 12.5, Carol 7.
    const now = await served(key, users);
    expect(now).toEqual({ alice: { rank: 1, points: "15" }, bob: { rank: 2, points: "12.5" }, carol: { rank: 3, points: "7" } });

    const v2 = await save(campaignId, perUnitRules(regEventId, "2"));
    const dry = await op.call("POST", `/api/campaigns/${campaignId}/rule-versions/${v2}/dry-run`, {});
    // 2 per unit: Bob 13 x 2 - 0.5 = 25.5 passes Alice's 10 x 2 + 5 = 25; Carol keeps 7 and her rank (unchanged).
    expect(dry.body).toMatchObject({ users_before: 3, users_after: 3, unchanged: 1, moves_total: 2 });
    expect(dry.body.moves.map((m: Json) => [m.user_id, m.rank_before, m.rank_after, m.points_before, m.points_after])).toEqual([
      [bob, 2, 1, "12.5", String(13 * 2 - 0.5)],
      [alice, 1, 2, "15", String(10 * 2 + 5)],
    ]);
    const moves = byUser(dry.body.moves);
    for (const name of ["alice", "bob"] as const) {
      const userId = users[name];
      expect([name, moves[userId].rank_before, moves[userId].points_before]).toEqual([name, now[name]?.rank, now[name]?.points]);
    }

    await activate(campaignId, v2);
    const later = await served(key, users);
    for (const name of ["alice", "bob"] as const) {
      const userId = users[name];
      expect([name, moves[userId].rank_after, moves[userId].points_after]).toEqual([name, later[name]?.rank, later[name]?.points]);
    }
    expect(later.carol).toEqual({ rank: 3, points: "7" });
  });
});
