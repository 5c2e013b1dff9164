// A redemption reaches read-api's cached balance at once: portal-api announces it on NATS after the commit, and a bus that is down changes nothing else.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  type AppProcess,
  announceUntil,
  seedApiKey,
  seedEventType,
  seedReward,
  seedRuleVersion,
  seedScore,
  seedUser,
  spawnApp,
  testServiceEnv,
  type UnreachableNats,
  unreachableNats,
  waitUntil,
} from "@pointwise/testkit";
import { type Harness, type Json, startPortal } from "./harness";

jest.setTimeout(90_000);

let h: Harness;
let read: AppProcess;
let key = "";

beforeAll(async () => {
  h = await startPortal();
  const regEventId = await seedEventType(h.deps.db, h.campaignId);
  await seedRuleVersion(h.deps.db, h.campaignId, rulesOf(h.campaignId, regEventId));
  key = (await seedApiKey(h.deps.db, h.campaignId)).key;
  read = await spawnApp("read-api", {
    ...testServiceEnv(h.deps.env.DATABASE_SCHEMA, { namespace: h.deps.env.NAMESPACE }),
    // Far longer than any test, so only an announcement can refresh an answer.
    CACHE_TTL_MS: "600000",
    LOG_LEVEL: "warn",
  });
  await untilReadApiListens();
});
afterAll(async () => {
  await read?.stop();
  await h?.close();
});

/** Rule version 1 of a campaign: 1 xp per unit of one event type. */
function rulesOf(campaignId: string, regEventId: string) {
  return {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [{ id: "volume", regEventId, currency: "xp", base: { kind: "perUnit", points: "1" } }],
  };
}

/** A user of the harness's campaign holding `points` xp. */
async function holder(points: string): Promise<string> {
  const userId = await seedUser(h.deps.db, h.campaignId);
  await seedScore(h.deps.db, h.campaignId, userId, "xp", { score: points });
  return userId;
}

/** An active manual reward of the harness's campaign costing `price` xp. */
const reward = (harness: Harness, price: string) => seedReward(harness.deps.db, harness.campaignId, { price });

async function balances(userId: string): Promise<Json> {
  const res = await fetch(`${read.url}/users/${userId}/scores`, { headers: { "x-api-key": key } });
  if (res.status !== 200) throw new Error(`read-api answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as Json).balances;
}

const redeem = (harness: Harness, apiKey: string, userId: string, rewardId: string) =>
  harness.call(
    "POST",
    `/campaigns/${harness.campaignId}/users/${userId}/redemptions`,
    { reward_id: rewardId },
    { "x-api-key": apiKey, "idempotency-key": randomUUID() },
  );

/** Waits until read-api acts on score changes (it subscribes a moment after it answers /readyz). */
async function untilReadApiListens(): Promise<void> {
  const probe = await holder("10");
  await balances(probe);
  await seedScore(h.deps.db, h.campaignId, probe, "xp", { score: "11" });
  await announceUntil(
    h.deps.env.NAMESPACE,
    { v: 1, campaign_id: h.campaignId, reason: "events", rule_version: 1, currencies: ["xp"], user_ids: [probe], last_seq: null },
    async () => (await balances(probe)).xp.balance === 11,
  );
}

describe("a redemption shows in read-api's cached balance at once", () => {
  it("redeeming through the API key shows the spend in the user's balance", async () => {
    const userId = await holder("100");
    const rewardId = await reward(h, "30");
    expect((await balances(userId)).xp).toMatchObject({ spent: 0, balance: 100 });
    const res = await redeem(h, key, userId, rewardId);
    expect([res.status, res.body.balance_after]).toEqual([201, "70"]);
    // 100 - 30.
    await waitUntil(async () => (await balances(userId)).xp.balance === 70, 5000, "read-api to show a balance of 70");
    expect((await balances(userId)).xp.spent).toBe(30);
  });
});

describe("with NATS unreachable", () => {
  let nats: UnreachableNats;
  let down: Harness;
  beforeAll(async () => {
    nats = await unreachableNats();
    down = await startPortal({ NATS_URL: nats.url });
  });
  afterAll(async () => {
    await down?.close();
    await nats?.release();
  });

  it("a redemption still answers 201 at once and is committed", async () => {
    const userId = await seedUser(down.deps.db, down.campaignId);
    await seedScore(down.deps.db, down.campaignId, userId, "xp", { score: "50" });
    const regEventId = await seedEventType(down.deps.db, down.campaignId);
    await seedRuleVersion(down.deps.db, down.campaignId, rulesOf(down.campaignId, regEventId));
    const downKey = (await seedApiKey(down.deps.db, down.campaignId)).key;
    const rewardId = await reward(down, "20");
    const started = Date.now();
    const res = await redeem(down, downKey, userId, rewardId);
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1500);
    const { rows } = await down.deps.db.query<{ spent: string; balance: string; redemptions: number }>(
      `SELECT trim_scale(spent)::text AS spent, trim_scale(balance)::text AS balance,
              (SELECT count(*)::int FROM redemption WHERE user_id = $2) AS redemptions
         FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'`,
      [down.campaignId, userId],
    );
    // 50 - 20.
    expect(rows[0]).toEqual({ spent: "20", balance: "30", redemptions: 1 });
  });
});
