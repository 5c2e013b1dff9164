// Applies the SQL migrations to a schema, once each, in order, under a lock.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { BaseError } from "@pointwise/errors";
import type { Pool } from "pg";
import { type Database, poolOf } from "./client";
import { mapDbErrors } from "./errors";
import { createPool, type PoolOptions, quoteSchema } from "./pool";

/** The folder of SQL migrations in Prisma's layout: `<name>/migration.sql`. */
export const MIGRATIONS_DIR = path.join(__dirname, "..", "prisma", "migrations");

/** One migration on disk. */
export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** What a run did. */
export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Reads the migrations in name order (the timestamp prefix orders them). */
export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Applies pending migrations to `schema`, each in its own transaction, under an advisory lock so
 * concurrent starters wait instead of racing. A changed checksum of an applied migration is an error:
 * migrations are history and are never edited, only added.
 */
export async function migrate(db: Database, schema: string = db.schema, dir: string = MIGRATIONS_DIR): Promise<MigrateResult> {
  return migrateOn(poolOf(db), schema, dir);
}

/** Connects with `options` (one connection), applies pending migrations to its schema, and disconnects: the offline migration runner. */
export async function migrateSchema(options: PoolOptions, dir: string = MIGRATIONS_DIR): Promise<MigrateResult> {
  const pool = createPool({ ...options, max: 1 });
  try {
    return await migrateOn(pool, options.schema ?? "public", dir);
  } finally {
    await pool.end();
  }
}

async function migrateOn(pool: Pool, schema: string, dir: string): Promise<MigrateResult> {
  const quoted = quoteSchema(schema);
  const migrations = await readMigrations(dir);
  const client = await mapDbErrors(pool.connect());
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [`pointwise-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(`SET search_path TO ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}."_pointwise_migrations" (
      name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${quoted}."_pointwise_migrations"`);
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    for (const m of migrations) {
      const seen = done.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) {
          throw new BaseError("migration-changed", `Migration ${m.name} was changed after it was applied to schema ${schema}; add a new migration instead`);
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(`INSERT INTO ${quoted}."_pointwise_migrations"(name, checksum) VALUES ($1, $2)`, [m.name, m.checksum]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new BaseError("migration-failed", `Migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`pointwise-migrate:${schema}`]).catch(() => undefined);
    await client.query("RESET search_path").catch(() => undefined);
    client.release();
  }
}

/** Drops a schema (the database's own by default) and everything in it; for tests and throwaway deployments only. */
export async function dropSchema(db: Database, schema: string = db.schema): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
}
