// The built read-api with DATABASE_READ_URL at a replica that does not answer: logged once (URL masked),
// reads stay on the primary, and the lag series is absent until the replica answers and again after it drops.
import { type AppProcess, createTcpProxy, createTestDatabase, spawnApp, type TcpProxy, testServiceEnv, testUrls, waitUntil } from "@pointwise/testkit";

jest.setTimeout(90_000);

const PASSWORD = "replica-pw-Q7z4";
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let replica: TcpProxy;
let read: AppProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  // Stands for the replica: a proxy in front of the test server (not a standby, so current once it answers), not started yet.
  replica = await createTcpProxy(testUrls.database);
});
afterAll(async () => {
  await read?.stop("SIGKILL");
  await replica?.stop();
  await db?.drop();
});

/** The value of an unlabelled sample on /metrics, or undefined when the series is absent. */
async function sample(name: string): Promise<number | undefined> {
  const text = await (await fetch(`${read?.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

it("logs a replica that does not answer at start once, masked, and shows no lag until it answers and after it drops", async () => {
  const url = new URL(replica.url);
  url.password = PASSWORD;
  read = await spawnApp("read-api", { ...testServiceEnv(db.schema), DATABASE_READ_URL: url.toString(), READ_REPLICA_CHECK_MS: "200" });
  const warned = () =>
    read
      ?.output()
      .split("\n")
      .filter((l) => l.includes("reading from the primary until the replica catches up")) ?? [];
  await waitUntil(async () => warned().length > 0, 10_000, "the replica that does not answer to be logged");
  // Several checks later, still one line: it is news once.
  await new Promise((r) => setTimeout(r, 1000));
  expect(warned()).toHaveLength(1);
  const line = JSON.parse(warned()[0] ?? "{}") as Record<string, unknown>;
  expect(line).toMatchObject({ level: "warn", url: `postgres://postgres:***@127.0.0.1:${replica.port}/${url.pathname.slice(1)}` });
  expect(String(line.reason)).toMatch(/^replica does not answer/);
  expect(read.output()).not.toContain(PASSWORD);
  expect(await sample("pointwise_read_replica_in_use")).toBe(0);
  expect(await sample("pointwise_read_replica_lag_seconds")).toBeUndefined();
  expect((await fetch(`${read.url}/readyz`)).status).toBe(200);

  // The replica answers: reads move to it and its lag shows.
  await replica.start();
  await waitUntil(async () => (await sample("pointwise_read_replica_in_use")) === 1, 15_000, "reads to go to the replica");
  expect(await sample("pointwise_read_replica_lag_seconds")).toBe(0);

  // It drops: reads go back to the primary and the lag is absent again, not a 0 it never reported.
  await replica.stop();
  await waitUntil(async () => (await sample("pointwise_read_replica_in_use")) === 0, 15_000, "reads to go back to the primary");
  expect(await sample("pointwise_read_replica_lag_seconds")).toBeUndefined();
  expect(await read.stop("SIGTERM")).toBe(0);
});
