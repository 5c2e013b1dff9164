// The database handle an app holds: Prisma for the ORM, and named operations for set-based SQL.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import type { Pool } from "pg";
import { copyIn } from "./copy-text";
import { mapDbErrors, toRetryableDbError } from "./errors";
import { createPool, type PoolOptions } from "./pool";
import type { Queryable, QueryResult, Row } from "./statement-queue";
import { type IsolationLevel, runTransaction, type Transaction } from "./transaction";

export { Prisma, PrismaClient } from "@prisma/client";

/** The database an app uses: Prisma for the ORM, and SQL statements, COPY and transactions whose failures are typed errors. */
export interface Database extends Queryable {
  prisma: PrismaClient;
  schema: string;
  /** Runs `COPY ... FROM STDIN` of `data` (rows in COPY's text format) on a connection of its own, outside any transaction. */
  copy(statement: string, data: string): Promise<number>;
  /** Runs `fn` in one transaction: COMMIT when it returns, ROLLBACK when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: { isolation?: IsolationLevel }): Promise<T>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /**
   * One bounded attempt (the pool's 5 s connect timeout) to run a trivial query; rejects with the typed
   * error saying why (DbConnectionError when unreachable), so a start-up loop can log it and retry.
   */
  checkConnection(): Promise<void>;
  close(): Promise<void>;
}

// The pool behind each Database, for the migration runner in this package only: apps get no raw client.
const pools = new WeakMap<Database, Pool>();

/** The pool behind a Database (for this package's own plumbing, e.g. migrations). */
export function poolOf(db: Database): Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("not a Database created by createDatabase");
  return pool;
}

/** Opens one pool and a Prisma client on top of it (no second pool, one search_path). */
export function createDatabase(options: PoolOptions): Database {
  const schema = options.schema ?? "public";
  const pool = createPool(options);
  // Every Prisma operation's connection loss (or busy server, or lost conflict) surfaces as the typed
  // error a SQL statement's would, so a request answers 503 database-unavailable rather than 500.
  // The extension only wraps calls: the client keeps PrismaClient's API, hence the cast.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) }).$extends({
    query: {
      async $allOperations({ args, query }) {
        try {
          return await query(args);
        } catch (err) {
          throw toRetryableDbError(err);
        }
      },
    },
  }) as unknown as PrismaClient;
  const db: Database = {
    prisma,
    schema,
    query: <R extends Row = Row>(text: string, values?: unknown[]): Promise<QueryResult<R>> => mapDbErrors(pool.query<R>(text, values)),
    async copy(statement, data) {
      const client = await mapDbErrors(pool.connect());
      try {
        return await mapDbErrors(copyIn(client, statement, data));
      } finally {
        client.release();
      }
    },
    transaction: (fn, opts) => runTransaction(pool, fn, opts?.isolation),
    async ping() {
      try {
        await pool.query("SELECT 1");
        return true;
      } catch {
        return false;
      }
    },
    async checkConnection() {
      await mapDbErrors(pool.query("SELECT 1"));
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
  pools.set(db, pool);
  return db;
}
