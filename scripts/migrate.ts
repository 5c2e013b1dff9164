// Creates the database when it does not exist and applies every pending migration.
// Used by `npm start`, `npm test` and `npm run migrate`; reads DATABASE_URL and DATABASE_SCHEMA.
import { migrateSchema } from "@pointwise/db";
import { Client } from "pg";

async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name must be a lowercase identifier, got "${name}"`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== "42P04") throw err; // created concurrently by another starter
      });
      process.stderr.write(`created database ${name}\n`);
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required");
  const schema = process.env.DATABASE_SCHEMA ?? "public";
  await ensureDatabaseExists(url);
  const result = await migrateSchema({ url, schema });
  process.stderr.write(`migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied\n`);
}

main().catch((err) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
