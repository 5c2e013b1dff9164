/**
 * The Idempotency-Key is remembered in PostgreSQL: it survives a restart of ingest-api and the loss of every Redis key;
 * a CSV import whose ingest-api was killed mid-file is marked failed, and its file sent again with its key publishes the rest.
 */
import http from "node:http";
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
  waitUntil,
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

it("marks a CSV import whose ingest-api was killed mid-file as interrupted; the file sent again with its key is imported, each row once", async () => {
  const { key, regEventId } = await seedCampaignWithKey(db, {
    id: "rest-art2",
    projectId: await seedProject(db, { id: "00000000-0000-4000-8000-0000000000e2", name: "p2" }),
  });
  const header = "account_id,identity_type,amount,reg_event_id\n";
  const rows = Array.from({ length: 1500 }, (_, i) => `${i + 1},GITHUB_PROVIDER_ID,1,${regEventId}\n`);
  const headers = { authorization: `Bearer ${key}`, "content-type": "text/csv", "idempotency-key": "killed-upload" };
  const path = "/api/rest/earn-events/csv?mode=accept-valid";

  await ingest?.stop("SIGKILL");
  ingest = await spawnApp("ingest-api", env());
  const url = new URL(path, ingest.url);
  // Part of the file goes out and the upload stalls there, as a slow client's would, until the kill.
  const request = http.request(url, { method: "POST", headers });
  request.on("error", () => undefined);
  const importId = await new Promise<string>((resolve, reject) => {
    request.once("response", (res) => resolve(String(res.headers["x-pointwise-import-id"])));
    request.once("error", reject);
    request.write(header + rows.slice(0, 1000).join("") + rows[1000]);
  });
  const status = async () =>
    (await db.query<{ status: string; error: string | null }>("SELECT status, error FROM csv_import WHERE id = $1", [importId])).rows[0];
  expect(await ingest.stop("SIGKILL")).toBeNull();
  request.destroy();
  expect((await status())?.status).toBe("validating");

  // Two minutes without a heartbeat pass: the restarted service's first round marks the import interrupted.
  await db.query("UPDATE csv_import SET updated_at = now() - interval '3 minutes' WHERE id = $1", [importId]);
  ingest = await spawnApp("ingest-api", env());
  await waitUntil(async () => (await status())?.status === "failed", 15_000, "the interrupted import to be marked failed");
  expect((await status())?.error).toMatch(/^import-interrupted: the service running this import stopped before it finished, with 0 rows published; /);
  // The log line follows the row's update, and the child's output can reach this process later.
  const restarted = ingest;
  await waitUntil(async () => restarted.output().includes("csv imports whose service stopped mid-import marked failed"), 10_000, "the log line");
  expect(ingest.output()).toContain("csv imports whose service stopped mid-import marked failed");

  const again = await fetch(new URL(path, ingest.url), { method: "POST", headers, body: header + rows.join("") });
  expect(again.status).toBe(200);
  expect(((await again.json()) as { data: { status: string; rows_published: number } }).data).toMatchObject({ status: "done", rows_published: 1500 });
  const accounts = (await streamMessages(bus)).filter((m) => m.campaign_id === "rest-art2").map((m) => m.account_id);
  expect(new Set(accounts).size).toBe(1500);
  expect(accounts).toHaveLength(1500);
});
