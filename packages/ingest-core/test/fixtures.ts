import { generateApiKey } from "@pointwise/auth";
import { createLogger, type Logger } from "@pointwise/logger";
import { createTestBus, createTestDatabase } from "@pointwise/testkit";

/** A migrated schema with one campaign, a key and an event type, plus a bus of its own. */
export async function seed(options: { natsUrl?: string } = {}) {
  const db = await createTestDatabase();
  const bus = options.natsUrl ? await createTestBus(undefined, options.natsUrl) : await createTestBus();
  await db.query("INSERT INTO project(id, name) VALUES ('00000000-0000-4000-8000-0000000000c1', 'p')");
  await db.query(
    "INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ('core-0001', '00000000-0000-4000-8000-0000000000c1', 'c', '{\"xp\":\"XP\"}', 'xp')",
  );
  const key = generateApiKey();
  const { rows: keyRows } = await db.query<{ id: string }>("INSERT INTO api_key(campaign_id, prefix, hash) VALUES ('core-0001', $1, $2) RETURNING id", [
    key.prefix,
    key.hash,
  ]);
  const { rows } = await db.query<{ id: string }>("INSERT INTO event_type(campaign_id, name) VALUES ('core-0001', 'e') RETURNING id");
  const logger: Logger = createLogger({ service: "test", level: "silent" });
  return {
    db,
    bus,
    logger,
    campaignId: "core-0001",
    key: key.key,
    keyId: (keyRows[0] as { id: string }).id,
    regEventId: (rows[0] as { id: string }).id,
    async count() {
      return (await bus.eventsStreamState()).messages;
    },
    async drop() {
      await bus.drop();
      await db.drop();
    },
  };
}
