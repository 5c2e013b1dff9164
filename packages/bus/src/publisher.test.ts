// The JetStream publisher on real NATS: sequences, duplicate event ids, bus-unavailable while disconnected.
import { randomUUID } from "node:crypto";
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { createTestBus, startNatsServer } from "@pointwise/testkit";

const REG_EVENT_ID = "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11";

/** A bus in its own namespace, on the shared NATS or on a private one. */
async function seed(options: { natsUrl?: string } = {}) {
  const bus = options.natsUrl ? await createTestBus(undefined, options.natsUrl) : await createTestBus();
  return {
    bus,
    campaignId: "core-0001",
    regEventId: REG_EVENT_ID,
    count: async () => (await bus.eventsStreamState()).messages,
    drop: () => bus.drop(),
  };
}

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const message = (campaignId: string, regEventId: string, eventId: string = randomUUID()) => ({
  v: 1 as const,
  event_id: eventId,
  campaign_id: campaignId,
  account_id: "123",
  identity_type: "DISCORD_PROVIDER_ID" as const,
  amount: "1",
  reg_event_id: regEventId,
  received_at: new Date().toISOString(),
  source: "api" as const,
});

describe("JetStream event publisher", () => {
  it("resolves with the stream sequence once stored, and recognises a repeated event id as a duplicate", async () => {
    const s = await seed();
    const publisher = s.bus.eventPublisher({ timeoutMs: 3000 });
    try {
      const m = message(s.campaignId, s.regEventId);
      const acks = await Promise.all(Array.from({ length: 200 }, () => publisher.publish(message(s.campaignId, s.regEventId))));
      expect(new Set(acks.map((a) => a.seq)).size).toBe(200);
      const first = await publisher.publish(m);
      expect(first.duplicate).toBe(false);
      const repeat = await publisher.publish(m);
      expect(repeat).toEqual({ seq: first.seq, duplicate: true });
      expect(await s.count()).toBe(201);
      const stored = await s.bus.storedEvent(first.seq);
      expect(stored.json()).toEqual(m);
    } finally {
      await publisher.close();
      await s.drop();
    }
  });

  it("refuses at once with bus-unavailable while the connection is down, and publishes again once it is back", async () => {
    const nats = await startNatsServer();
    const s = await seed({ natsUrl: nats.url });
    const publisher = s.bus.eventPublisher({ timeoutMs: 1000 });
    try {
      await nats.stop();
      await new Promise((r) => setTimeout(r, 200));
      await expect(publisher.publish(message(s.campaignId, s.regEventId))).rejects.toMatchObject({ code: "bus-unavailable", retryable: true });
      await nats.start();
      let ack: unknown;
      for (let i = 0; i < 100 && ack === undefined; i++) {
        ack = await publisher.publish(message(s.campaignId, s.regEventId)).catch(() => new Promise((r) => setTimeout(() => r(undefined), 100)));
      }
      expect(ack).toMatchObject({ duplicate: false });
      expect(await s.count()).toBe(1);
    } finally {
      await publisher.close();
      await s.drop();
      await nats.destroy();
    }
  });

  it("fails a publish whose subject no stream takes", async () => {
    const s = await seed();
    const publisher = s.bus.eventPublisher({ timeoutMs: 1000 });
    try {
      await s.bus.deleteStreams();
      await expect(publisher.publish(message(s.campaignId, s.regEventId))).rejects.toMatchObject({ code: "bus-unavailable" });
    } finally {
      await publisher.close();
      await s.drop();
    }
  });
});
