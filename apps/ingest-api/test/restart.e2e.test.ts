/** The Idempotency-Key is remembered in PostgreSQL: it survives a restart of ingest-api and the loss of every Redis key. */
import {
  type AppProcess,
  createTestBus,
  createTestCache,
  createTestDatabase,
  postJson,
  seedCampaignWithKey,
  seedProject,
  spawnApp,
  streamMessages,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const namespace = uniqueName("e2e");
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let ingest: AppProcess | undefined;

const env = () => testServiceEnv(db.schema, { namespace });

beforeAll(async () => {
  db = await createTestDatabase(namespace);
  bus = await createTestBus(namespace);
});
afterAll(async () => {
  await ingest?.stop("SIGKILL");
  await bus?.drop();
  await db?.drop();
});

it("replays the first answer after ingest-api is killed and Redis forgot everything, and stores no second occurrence", async () => {
  const { key, regEventId } = await seedCampaignWithKey(db, {
    id: "rest-art1",
    projectId: await seedProject(db, { id: "00000000-0000-4000-8000-0000000000e1", name: "p" }),
  });
  const body = { events: [{ account_id: "42", identity_type: "GITHUB_PROVIDER_ID", amount: "5", reg_event_id: regEventId }] };
  const headers = { authorization: `Bearer ${key}`, "idempotency-key": "restart-1" };

  ingest = await spawnApp("ingest-api", env());
  const first = await postJson(`${ingest.url}/api/rest/earn-events`, body, headers);
  expect(first.body.data.results[0].ok).toBe(true);
  expect(await ingest.stop("SIGKILL")).toBeNull();

  // Everything ingest-api keeps in Redis (the rate-limit buckets) is gone, as after a Redis restart.
  await (await createTestCache(namespace)).drop();

  ingest = await spawnApp("ingest-api", env());
  const again = await postJson(`${ingest.url}/api/rest/earn-events`, body, headers);
  expect(again.text).toBe(first.text);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  const stored = await streamMessages(bus);
  expect(stored.map((m) => m.event_id)).toEqual([first.body.data.results[0].event_id]);
});
