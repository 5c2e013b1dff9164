import { createBus } from "@pointwise/bus";
import { createTestCache, dropNamespace, testUrls, uniqueName } from "./services";

describe("dropNamespace", () => {
  it("deletes the namespace's JetStream stream and Redis keys, and nothing of another namespace", async () => {
    const gone = uniqueName("t");
    const kept = uniqueName("t");
    const buses = await Promise.all([gone, kept].map((namespace) => createBus({ url: testUrls.nats, namespace })));
    const caches = await Promise.all([gone, kept].map((prefix) => createTestCache(prefix)));
    try {
      for (const bus of buses) await bus.ensureStreams();
      for (const cache of caches) await cache.client.set(cache.key("lb", "x"), "1");

      await dropNamespace(gone);

      const [goneBus, keptBus] = buses as [(typeof buses)[0], (typeof buses)[0]];
      await expect(goneBus.jsm.streams.info(goneBus.names.eventsStream)).rejects.toThrow(/stream not found/);
      expect((await keptBus.jsm.streams.info(keptBus.names.eventsStream)).config.name).toBe(keptBus.names.eventsStream);
      expect(await caches[1]?.client.exists(`${gone}:lb:x`)).toBe(0);
      expect(await caches[1]?.client.exists(`${kept}:lb:x`)).toBe(1);
    } finally {
      await buses[1]?.jsm.streams.delete(buses[1].names.eventsStream).catch(() => undefined);
      for (const bus of buses) await bus.close();
      await caches[1]?.drop();
      await caches[0]?.close();
    }
  });
});
