/**
 * read-api on a streaming replica: a primary and a replica of the test's own (`pg_basebackup -R`, two
 * PostgreSQL clusters on loopback ports) and a real read-api process with DATABASE_READ_URL. Leaderboards
 * and scores are served from the replica while it keeps up; while its replay is paused longer than
 * READ_REPLICA_MAX_LAG_MS reads move to the primary, and back once it has caught up.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createDatabase, type Database, migrate } from "@pointwise/db";
import {
  type AppProcess,
  type PgReplicaPair,
  seedCampaign,
  seedScore,
  seedUser,
  spawnApp,
  startPostgresReplicaPair,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

jest.setTimeout(120_000);

const schema = uniqueName("replica");
const MAX_LAG_MS = 6000;
let pair: PgReplicaPair;
let primary: Database;
let replica: Database;
let read: AppProcess | undefined;

beforeAll(async () => {
  pair = await startPostgresReplicaPair();
  primary = createDatabase({ url: pair.primary.url, schema, max: 3 });
  replica = createDatabase({ url: pair.replica.url, schema, max: 2 });
  await migrate(primary);
}, 60_000);
afterAll(async () => {
  await read?.stop("SIGKILL");
  await primary?.close();
  await replica?.close();
  pair?.destroy();
});

async function metric(name: string): Promise<number | undefined> {
  const text = await (await fetch(`${read?.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function board(campaignId: string): Promise<Record<string, number>> {
  const res = await fetch(`${read?.url}/leaderboard?campaign_id=${campaignId}&limit=10`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { entries: { user_id: string; scores: { xp: { total: number } } }[] };
  return Object.fromEntries(body.entries.map((e) => [e.user_id, e.scores.xp.total]));
}

/** Waits until the replica has replayed everything the primary has written so far. */
async function replicated(): Promise<void> {
  const { rows } = await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
  const target = rows[0]?.lsn;
  await waitUntil(
    async () => (await replica.query<{ ok: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [target])).rows[0]?.ok === true,
    15_000,
    "the replica to replay the primary's writes",
  );
}

it("serves leaderboards from the replica, from the primary while the replica lags too far, and from the replica again", async () => {
  const campaignId = await seedCampaign(primary, { currencies: { xp: "XP" } });
  const alice = await seedUser(primary, campaignId, { displayName: "Alice" });
  const bob = await seedUser(primary, campaignId, { displayName: "Bob" });
  await seedScore(primary, campaignId, alice, "xp", { score: "30" });
  await seedScore(primary, campaignId, bob, "xp", { score: "20" });
  await replicated();

  read = await spawnApp("read-api", {
    ...testServiceEnv(schema),
    DATABASE_URL: pair.primary.url,
    DATABASE_READ_URL: pair.replica.url,
    READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    READ_REPLICA_CHECK_MS: "200",
    CACHE_TTL_MS: "1000",
  });
  await waitUntil(async () => (await metric("pointwise_read_replica_in_use")) === 1, 15_000, "reads to go to the replica");
  expect(await board(campaignId)).toEqual({ [alice]: 30, [bob]: 20 });

  // A write replayed just now, then replay paused: the replica is current as of this moment and falls behind from here.
  await seedScore(primary, campaignId, bob, "xp", { score: "21" });
  await replicated();
  await replica.query("SELECT pg_wal_replay_pause()");
  const pausedAt = Date.now();
  await seedScore(primary, campaignId, bob, "xp", { score: "50" });
  // Past the cache window but well within the lag allowed: still the replica's (older) data.
  await sleep(1500);
  const fromReplica = await board(campaignId);
  expect(Date.now() - pausedAt).toBeLessThan(MAX_LAG_MS);
  expect(fromReplica).toEqual({ [alice]: 30, [bob]: 21 });
  expect(await metric("pointwise_read_replica_in_use")).toBe(1);

  // Past READ_REPLICA_MAX_LAG_MS the primary answers: the new score shows although the replica still lacks it.
  await waitUntil(async () => (await metric("pointwise_read_replica_in_use")) === 0, 20_000, "reads to move to the primary");
  expect(Number(await metric("pointwise_read_replica_lag_seconds"))).toBeGreaterThan(MAX_LAG_MS / 1000);
  await sleep(1100);
  expect(await board(campaignId)).toEqual({ [bob]: 50, [alice]: 30 });
  const { rows } = await replica.query<{ total: string }>("SELECT total::text FROM score WHERE user_id = $1", [bob]);
  expect(rows[0]?.total).toBe("21");

  // Replay resumed: the replica catches up and serves again.
  await replica.query("SELECT pg_wal_replay_resume()");
  await waitUntil(async () => (await metric("pointwise_read_replica_in_use")) === 1, 15_000, "reads to go back to the replica");
  expect(await metric("pointwise_read_replica_lag_seconds")).toBe(0);
  await sleep(1100);
  expect(await board(campaignId)).toEqual({ [bob]: 50, [alice]: 30 });
});
