// The bus while its connection to NATS is lost (NATS behind a TCP proxy the test cuts): requests to JetStream
// are refused at once rather than held until the request timeout, and answered again once the client reconnects.
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { createTcpProxy, createTestBus, testUrls, uniqueName, waitUntil } from "@pointwise/testkit";
import { testEvent } from "./test-event";

jest.setTimeout(60_000);

/** How `work` ended, and how long it took (ms). */
async function timed(work: () => Promise<unknown>): Promise<{ value?: unknown; error?: unknown; ms: number }> {
  const started = Date.now();
  const outcome = await work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { ...outcome, ms: Date.now() - started };
}

// nats.js holds a request made while it reconnects until its request timeout (5 s); a refusal "at once"
// is one well within it.
const AT_ONCE_MS = 1500;

describe("a bus whose connection to NATS is lost", () => {
  it("refuses consumer state, checkConnection and ping at once while it reconnects, and answers them again once NATS is back", async () => {
    const proxy = await createTcpProxy(testUrls.nats);
    await proxy.start();
    const bus = await createTestBus(uniqueName("t"), proxy.url);
    try {
      await bus.ensureEventsConsumer("lag", { ackWaitMs: 30_000, maxAckPending: 1000 });
      await bus.publishRawEvent(testEvent("outg-0001"));
      await waitUntil(async () => (await bus.eventsConsumerState("lag")).pending === 1, 5000, "one pending message");

      await proxy.stop();
      await waitUntil(async () => !(await bus.ping()), 20_000, "the bus to notice the lost connection");

      const state = await timed(() => bus.eventsConsumerState("lag"));
      expect(state.error).toMatchObject({ code: "bus-unavailable", retryable: true, details: { reason: "NATS not connected" } });
      expect(state.ms).toBeLessThan(AT_ONCE_MS);
      const check = await timed(() => bus.checkConnection());
      expect(check.error).toMatchObject({ code: "bus-unavailable", retryable: true });
      expect(check.ms).toBeLessThan(AT_ONCE_MS);
      const ping = await timed(() => bus.ping());
      expect(ping.value).toBe(false);
      expect(ping.ms).toBeLessThan(AT_ONCE_MS);

      await proxy.start();
      await waitUntil(() => bus.ping(), 20_000, "the bus to reconnect");
      expect(await bus.eventsConsumerState("lag")).toEqual({ ackFloor: 0, pending: 1, ackPending: 0 });
      await expect(bus.checkConnection()).resolves.toBeUndefined();
    } finally {
      await proxy.start();
      await bus.drop();
      await proxy.stop();
    }
  });
});
