/**
 * The event bus as a three-node JetStream cluster: ingest-api and a scoring-worker run as real processes
 * against three nats-server processes on loopback (the raw event stream with 3 replicas), while events
 * stream in, the stream's leader is killed (SIGKILL, as a machine is lost) and started again. Every
 * acknowledged event must be in the stream once, in the event log once, and scored once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import {
  type AppProcess,
  createTestBus,
  createTestDatabase,
  type NatsCluster,
  postJson,
  seedCampaignWithKey,
  seedRuleVersion,
  spawnApp,
  startNatsCluster,
  streamMessages,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

jest.setTimeout(120_000);

const namespace = uniqueName("cluster");
let cluster: NatsCluster;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let ingest: AppProcess | undefined;
let worker: AppProcess | undefined;

beforeAll(async () => {
  cluster = await startNatsCluster(3);
  db = await createTestDatabase(namespace);
}, 60_000);
afterAll(async () => {
  await ingest?.stop("SIGKILL");
  await worker?.stop("SIGKILL");
  await cluster?.destroy();
  await db?.drop();
});

const ACCOUNTS = 20;

it("scores every acknowledged event exactly once while the stream's leader is killed and restarted", async () => {
  const { campaignId, key, regEventId } = await seedCampaignWithKey(db, {});
  // One point per unit, no decimals: a user's score is the number of its events that were acknowledged.
  await seedRuleVersion(db, campaignId, {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "XP", decimals: 0 } },
    rules: [{ id: "e", regEventId, currency: "xp", base: { kind: "perUnit", points: "1" } }],
  });
  const env = { ...testServiceEnv(db.schema, { namespace, natsUrl: cluster.url }), STREAM_REPLICAS: "3" };
  ingest = await spawnApp("ingest-api", { ...env, PUBLISH_TIMEOUT_MS: "2000", IDEMPOTENCY_WAIT_MS: "3000" });
  worker = await spawnApp("scoring-worker", { ...env, FETCH_EXPIRES_MS: "1000", ACK_WAIT_MS: "5000" });

  const perAccount = new Map<string, number>();
  const accepted: string[] = [];
  const bus = await createTestBus(namespace, cluster.url);
  try {
    const placement = await bus.streamReplicas();
    expect(placement.replicas).toBe(3);
    expect(placement.peers).toHaveLength(2);

    const auth = { authorization: `Bearer ${key}` };
    let running = true;
    let sent = 0;
    // Each batch is retried with its Idempotency-Key and the same body until acknowledged, as the indexer's sink does.
    async function keyedLoop(loop: number): Promise<void> {
      for (let i = 0; running; i++) {
        const events = [0, 1, 2, 3].map(() => ({
          account_id: String(1000 + (sent++ % ACCOUNTS)),
          identity_type: "DISCORD_PROVIDER_ID",
          amount: "1",
          reg_event_id: regEventId,
        }));
        const headers = { ...auth, "idempotency-key": `l${loop}-${i}` };
        const deadline = Date.now() + 60_000;
        for (;;) {
          const answer = await postJson(`${ingest?.url}/api/rest/earn-events`, { events }, headers).catch(() => undefined);
          if (answer?.body.data) {
            for (const r of answer.body.data.results as { ok: boolean; event_id: string }[]) expect(r.ok).toBe(true);
            accepted.push(...answer.body.data.results.map((r: { event_id: string }) => r.event_id));
            for (const e of events) perAccount.set(e.account_id, (perAccount.get(e.account_id) ?? 0) + 1);
            break;
          }
          if (Date.now() > deadline) throw new Error(`batch l${loop}-${i} was never acknowledged`);
          await sleep(100);
        }
      }
    }
    const loops = [keyedLoop(1), keyedLoop(2), keyedLoop(3)];
    await sleep(2000);
    const beforeKill = accepted.length;
    const leaderName = placement.leader;
    const leader = cluster.nodes.find((n) => n.name === leaderName);
    if (leader === undefined) throw new Error(`no node is the stream leader ${leaderName}`);
    await leader.kill("SIGKILL");
    const killedAt = accepted.length;
    // The two nodes left keep a quorum: once they elect a new leader, events are acknowledged again.
    await waitUntil(() => accepted.length >= killedAt + 40, 30_000, "events acknowledged with the leader down");
    const whileDown = accepted.length;
    await leader.start();
    await sleep(3000);
    running = false;
    await Promise.all(loops);

    expect(beforeKill).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(whileDown);
    expect(new Set(accepted).size).toBe(accepted.length);

    // A new leader took over; once back, the killed node is a current peer again.
    await waitUntil(
      async () => {
        const now = await bus.streamReplicas();
        return now.leader !== undefined && now.peers.length === 2 && now.peers.every((p) => p.current);
      },
      30_000,
      "every replica of the stream to be current",
    );

    // In the stream once each: a retried publish was dropped as a repeat of its message id.
    const stored = await streamMessages(bus);
    const times = new Map<string, number>();
    for (const m of stored) times.set(m.event_id, (times.get(m.event_id) ?? 0) + 1);
    expect(accepted.filter((id) => times.get(id) !== 1)).toEqual([]);
    expect(stored).toHaveLength(accepted.length);
  } finally {
    await bus.close();
  }

  await waitUntil(
    async () => {
      const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM event_log");
      return Number(rows[0]?.n) >= accepted.length;
    },
    45_000,
    "the worker to log every accepted event",
  ).catch(async (err: Error) => {
    const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM event_log");
    const probe = await createTestBus(namespace, cluster.url);
    const consumer = await probe.eventsConsumerState("scoring").catch((e: Error) => e.message);
    await probe.close();
    throw new Error(
      `${err.message}: ${rows[0]?.n} of ${accepted.length} logged; consumer ${JSON.stringify(consumer)}\nworker output:\n${worker?.output().slice(-3000)}`,
    );
  });
  const { rows: logged } = await db.query<{ id: string }>("SELECT id FROM event_log");
  expect(logged.map((r) => r.id).sort()).toEqual([...accepted].sort());

  // Scored once: each user's total is the count of its acknowledged events, computed above from what was sent.
  const { rows: scores } = await db.query<{ account_id: string; total: string }>(
    `SELECT i.account_id, s.total::text AS total FROM score s JOIN identity i ON i.user_id = s.user_id
      WHERE s.campaign_id = $1 AND s.currency = 'xp'`,
    [campaignId],
  );
  const got = Object.fromEntries(scores.map((r) => [r.account_id, r.total]));
  const want = Object.fromEntries([...perAccount].map(([account, n]) => [account, String(n)]));
  expect(got).toEqual(want);
}, 120_000);
