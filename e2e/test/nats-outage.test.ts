/**
 * A success means the event is durably in JetStream: requests are fired continuously at a real
 * ingest-api process while its (private) NATS server is stopped and started again. Afterwards every
 * request that got a success is in the stream exactly once and, with a scoring-worker running, in the
 * log exactly once. Requests sent with an Idempotency-Key are retried until they succeed, and still
 * land once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import {
  type AppProcess,
  createTestBus,
  createTestDatabase,
  type NatsServer,
  postJson,
  seedCampaignWithKey,
  seedProject,
  spawnApp,
  startNatsServer,
  streamMessages,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const namespace = uniqueName("e2e");
let nats: NatsServer;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let ingest: AppProcess;
let worker: AppProcess;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase(namespace);
  const env = testServiceEnv(db.schema, { namespace, natsUrl: nats.url });
  ingest = await spawnApp("ingest-api", { ...env, PUBLISH_TIMEOUT_MS: "1000", IDEMPOTENCY_WAIT_MS: "2000" });
  // Messages JetStream handed to the worker as NATS stopped never reached it, and come back after ACK_WAIT_MS (30 s by
  // default): 5 s, as in the chaos suite, keeps the catch-up well inside the test's deadline.
  worker = await spawnApp("scoring-worker", { ...env, FETCH_EXPIRES_MS: "1000", ACK_WAIT_MS: "5000" });
}, 60_000);
afterAll(async () => {
  await ingest?.stop("SIGKILL");
  await worker?.stop("SIGKILL");
  await nats?.destroy();
  await db?.drop();
});

it("stores every acknowledged event exactly once across a NATS outage", async () => {
  const { key, regEventId } = await seedCampaignWithKey(db, {
    id: "outa-ge02",
    projectId: await seedProject(db, { id: "00000000-0000-4000-8000-0000000000e1", name: "p" }),
  });
  const auth = { authorization: `Bearer ${key}` };
  const accepted: string[] = [];
  const refusedCodes = new Set<string>();
  let running = true;
  let n = 0;

  const event = () => ({ account_id: String(1000 + (n++ % 50)), identity_type: "DISCORD_PROVIDER_ID", amount: "1", reg_event_id: regEventId });

  // Without a key: a refused request is simply not retried (the client would resend it as new).
  async function plainLoop(): Promise<void> {
    while (running) {
      try {
        const single = await postJson(`${ingest.url}/api/rest/earn-event`, event(), auth);
        if (single.body.data) accepted.push(single.body.data.event_id);
        else refusedCodes.add(single.body.errors[0].extensions.code);
        const batch = await postJson(`${ingest.url}/api/rest/earn-events`, { events: [event(), event(), event()] }, auth);
        if (batch.body.data) for (const r of batch.body.data.results) if (r.ok) accepted.push(r.event_id);
        if (!batch.body.data) refusedCodes.add(batch.body.errors[0].extensions.code);
      } catch {
        await sleep(50);
      }
    }
  }
  // With a key: retried until it succeeds, as the indexer's sink does.
  const keyed: { key: string; ids: string[] }[] = [];
  let keyedRetries = 0;
  async function keyedLoop(worker: number): Promise<void> {
    for (let i = 0; running; i++) {
      const idem = `w${worker}-${i}`;
      const body = { events: [event(), event()] };
      for (;;) {
        const answer = await postJson(`${ingest.url}/api/rest/earn-events`, body, { ...auth, "idempotency-key": idem }).catch(() => undefined);
        if (answer?.body.data) {
          const ids = answer.body.data.results.map((r: { event_id: string }) => r.event_id);
          keyed.push({ key: idem, ids });
          accepted.push(...ids);
          break;
        }
        keyedRetries += 1;
        await sleep(100);
      }
    }
  }

  const loops = [plainLoop(), plainLoop(), keyedLoop(1), keyedLoop(2)];
  await waitUntil(() => accepted.length > 0, 20_000, "ingest-api to accept events");
  const beforeOutage = accepted.length;
  const retriesBefore = keyedRetries;
  await nats.stop();
  // The outage lasts at least 2 s, longer than a NATS client's first reconnect attempts (2 s apart by default), so
  // both apps reconnect after failed attempts rather than on the first; and until ingest-api has refused a request
  // for it and a keyed batch has had to be retried.
  await Promise.all([
    sleep(2000),
    waitUntil(() => refusedCodes.has("bus-unavailable") && keyedRetries > retriesBefore, 20_000, "requests refused during the outage"),
  ]);
  await nats.start();
  const atRestart = accepted.length;
  await waitUntil(() => accepted.length > atRestart, 20_000, "ingest-api to accept events again once NATS is back");
  running = false;
  await Promise.all(loops);

  expect(beforeOutage).toBeGreaterThan(0);
  expect(refusedCodes).toContain("bus-unavailable");
  expect(accepted.length).toBeGreaterThan(beforeOutage);
  expect(new Set(accepted).size).toBe(accepted.length);

  const bus = await createTestBus(namespace, nats.url);
  try {
    const stored = await streamMessages(bus);
    const times = new Map<string, number>();
    for (const m of stored) times.set(m.event_id, (times.get(m.event_id) ?? 0) + 1);
    const missing = accepted.filter((id) => times.get(id) !== 1);
    expect(missing).toEqual([]);
    // Keyed batches that were retried landed under the ids of their final answer, once each.
    for (const k of keyed) for (const id of k.ids) expect(times.get(id)).toBe(1);
  } finally {
    await bus.close();
  }

  await waitUntil(
    async () => {
      const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM event_log WHERE id = ANY($1::uuid[])", [accepted]);
      return Number(rows[0]?.n) === accepted.length;
    },
    30_000,
    "the worker to log every accepted event",
  ).catch((err: Error) => {
    throw new Error(`${err.message}\nworker output:\n${worker.output().slice(-3000)}`);
  });
  const { rows } = await db.query<{ id: string; n: string }>(
    "SELECT id, count(*) AS n FROM event_log WHERE id = ANY($1::uuid[]) GROUP BY id HAVING count(*) > 1",
    [accepted],
  );
  expect(rows).toEqual([]);
}, 90_000);
