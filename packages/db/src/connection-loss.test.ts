// A backend terminated under any kind of statement (pool query, COPY, transaction, Prisma) fails
// that statement with a DbConnectionError and never crashes the process; the pool heals by itself.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { createDatabase, type Database } from "./client";
import { DbConnectionError } from "./errors";
import { dropSchema, migrate } from "./migrate";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_db_lost_${process.pid}_${Date.now().toString(36)}`;
// Only this file's connections carry this name, so terminating by it touches no other test.
const applicationName = "db-loss";
let db: Database;
let admin: Database;

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 4, applicationName });
  admin = createDatabase({ url, schema, max: 2 });
  await migrate(admin);
  await admin.query("CREATE TABLE item(id int PRIMARY KEY, n bigint)");
  await admin.query("CREATE TABLE blob(id int, t text)");
});
afterAll(async () => {
  await dropSchema(admin);
  await admin.close();
  await db.close();
});

/** Terminates this file's backends once one of them is busy (running or waiting on a lock). */
async function terminateWhenBusy(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
      [`${applicationName}@${schema}`],
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no busy backend to terminate");
}

const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);
beforeEach(() => {
  uncaught.length = 0;
  process.on("uncaughtException", onUncaught);
});
afterEach(async () => {
  // A client 'error' without a listener surfaces a moment after the statement failed.
  await new Promise((r) => setTimeout(r, 100));
  process.off("uncaughtException", onUncaught);
  expect(uncaught).toEqual([]);
  // The pool replaced the dead connection: the next statement simply works.
  expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
});

describe("a terminated backend", () => {
  it("names the deployment in application_name: the app's name and the schema", async () => {
    await db.query("SELECT 1");
    const { rows } = await admin.query("SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE $1", [`${applicationName}@%`]);
    expect(rows).toEqual([{ application_name: `db-loss@${schema}` }]);
  });

  it("fails a COPY on its own connection with a DbConnectionError, and the process lives on", async () => {
    // In a process of its own: an 'error' event nobody listens to ends that process, which is the point.
    const script = path.join(__dirname, "..", "test", "terminated-copy.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", script, url, schema, "db-loss-copy", "12"], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).not.toContain("Unhandled 'error' event");
    expect({ status: run.status, out: run.stdout.trim() }).toEqual({ status: 0, out: "DbConnectionError database-unavailable" });
    expect((await admin.query("SELECT count(*)::int AS n FROM blob")).rows[0].n).toBe(0);
  });

  it("fails a transaction's statement with a DbConnectionError and leaves nothing of the transaction", async () => {
    // Each failure is caught at once: it may come before terminateWhenBusy returns.
    const run = db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO item(id, n) VALUES (10, 10)");
        await tx.query("SELECT pg_sleep(10)");
      })
      .catch((err: unknown) => err);
    await terminateWhenBusy();
    expect(await run).toBeInstanceOf(DbConnectionError);
    expect((await admin.query("SELECT count(*)::int AS n FROM item")).rows[0].n).toBe(0);
  });

  it("fails a Prisma query with a DbConnectionError", async () => {
    // A Prisma query runs when awaited; the async function starts it now.
    const query = (async () => db.prisma.$queryRaw`SELECT pg_sleep(10)`)().catch((err: unknown) => err);
    await terminateWhenBusy();
    const err = await query;
    expect(err).toBeInstanceOf(DbConnectionError);
    expect(err).toMatchObject({ code: "database-unavailable", retryable: true });
  });

  it("fails a Prisma model query with a DbConnectionError and writes nothing", async () => {
    await admin.transaction(async (tx) => {
      await tx.query("LOCK TABLE project IN ACCESS EXCLUSIVE MODE");
      const query = (async () => db.prisma.project.create({ data: { name: "Lost" } }))().catch((err: unknown) => err);
      await terminateWhenBusy();
      expect(await query).toBeInstanceOf(DbConnectionError);
    });
    expect((await admin.query("SELECT count(*)::int AS n FROM project")).rows[0].n).toBe(0);
  });
});
