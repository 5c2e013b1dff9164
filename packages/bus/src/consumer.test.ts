// The durable consumer of the raw event stream against the real NATS: its settings, deliveries and state.
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { createTestBus, testUrls, waitUntil } from "@pointwise/testkit";
import { AckPolicy, connect, DeliverPolicy, nanos } from "nats";
import type { EventDelivery } from "./consumer";
import { decodeRawEvent } from "./consumer";
import { testEvent } from "./test-event";

jest.setTimeout(60_000);

const event = testEvent;

describe("the durable consumer", () => {
  it("takes over a consumer created with other settings: the server never drops a message on its own", async () => {
    const bus = await createTestBus();
    // The settings an older release used (max_deliver 6, a 30 s ack wait), set through the server's own API.
    const nc = await connect({ servers: testUrls.nats });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.consumers.add(bus.names.eventsStream, {
        durable_name: "older",
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: nanos(30_000),
        max_deliver: 6,
        max_ack_pending: 20000,
      });
      await bus.ensureEventsConsumer("older", { ackWaitMs: 4000, maxAckPending: 2000 });
      const info = await jsm.consumers.info(bus.names.eventsStream, "older");
      expect(info.config).toMatchObject({ max_deliver: -1, ack_wait: 4000 * 1_000_000, max_ack_pending: 2000 });
      await bus.ensureEventsConsumer("fresh", { ackWaitMs: 4000, maxAckPending: 2000 });
      expect((await jsm.consumers.info(bus.names.eventsStream, "fresh")).config).toMatchObject({ max_deliver: -1, durable_name: "fresh" });
      await bus.deleteEventsConsumer("older");
      await bus.deleteEventsConsumer("fresh");
      await expect(jsm.consumers.info(bus.names.eventsStream, "fresh")).rejects.toThrow(/consumer not found/);
    } finally {
      await nc.drain();
      await bus.drop();
    }
  });

  it("is created by replicas racing each other, once, with the same settings", async () => {
    const bus = await createTestBus();
    try {
      await Promise.all(Array.from({ length: 4 }, () => bus.ensureEventsConsumer("shared", { ackWaitMs: 5000, maxAckPending: 1000 })));
      expect(await bus.eventsConsumerState("shared")).toEqual({ ackFloor: 0, pending: 0, ackPending: 0 });
    } finally {
      await bus.drop();
    }
  });

  it("hands out messages as they are published, redelivers a nak'ed one with its delivery count, and reports its ack floor", async () => {
    const bus = await createTestBus();
    try {
      await bus.ensureEventsConsumer("worker", { ackWaitMs: 5000, maxAckPending: 1000 });
      const events = [event("cons-0001"), event("cons-0001"), event("cons-0001")];
      for (const e of events) await bus.publishRawEvent(e);
      await waitUntil(async () => (await bus.eventsConsumerState("worker")).pending === 3, 5000, "3 messages pending");

      const messages = await bus.consumeEvents("worker", { batchSize: 10, expiresMs: 1000, retryDelayMs: 50 });
      const seen: EventDelivery[] = [];
      const pump = (async () => {
        for await (const m of messages) {
          seen.push(m);
          if (m.seq === 2 && m.info.redeliveryCount === 1) m.nak(100);
          else await m.ackAck();
        }
      })();
      await waitUntil(() => seen.length === 4, 5000, "three deliveries and one redelivery");
      messages.stop();
      await pump;

      expect(seen.map((m) => [m.seq, m.info.redeliveryCount])).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
        [2, 2],
      ]);
      expect(seen.map((m) => m.info.stream)).toEqual(Array(4).fill(bus.names.eventsStream));
      const decoded = seen.map((m) => decodeRawEvent(m));
      expect(decoded.slice(0, 3)).toEqual(events.map((e) => ({ ok: true, event: e })));
      expect(await bus.eventsConsumerState("worker")).toEqual({ ackFloor: 3, pending: 0, ackPending: 0 });
    } finally {
      await bus.drop();
    }
  });

  it("refuses to consume a consumer that does not exist", async () => {
    const bus = await createTestBus();
    try {
      await expect(bus.consumeEvents("nobody", { batchSize: 1, expiresMs: 1000, retryDelayMs: 50 })).rejects.toThrow(/consumer not found/);
    } finally {
      await bus.drop();
    }
  });
});

describe("decodeRawEvent", () => {
  it("says why bytes can never be applied", () => {
    const bytes = (text: string) => ({ data: new TextEncoder().encode(text) });
    expect(decodeRawEvent(bytes("{not json"))).toEqual({ ok: false, reason: "message is not JSON" });
    expect(decodeRawEvent(bytes('{"v":2}'))).toMatchObject({ ok: false, reason: expect.stringMatching(/^message is not a raw event \(version 1 or 2\): /) });
  });
});
