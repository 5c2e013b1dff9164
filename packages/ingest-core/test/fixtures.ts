// Test support for ingest-core: a migrated schema with a campaign, key and event type, and a bus of its own.
import { createLogger, type Logger } from "@pointwise/logger";
import { createTestBus, createTestDatabase, seedCampaignWithKey, seedProject } from "@pointwise/testkit";

/** A migrated schema with one campaign, a key and an event type, plus a bus of its own. */
export async function seed(options: { natsUrl?: string } = {}) {
  const db = await createTestDatabase();
  const bus = options.natsUrl ? await createTestBus(undefined, options.natsUrl) : await createTestBus();
  const seeded = await seedCampaignWithKey(db, {
    id: "core-0001",
    projectId: await seedProject(db, { id: "00000000-0000-4000-8000-0000000000c1", name: "p" }),
  });
  const logger: Logger = createLogger({ service: "test", level: "silent" });
  return {
    db,
    bus,
    logger,
    campaignId: "core-0001",
    key: seeded.key,
    keyId: seeded.keyId,
    regEventId: seeded.regEventId,
    async count() {
      return (await bus.eventsStreamState()).messages;
    },
    async drop() {
      await bus.drop();
      await db.drop();
    },
  };
}

/** What `seed` makes. */
export type Seed = Awaited<ReturnType<typeof seed>>;

/** Seeds once for the test file (before its first test) and drops it after its last; the fields are set once `beforeAll` has run. */
export function useSeed(): Seed {
  const holder = {} as Seed;
  beforeAll(async () => {
    Object.assign(holder, await seed());
  });
  afterAll(async () => {
    await holder.drop?.();
  });
  return holder;
}
