// ingest-api's Idempotency-Key: replays, campaign scope, concurrency, expiry, retries over a bus outage.
import { type NatsServer, seedEventType, startNatsServer } from "@pointwise/testkit";
import { type Harness, startHarness, validBody } from "./harness";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const ONE = "/api/rest/earn-event";
const MANY = "/api/rest/earn-events";

describe("Idempotency-Key", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers a repeat (same key, same body) with the first answer, byte for byte, and logs no new occurrence", async () => {
    const body = JSON.stringify(validBody(h, { amount: "3" }));
    const first = await h.post(ONE, body, { "idempotency-key": "repeat-1" });
    const before = await h.count();
    const again = await h.post(ONE, body, { "idempotency-key": "repeat-1" });
    expect(again.text).toBe(first.text);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await h.count()).toBe(before);
  });

  it("treats different keys as different requests even with the same body", async () => {
    const body = validBody(h, { amount: "4" });
    const a = await h.post(ONE, body, { "idempotency-key": "distinct-a" });
    const b = await h.post(ONE, body, { "idempotency-key": "distinct-b" });
    expect(a.body.data.event_id).not.toBe(b.body.data.event_id);
  });

  it("scopes keys to the campaign: another campaign may use the same key", async () => {
    const mine = await h.post(ONE, validBody(h), { "idempotency-key": "shared" });
    const theirs = await h.post(ONE, validBody(h, { reg_event_id: h.other.regEventId }), {
      "idempotency-key": "shared",
      authorization: `Bearer ${h.other.key}`,
    });
    expect(theirs.body.data.event_id).toBeDefined();
    expect(theirs.body.data.event_id).not.toBe(mine.body.data.event_id);
  });

  it("lets concurrent requests with one key publish once: every one gets the same answer", async () => {
    const before = await h.count();
    const body = JSON.stringify(validBody(h, { amount: "5" }));
    const answers = await Promise.all(Array.from({ length: 12 }, () => h.post(ONE, body, { "idempotency-key": "concurrent" })));
    const ids = new Set(answers.map((a) => a.body.data?.event_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(answers.filter((a) => a.headers["idempotent-replayed"] === "true")).toHaveLength(11);
    expect(await h.count()).toBe(before + 1);
  });

  it("replays a whole batch answer under its key", async () => {
    const body = JSON.stringify({ events: [validBody(h), validBody(h, { amount: -1 }), validBody(h, { amount: "2" })] });
    const first = await h.post(MANY, body, { "idempotency-key": "batch-1" });
    expect(first.body.data.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true]);
    const before = await h.count();
    const again = await h.post(MANY, body, { "idempotency-key": "batch-1" });
    expect(again.text).toBe(first.text);
    expect(await h.count()).toBe(before);
  });

  it("forgets a key after 24 hours: the same request is then a new occurrence", async () => {
    const body = JSON.stringify(validBody(h, { amount: "6" }));
    const first = await h.post(ONE, body, { "idempotency-key": "day-old" });
    await h.db.query("UPDATE idempotency_key SET created_at = now() - interval '24 hours 1 second' WHERE key = 'day-old'");
    const before = await h.count();
    const later = await h.post(ONE, body, { "idempotency-key": "day-old" });
    expect(later.body.data.event_id).not.toBe(first.body.data.event_id);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await h.count()).toBe(before + 1);
    // ...and a day-old record is what the periodic purge deletes.
    await h.db.query("UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'day-old'");
    expect(await h.ctx.pipeline.idempotency.purge()).toBe(1);
  });

  it("does not remember refusals: a request refused for its body can be fixed and sent with the same key", async () => {
    const refused = await h.post(ONE, validBody(h, { amount: "-7" }), { "idempotency-key": "fix-me" });
    expect(refused.body.errors[0].extensions.code).toBe("negative-amount");
    // A body refused for its fields never touches the key's record: it is answered for its fields even under a key
    // another request holds.
    expect((await h.db.query("SELECT 1 FROM idempotency_key WHERE key = 'fix-me'")).rows).toEqual([]);
    await h.post(ONE, validBody(h, { amount: "8" }), { "idempotency-key": "held-by-another" });
    const malformed = await h.post(ONE, validBody(h, { amount: "-8" }), { "idempotency-key": "held-by-another" });
    expect(malformed.body.errors[0].extensions.code).toBe("negative-amount");
    const accepted = await h.post(ONE, validBody(h, { amount: "7" }), { "idempotency-key": "fix-me" });
    expect(accepted.body.data.event_id).toBeDefined();
  });
});

