// The pg pool behind a Database: one schema first on every connection's search_path.
import { Pool, type PoolConfig } from "pg";

/** Where and how to connect; `schema` isolates one deployment (or one test run) inside a database. */
export interface PoolOptions {
  url: string;
  schema?: string;
  max?: number;
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

/**
 * A pg pool whose every connection uses `schema` first on its search_path.
 * NUMERIC and BIGINT come back as strings (pg's default), so amounts and points never pass through a float.
 */
export function createPool(options: PoolOptions): Pool {
  const schema = options.schema ?? "public";
  quoteSchema(schema);
  if (options.role !== undefined && !IDENTIFIER.test(options.role)) throw new Error(`role must be a lowercase SQL identifier, got "${options.role}"`);
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "pointwise",
    options: `-c search_path=${schema},public${options.role === undefined ? "" : ` -c role=${options.role}`}`,
    connectionTimeoutMillis: 5000,
  };
  return new Pool(config);
}
