// The pg pool behind a Database: one schema, and only it, on every connection's search_path.
import { Pool, type PoolConfig } from "pg";

/** Where and how to connect; `schema` isolates one deployment (or one test run) inside a database. */
export interface PoolOptions {
  url: string;
  schema?: string;
  max?: number;
  /**
   * Who the connections say they are (PostgreSQL's application_name, "pointwise" by default); in any
   * schema but public the schema is appended (`scoring-worker@prod`), so one deployment's sessions
   * can be told from another's in pg_stat_activity.
   */
  applicationName?: string;
  /** A role every connection acts as (SET ROLE when it opens), for a login user that connects on behalf of a narrower role. */
  role?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Quotes a schema name after checking it is a plain identifier (it ends up in SQL text). */
export function quoteSchema(schema: string): string {
  if (!IDENTIFIER.test(schema)) throw new Error(`DATABASE_SCHEMA must be a lowercase SQL identifier, got "${schema}"`);
  return `"${schema}"`;
}

// PostgreSQL keeps the first 63 bytes of an application_name (NAMEDATALEN - 1).
const APPLICATION_NAME_BYTES = 63;

/** The application_name of a pool's connections: the app's name, and `@<schema>` outside the public schema. */
export function applicationNameOf(options: Pick<PoolOptions, "applicationName" | "schema">): string {
  const name = options.applicationName ?? "pointwise";
  const schema = options.schema ?? "public";
  const full = schema === "public" ? name : `${name}@${schema}`;
  return Buffer.from(full).subarray(0, APPLICATION_NAME_BYTES).toString();
}

// A dropped connection fails the statement in flight on it (the caller gets a DbConnectionError);
// the 'error' event the client emits as well must not end the process.
const ignoreClientError = () => undefined;

/**
 * A pg pool whose every connection has only `schema` on its search_path (pg_catalog is always searched):
 * a table missing from the schema is an error, never the table of the same name in `public`.
 * NUMERIC and BIGINT come back as strings (pg's default), so amounts and points never pass through a float.
 * Every client has an 'error' listener for its whole life: pg only listens while a client is idle in
 * the pool, so a connection dropped while checked out (a transaction, a COPY, Prisma's own
 * transactions) would otherwise crash the process with "Unhandled 'error' event".
 */
export function createPool(options: PoolOptions): Pool {
  const schema = options.schema ?? "public";
  quoteSchema(schema);
  if (options.role !== undefined && !IDENTIFIER.test(options.role)) throw new Error(`role must be a lowercase SQL identifier, got "${options.role}"`);
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: applicationNameOf(options),
    options: `-c search_path=${schema}${options.role === undefined ? "" : ` -c role=${options.role}`}`,
    connectionTimeoutMillis: 5000,
  };
  const pool = new Pool(config);
  pool.on("connect", (client) => client.on("error", ignoreClientError));
  // An idle client's error is also reported on the pool, which removes the client; nothing else to do.
  pool.on("error", ignoreClientError);
  return pool;
}
