// ingest-api against a NATS server that stops and comes back: bus-unavailable while down, success once back.
import {
  type AppProcess,
  createTestDatabase,
  type NatsServer,
  seedCampaignWithKey,
  seedProject,
  spawnApp,
  startNatsServer,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";
import { call } from "./stack";

/** ingest-api against a NATS server of this test's own, so stopping it disturbs nobody else. */
describe("ingest-api when NATS stops and comes back", () => {
  let nats: NatsServer;
  let ingest: AppProcess;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let apiKey = "";
  let regEventId = "";

  beforeAll(async () => {
    nats = await startNatsServer();
    const schema = uniqueName("e2e");
    db = await createTestDatabase(schema);
    const projectId = await seedProject(db, { id: "00000000-0000-4000-8000-000000000001", name: "p" });
    const seeded = await seedCampaignWithKey(db, { id: "outa-ge01", projectId });
    apiKey = seeded.key;
    regEventId = seeded.regEventId;
    ingest = await spawnApp("ingest-api", {
      ...testServiceEnv(schema, { natsUrl: nats.url }),
      PUBLISH_TIMEOUT_MS: "1000",
    });
  });
  afterAll(async () => {
    await ingest?.stop("SIGKILL");
    await nats?.destroy();
    await db?.drop();
  });

  const send = () =>
    call(
      "POST",
      `${ingest.url}/api/rest/earn-event`,
      { account_id: "123456789", identity_type: "DISCORD_PROVIDER_ID", amount: 1, reg_event_id: regEventId },
      { authorization: `Bearer ${apiKey}` },
    );

  it("answers bus-unavailable (not success, not a hang) while NATS is down, and succeeds once it is back", async () => {
    expect((await send()).body.data.event_id).toBeDefined();

    await nats.stop();
    const started = Date.now();
    const down = await send();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(down.status).toBe(200);
    expect(down.body.data).toBeNull();
    expect(down.body.errors[0].extensions.code).toBe("bus-unavailable");
    expect((await call("GET", `${ingest.url}/readyz`)).status).toBe(503);

    await nats.start();
    let up = await send();
    for (let i = 0; i < 100 && up.body.data === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      up = await send();
    }
    expect(up.body.data.event_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
