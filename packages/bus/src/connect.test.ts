// The bus's first connection made once (bounded, typed failure) for a start-up loop to retry, and checkConnection.
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { startNatsServer, uniqueName } from "@pointwise/testkit";
import { createBus } from "./bus";

jest.setTimeout(30_000);

describe("firstConnect: once", () => {
  it("rejects at once with a retryable bus-unavailable while nothing listens, and connects once NATS is up", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    try {
      const started = Date.now();
      const err = await createBus({ url: nats.url, namespace: uniqueName("t"), firstConnect: "once" }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(err).toMatchObject({ code: "bus-unavailable", retryable: true });

      await nats.start();
      const bus = await createBus({ url: nats.url, namespace: uniqueName("t"), firstConnect: "once" });
      try {
        await expect(bus.checkConnection()).resolves.toBeUndefined();
        await bus.ensureStreams();
        // Once connected it reconnects by itself, as the other modes do.
        await nats.stop();
        await expect(bus.checkConnection()).rejects.toMatchObject({ code: "bus-unavailable" });
        await nats.start();
        const deadline = Date.now() + 10_000;
        while (!(await bus.ping()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await expect(bus.checkConnection()).resolves.toBeUndefined();
      } finally {
        await bus.close();
      }
    } finally {
      await nats.destroy();
    }
  });

  it("checkConnection of a bus connecting in the background rejects with bus-unavailable until NATS answers", async () => {
    const nats = await startNatsServer();
    await nats.stop();
    const bus = await createBus({ url: nats.url, namespace: uniqueName("t"), firstConnect: "background" });
    try {
      await expect(bus.checkConnection()).rejects.toMatchObject({ code: "bus-unavailable", retryable: true });
      await nats.start();
      const deadline = Date.now() + 10_000;
      while (!(await bus.ping()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await expect(bus.checkConnection()).resolves.toBeUndefined();
    } finally {
      await bus.close();
      await nats.destroy();
    }
  });
});
