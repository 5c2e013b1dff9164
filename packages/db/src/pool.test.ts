// The pool's search_path: a deployment's schema and nothing else, so a missing table is an error instead of public's.
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { createDatabase } from "./client";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describe("a schema's connections", () => {
  const schema = `pool_${randomBytes(4).toString("hex")}`;
  const table = `probe_${randomBytes(4).toString("hex")}`;
  const admin = new Client({ connectionString: url });
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.own (n int)`);
    await admin.query(`CREATE TABLE public.${table} (n int)`);
    await admin.query(`INSERT INTO public.${table} VALUES (7)`);
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.query(`DROP TABLE public.${table}`);
    await admin.end();
  });

  it("find the schema's own tables and built-in functions, and never a table of public", async () => {
    const db = createDatabase({ url, schema, max: 1 });
    try {
      await expect(db.query("SELECT count(*)::int AS n, gen_random_uuid() IS NOT NULL AS uuid FROM own")).resolves.toMatchObject({
        rows: [{ n: 0, uuid: true }],
      });
      await expect(db.query(`SELECT n FROM ${table}`)).rejects.toThrow(`relation "${table}" does not exist`);
    } finally {
      await db.close();
    }
  });
});
