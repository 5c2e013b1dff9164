// A campaign with an API key and an event type in an isolated schema, for the benchmarks.
import { randomBytes } from "node:crypto";
import { generateApiKey } from "@pointwise/auth";
import { createTestDatabase, dropNamespace, testServiceEnv, uniqueName } from "@pointwise/testkit";

/** A campaign ready to receive events. */
export interface Fixture {
  schema: string;
  namespace: string;
  campaignId: string;
  apiKey: string;
  regEventId: string;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** Settings every app of the benchmark shares. */
  env: Record<string, string>;
  /**
   * Removes everything named after the namespace: the schema, the JetStream stream and the Redis
   * keys the apps wrote (read-api caches some 2,000 per run). What an interrupted run leaves of
   * these, the next run removes (bench/lib/leftovers.ts).
   */
  drop(): Promise<void>;
}

/** Creates the schema, a project, campaign `bnch-0001`, an API key and an event type. */
export async function createFixture(): Promise<Fixture> {
  const schema = uniqueName("bench");
  const db = await createTestDatabase(schema);
  const key = generateApiKey();
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH p AS (INSERT INTO project(name) VALUES ('bench') RETURNING id),
          c AS (INSERT INTO campaign(id, project_id, name, currencies, primary_currency)
                SELECT 'bnch-0001', id, 'bench', '{"xp":"Experience","gems":"Gems"}', 'xp' FROM p RETURNING id),
          k AS (INSERT INTO api_key(campaign_id, prefix, hash) SELECT id, $1, $2 FROM c)
     INSERT INTO event_type(campaign_id, name) SELECT id, 'volume' FROM c RETURNING id`,
    [key.prefix, key.hash],
  );
  return {
    schema,
    namespace: schema,
    campaignId: "bnch-0001",
    apiKey: key.key,
    regEventId: (rows[0] as { id: string }).id,
    db,
    async drop() {
      await dropNamespace(schema);
      await db.drop();
    },
    env: {
      ...testServiceEnv(schema),
      LOG_LEVEL: "warn",
    },
  };
}

/** `count` distinct lowercase EVM addresses, the same for the same seed. */
export function wallets(count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(`0x${i.toString(16).padStart(8, "0")}${randomBytes(16).toString("hex")}`);
  return out;
}
