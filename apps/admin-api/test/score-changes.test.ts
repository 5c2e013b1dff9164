// Operator changes to served scores reach read-api at once: admin-api announces them on NATS after the commit, and a bus that is down changes nothing else.
import { createLogger } from "@pointwise/logger";
import {
  type AppProcess,
  announceUntil,
  seedApiKey,
  seedRedemption,
  spawnApp,
  testServiceEnv,
  type UnreachableNats,
  unreachableNats,
  waitUntil,
} from "@pointwise/testkit";
import { lazyIngest } from "../src/ingest";
import { type Harness, type Json, type Operator, perUnitRules, setUpCampaign, startHarness } from "./harness";
import { activateAsWorker, logEvents } from "./seed";

jest.setTimeout(90_000);

const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** read-api's cache window in this file: far longer than any test, so only an announcement can refresh an answer. */
const LONG_TTL_MS = "600000";

let h: Harness;
let op: Operator;
let read: AppProcess;

beforeAll(async () => {
  h = await startHarness();
  op = await h.newProject();
  read = await spawnApp("read-api", {
    ...testServiceEnv(h.deps.env.DATABASE_SCHEMA, { namespace: h.deps.env.NAMESPACE }),
    CACHE_TTL_MS: LONG_TTL_MS,
    LOG_LEVEL: "warn",
  });
  await untilReadApiListens();
});
afterAll(async () => {
  await read?.stop();
  await h?.close();
});

/** A campaign with rule version 1 active (1 xp per unit), users with 10 and 4 xp, and a read-api key. */
async function scored() {
  const { campaignId, regEventId } = await setUpCampaign(op);
  const [u1, u2] = await logEvents(h.deps.db, campaignId, [
    { identityType: "EVM_ADDRESS", accountId: wallet(1), amount: "10", regEventId },
    { identityType: "EVM_ADDRESS", accountId: wallet(2), amount: "4", regEventId },
  ]);
  await op.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
  await activateAsWorker(h.deps.db, campaignId, 1);
  const key = (await seedApiKey(h.deps.db, campaignId)).key;
  return { campaignId, url: `/api/campaigns/${campaignId}`, u1: u1 as string, u2: u2 as string, key };
}

