// The bench run lock on the real bench database: a second run waits for the first instead of measuring beside it.
import pg from "pg";
import { beginRun } from "./leftovers";

const urls = {
  database: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/pointwise_bench",
  nats: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  redis: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
};

beforeAll(async () => {
  // The bench creates its database on its first run (bench/run.mjs); this test may come first.
  const admin = new pg.Client({ connectionString: urls.database.replace(/\/[^/]+$/, "/postgres") });
  await admin.connect();
  const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'pointwise_bench'");
  if (rowCount === 0) await admin.query("CREATE DATABASE pointwise_bench");
  await admin.end();
});

describe("beginRun", () => {
  jest.setTimeout(30_000);

  it("makes a second run wait, telling it once, until the first releases the lock", async () => {
    const first = await beginRun(urls);
    let waited = 0;
    let secondStarted = false;
    const second = beginRun(urls, () => waited++).then((run) => {
      secondStarted = true;
      return run;
    });
    // The second run is told it waits and does not start while the first holds the lock.
    for (let i = 0; i < 50 && waited === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(waited).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(secondStarted).toBe(false);
    await first.release();
    const run = await second;
    expect(secondStarted).toBe(true);
    expect(waited).toBe(1);
    await run.release();
  });
});
