// Driver and PostgreSQL failures become typed errors: each class provoked on the real server.
import { isRetryable } from "@pointwise/errors";
import { createDatabase, type Database } from "./client";
import {
  DatabaseError,
  DbBusyError,
  DbConnectionError,
  InvalidValueError,
  isUniqueViolation,
  SerializationError,
  toDbError,
  UniqueConstraintError,
} from "./errors";
import { dropSchema } from "./migrate";
import { quoteSchema } from "./pool";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_db_errors_${process.pid}_${Date.now().toString(36)}`;
let db: Database;

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 4 });
  await db.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
  await db.query("CREATE TABLE item(id int CONSTRAINT item_pkey PRIMARY KEY, n bigint)");
  await db.query("CREATE TABLE entry(k int)");
});
afterAll(async () => {
  await dropSchema(db);
  await db.close();
});

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("typed database errors", () => {
  it("reports a connection the server terminated mid-transaction as a retryable DbConnectionError", async () => {
    const run = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await db.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
      await tx.query("SELECT 1");
    });
    await expect(run).rejects.toBeInstanceOf(DbConnectionError);
    await expect(run).rejects.toMatchObject({ code: "database-unavailable", retryable: true });
    // The broken connection was discarded: the pool still answers.
    expect(await db.ping()).toBe(true);
  });

  it("reports a refused connection as a DbConnectionError", async () => {
    const nowhere = createDatabase({ url: "postgres://postgres@127.0.0.1:1/none", max: 1 });
    try {
      await expect(nowhere.query("SELECT 1")).rejects.toBeInstanceOf(DbConnectionError);
      await expect(nowhere.transaction(async () => undefined)).rejects.toBeInstanceOf(DbConnectionError);
    } finally {
      await nowhere.close();
    }
  });

  it("reports a duplicate key as a UniqueConstraintError naming the constraint, not retryable", async () => {
    await db.query("INSERT INTO item(id, n) VALUES (1, 1)");
    const err = await db.query("INSERT INTO item(id, n) VALUES (1, 2)").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UniqueConstraintError);
    expect(err).toMatchObject({ code: "unique-violation", constraint: "item_pkey", sqlState: "23505" });
    expect(isRetryable(err)).toBe(false);
  });

  it("names the constraint of a duplicate key a Prisma call ran into, as for a plain statement", async () => {
    await db.query("INSERT INTO item(id, n) VALUES (3, 1) ON CONFLICT DO NOTHING");
    const err = await db.prisma.$transaction((tx) => tx.$executeRawUnsafe("INSERT INTO item(id, n) VALUES (3, 2)")).catch((e: unknown) => e);
    expect(toDbError(err)).toMatchObject({ code: "unique-violation", constraint: "item_pkey", sqlState: "23505" });
    expect([isUniqueViolation(err, "item_pkey"), isUniqueViolation(err, "other_key"), isUniqueViolation(new Error("x"), "item_pkey")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("reports a value out of range for bigint as an InvalidValueError, not retryable", async () => {
    const err = await db.query("INSERT INTO item(id, n) VALUES (2, $1)", ["99999999999999999999"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidValueError);
    expect(err).toMatchObject({ code: "invalid-value", sqlState: "22003" });
    expect(isRetryable(err)).toBe(false);
  });

  it("reports the loser of two conflicting SERIALIZABLE transactions as a retryable SerializationError", async () => {
    const bothRead = [deferred(), deferred()];
    const firstCommitted = deferred();
    const writeSkew = (i: 0 | 1) =>
      db.transaction(
        async (tx) => {
          await tx.query("SELECT count(*) FROM entry WHERE k = 1");
          bothRead[i]?.resolve();
          await Promise.all(bothRead.map((d) => d.promise));
          // The second writes only after the first committed, so the first always wins.
          if (i === 1) await firstCommitted.promise;
          await tx.query("INSERT INTO entry(k) VALUES (1)");
        },
        { isolation: "serializable" },
      );
    const first = writeSkew(0).then(() => firstCommitted.resolve());
    const second = writeSkew(1).catch((e: unknown) => e);
    await first;
    const err = await second;
    expect(err).toBeInstanceOf(SerializationError);
    expect(err).toMatchObject({ code: "database-serialization-failure", sqlState: "40001", retryable: true });
  });

  it("reports any other refusal as a DatabaseError with its SQLSTATE, not retryable", async () => {
    const err = await db.query("SELEC 1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseError);
    expect(err).toMatchObject({ code: "database-error", sqlState: "42601" });
    expect(isRetryable(err)).toBe(false);
  });

  it("classifies pg's connection messages, shutdown states, socket codes and deadlocks without a server", () => {
    for (const err of [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("connection failure"), { code: "08006" }),
      new AggregateError([Object.assign(new Error("x"), { code: "ECONNRESET" })]),
    ]) {
      expect(toDbError(err)).toBeInstanceOf(DbConnectionError);
    }
    expect(toDbError(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toMatchObject({ code: "database-deadlock", retryable: true });
    expect(toDbError(Object.assign(new Error("too many connections"), { code: "53300" }))).toBeInstanceOf(DbBusyError);
    expect(toDbError(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBeInstanceOf(DbBusyError);
  });
});