describe("Idempotency-Key across a bus outage", () => {
  let nats: NatsServer;
  let h: Harness;
  beforeAll(async () => {
    nats = await startNatsServer();
    // No lookup cache: a retired event type is seen by the next request.
    h = await startHarness({ PUBLISH_TIMEOUT_MS: "500", LOOKUP_CACHE_MS: "0" }, { natsUrl: nats.url });
  });
  afterAll(async () => {
    await h?.close();
    await nats?.destroy();
  });

  it("publishes a retried batch under the same event ids after bus-unavailable, and stores each exactly once", async () => {
    const body = JSON.stringify({ events: [validBody(h, { amount: "1" }), validBody(h, { amount: "2" })] });
    await nats.stop();
    const down = await h.post(MANY, body, { "idempotency-key": "outage-1" });
    expect(down.body.errors[0].extensions.code).toBe("bus-unavailable");
    const { rows } = await h.db.query<{ event_ids: string[] }>("SELECT event_ids::text[] AS event_ids FROM idempotency_key WHERE key = 'outage-1'");
    const reserved = rows[0]?.event_ids;
    expect(reserved).toHaveLength(2);
    await nats.start();
    await h.waitForBus();
    const up = await h.post(MANY, body, { "idempotency-key": "outage-1" });
    expect(up.body.data.results.map((r: { event_id: string }) => r.event_id)).toEqual(reserved);
    const stored = await h.messages();
    for (const id of reserved ?? []) expect(stored.filter((m) => m.event_id === id)).toHaveLength(1);
  });

  it("judges a retry that takes over a failed attempt by the event types of its first receipt: a type retired since still counts", async () => {
    const soonRetired = await seedEventType(h.db, h.main.campaignId, { name: "soon-retired" });
    const body = JSON.stringify({
      events: [validBody(h, { reg_event_id: soonRetired, amount: "1" }), validBody(h, { reg_event_id: h.main.retiredEventId, amount: "2" })],
    });
    await nats.stop();
    const down = await h.post(MANY, body, { "idempotency-key": "retired-between" });
    expect(down.body.errors[0].extensions.code).toBe("bus-unavailable");
    const { rows } = await h.db.query<{ event_ids: string[] }>("SELECT event_ids::text[] AS event_ids FROM idempotency_key WHERE key = 'retired-between'");
    const reserved = rows[0]?.event_ids ?? [];
    await h.db.query("UPDATE event_type SET retired_at = now() WHERE id = $1", [soonRetired]);
    await nats.start();
    await h.waitForBus();

    const up = await h.post(MANY, body, { "idempotency-key": "retired-between" });
    expect(up.body.data.results).toEqual([
      { ok: true, event_id: reserved[0] },
      { ok: false, errors: [expect.objectContaining({ extensions: { code: "unknown-event-type" } })] },
    ]);
    const stored = (await h.messages()).filter((m) => m.event_id === reserved[0]);
    expect(stored.map((m) => m.reg_event_id)).toEqual([soonRetired]);
    // The same body as a new request is judged now: both types are retired.
    const before = await h.count();
    const fresh = await h.post(MANY, body, { "idempotency-key": "retired-now" });
    expect(fresh.body.data.results.map((r: { errors: { extensions: { code: string } }[] }) => r.errors[0]?.extensions.code)).toEqual([
      "unknown-event-type",
      "unknown-event-type",
    ]);
    expect(await h.count()).toBe(before);
  });

  it("judges a retry that takes over a failed attempt by the campaign's dates and the key's backfill right of its first receipt", async () => {
    const twoDaysBack = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const body = JSON.stringify({ events: [validBody(h, { amount: "3", occurred_at: twoDaysBack }), validBody(h, { amount: "4" })] });
    await h.db.query("UPDATE api_key SET backfill = true WHERE id = $1", [h.main.keyId]);
    try {
      await nats.stop();
      const down = await h.post(MANY, body, { "idempotency-key": "rights-between" });
      expect(down.body.errors[0].extensions.code).toBe("bus-unavailable");
      const { rows } = await h.db.query<{ event_ids: string[]; received_at: Date }>(
        "SELECT event_ids::text[] AS event_ids, received_at FROM idempotency_key WHERE key = 'rights-between'",
      );
      const reserved = rows[0]?.event_ids ?? [];
      const firstReceipt = rows[0]?.received_at.getTime() ?? Number.NaN;
      // Between the attempts the key loses its backfill right and the campaign's end moves before the first receipt:
      // judged now, the first event is too old and the second (which happened at its receipt) after the campaign.
      await h.db.query("UPDATE api_key SET backfill = false WHERE id = $1", [h.main.keyId]);
      await h.db.query("UPDATE campaign SET ends_at = $2 WHERE id = $1", [h.main.campaignId, new Date(firstReceipt - 60_000)]);
      await nats.start();
      await h.waitForBus();

      const up = await h.post(MANY, body, { "idempotency-key": "rights-between" });
      expect(up.body.data.results).toEqual([
        { ok: true, event_id: reserved[0] },
        { ok: true, event_id: reserved[1] },
      ]);
      const stored = (await h.messages()).filter((m) => reserved.includes(m.event_id));
      expect(stored.map((m) => m.amount).sort()).toEqual(["3", "4"]);
      // The same body as a new request is judged by the rights of now.
      const fresh = await h.post(MANY, body, { "idempotency-key": "rights-now" });
      expect(fresh.body.data.results.map((r: { errors: { extensions: { code: string } }[] }) => r.errors[0]?.extensions.code)).toEqual([
        "occurred-at-too-old",
        "occurred-at-after-campaign",
      ]);
    } finally {
      await h.db.query("UPDATE campaign SET ends_at = NULL WHERE id = $1", [h.main.campaignId]);
      await h.db.query("UPDATE api_key SET backfill = false WHERE id = $1", [h.main.keyId]);
    }
  });
});
