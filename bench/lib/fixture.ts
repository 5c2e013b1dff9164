// A campaign with an API key and an event type in an isolated schema, for the benchmarks, and a pg
// pool of the benchmark's own on that schema for seeding and counting.
import { randomBytes } from "node:crypto";
import { createTestDatabase, dropNamespace, type SeedDb, seedCampaignWithKey, testServiceEnv, testUrls, uniqueName } from "@pointwise/testkit";
import pg from "pg";

/** A campaign ready to receive events. */
export interface Fixture {
  schema: string;
  namespace: string;
  /** The schema's database, for testkit's seeding functions. */
  db: SeedDb;
  campaignId: string;
  apiKey: string;
  regEventId: string;
  /** The benchmark's own connections, with the fixture's schema as search_path. */
  pool: pg.Pool;
  /** Settings every app of the benchmark shares. */
  env: Record<string, string>;
  /** Removes the schema, the JetStream stream and the Redis keys named after the namespace. */
  drop(): Promise<void>;
}

/** Creates the migrated schema, a project, campaign `bnch-0001`, an API key and an event type. */
export async function createFixture(): Promise<Fixture> {
  const schema = uniqueName("bench");
  const db = await createTestDatabase(schema);
  const currencies = { xp: "Experience", gems: "Gems" };
  const seeded = await seedCampaignWithKey(db, { id: "bnch-0001", name: "bench", currencies, eventType: "volume" });
  const pool = new pg.Pool({ connectionString: testUrls.database, max: 4, options: `-c search_path="${schema}"`, application_name: "bench" });
  pool.on("error", () => undefined);
  return {
    schema,
    namespace: schema,
    db,
    campaignId: seeded.campaignId,
    apiKey: seeded.key,
    regEventId: seeded.regEventId,
    pool,
    env: { ...testServiceEnv(schema), LOG_LEVEL: "warn" },
    async drop() {
      await pool.end();
      await dropNamespace(schema);
      await db.drop();
    },
  };
}

/** `count` distinct lowercase EVM addresses. */
export function wallets(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(8, "0")}${randomBytes(16).toString("hex")}`);
}