async function readJson(path: string, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(`${read.url}${path}`, { headers });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
const userScores = (c: { key: string }, userId: string) => readJson(`/users/${userId}/scores`, { "x-api-key": c.key });
const board = (campaignId: string) => readJson(`/leaderboard?campaign_id=${campaignId}`);

/** Waits until read-api acts on score changes (it subscribes a moment after it answers /readyz). */
async function untilReadApiListens(): Promise<void> {
  const c = await scored();
  await userScores(c, c.u1);
  await h.deps.db.query("UPDATE score SET score = score + 1, total = total + 1 WHERE campaign_id = $1 AND user_id = $2", [c.campaignId, c.u1]);
  await announceUntil(
    h.deps.env.NAMESPACE,
    { v: 1, campaign_id: c.campaignId, reason: "events", rule_version: 1, currencies: ["xp"], user_ids: [c.u1], last_seq: null },
    async () => (await userScores(c, c.u1)).scores.xp.total === 11,
  );
}

describe("operator changes show in read-api's cached answers at once", () => {
  it("a grant through POST /adjustments shows in the user's scores, while the leaderboard keeps its window", async () => {
    const c = await scored();
    expect((await userScores(c, c.u1)).scores.xp.total).toBe(10);
    const boardBefore = await board(c.campaignId);
    const res = await op.call("POST", `${c.url}/adjustments`, { user_id: c.u1, currency: "xp", points: "5", reason: "support ticket 7" });
    expect(res.status).toBe(201);
    // 10 earned + 5 granted.
    await waitUntil(async () => (await userScores(c, c.u1)).scores.xp.total === 15, 5000, "read-api to show 15 xp");
    expect(await board(c.campaignId)).toEqual(boardBefore);
  });

  it("a reversal shows in the user's scores", async () => {
    const c = await scored();
    const grant = await op.call("POST", `${c.url}/adjustments`, { user_id: c.u2, currency: "xp", points: "6", reason: "mistake" });
    // 4 earned + 6 granted.
    await waitUntil(async () => (await userScores(c, c.u2)).scores.xp.total === 10, 5000, "read-api to show the grant");
    const reversal = await op.call("POST", `${c.url}/adjustments`, { reverses: grant.body.id, reason: "undo" });
    expect(reversal.status).toBe(201);
    await waitUntil(async () => (await userScores(c, c.u2)).scores.xp.total === 4, 5000, "read-api to show the reversal");
  });

  it("a CSV list of adjustments shows in every named user's scores", async () => {
    const c = await scored();
    expect([(await userScores(c, c.u1)).scores.xp.total, (await userScores(c, c.u2)).scores.xp.total]).toEqual([10, 4]);
    const list = `identity_type,account_id,currency,points,reason\nEVM_ADDRESS,${wallet(1)},xp,-3,clawback\nEVM_ADDRESS,${wallet(2)},xp,2.5,bonus\n`;
    const res = await op.call("POST", `${c.url}/adjustments/csv`, list, { "content-type": "text/csv" });
    expect([res.status, res.body.created]).toEqual([200, 2]);
    // 10 - 3 and 4 + 2.5.
    await waitUntil(
      async () => (await userScores(c, c.u1)).scores.xp.total === 7 && (await userScores(c, c.u2)).scores.xp.total === 6.5,
      5000,
      "read-api to show 7 and 6.5 xp",
    );
  });

  it("rejecting a pending redemption shows the refund in the user's balance", async () => {
    const c = await scored();
    const redemptionId = await pendingRedemption(c.campaignId, c.u1, "4");
    expect((await userScores(c, c.u1)).balances.xp).toMatchObject({ spent: 4, balance: 6 });
    const res = await op.call("POST", `${c.url}/redemptions/${redemptionId}/reject`, { note: "out of stock" });
    expect(res.status).toBe(200);
    await waitUntil(async () => (await userScores(c, c.u1)).balances.xp.balance === 10, 5000, "read-api to show the refund");
  });

  it("an exclusion removes the user from the cached leaderboard", async () => {
    const c = await scored();
    const ranked = async () => ((await board(c.campaignId)).entries as { user_id: string }[]).map((e) => e.user_id);
    expect(await ranked()).toEqual([c.u1, c.u2]);
    const res = await op.call("POST", `${c.url}/exclusions`, { user_id: c.u1, reason: "bot" });
    expect(res.status).toBe(201);
    await waitUntil(async () => (await ranked()).length === 1, 5000, "read-api's board to drop the excluded user");
    expect(await ranked()).toEqual([c.u2]);
  });
});

/** A pending manual redemption of `price` xp as portal-api makes it: spent on the score row. */
async function pendingRedemption(campaignId: string, userId: string, price: string): Promise<string> {
  const reward = (await op.call("POST", `/api/campaigns/${campaignId}/rewards`, { name: "Hoodie", kind: "manual", currency: "xp", price })).body;
  await h.deps.db.query("UPDATE score SET spent = $3 WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'", [campaignId, userId, price]);
  return seedRedemption(h.deps.db, campaignId, userId, reward.id, { price, balanceBefore: "10" });
}

describe("with NATS unreachable", () => {
  let nats: UnreachableNats;
  let down: Harness;
  let downOp: Operator;
  beforeAll(async () => {
    nats = await unreachableNats();
    down = await startHarness({ NATS_URL: nats.url });
    downOp = await down.newProject();
  });
  afterAll(async () => {
    await down?.close();
    await nats?.release();
  });

  it("an adjustment still answers 201 at once and is committed", async () => {
    const { campaignId, regEventId } = await setUpCampaign(downOp);
    const [user] = await logEvents(down.deps.db, campaignId, [{ identityType: "EVM_ADDRESS", accountId: wallet(3), amount: "10", regEventId }]);
    await downOp.call("POST", `/api/campaigns/${campaignId}/rule-versions`, { document: perUnitRules(regEventId, "1") });
    await activateAsWorker(down.deps.db, campaignId, 1);
    const started = Date.now();
    const res = await downOp.call("POST", `/api/campaigns/${campaignId}/adjustments`, { user_id: user, currency: "xp", points: "5", reason: "r" });
    expect(res.status).toBe(201);
    // The announcement does not hold the answer: far below the 2 s it waits for the bus in the background.
    expect(Date.now() - started).toBeLessThan(1500);
    const { rows } = await down.deps.db.query<{ total: string }>(
      "SELECT trim_scale(total)::text AS total FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'",
      [campaignId, user],
    );
    expect(rows[0]?.total).toBe("15");
    const listed = await downOp.call("GET", `/api/campaigns/${campaignId}/adjustments`);
    expect(listed.body.adjustments.map((a: Json) => [a.id, a.points])).toEqual([[res.body.id, "5"]]);
  });

  it("closes at once while a connection is still being attempted, so shutdown is not held", async () => {
    const bus = lazyIngest({ url: nats.url, namespace: "closing", db: down.deps.db, logger: createLogger({ service: "admin-api", level: "silent" }) });
    bus.announce({
      v: 1,
      campaign_id: "c",
      reason: "adjustments",
      rule_version: 1,
      currencies: ["xp"],
      user_ids: [],
      last_seq: null,
      at: new Date().toISOString(),
    });
    const started = Date.now();
    await bus.close();
    expect(Date.now() - started).toBeLessThan(500);
  });
});
