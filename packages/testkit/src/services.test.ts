// dropNamespace deletes one namespace's JetStream stream and Redis keys on the real services, and no other's.
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
      for (const cache of caches) await cache.set(cache.key("lb", "x"), "1");

      await dropNamespace(gone);

      const [goneBus, keptBus] = buses as [(typeof buses)[0], (typeof buses)[0]];
      await expect(goneBus.eventsStreamState()).rejects.toThrow(/stream not found/);
      expect((await keptBus.eventsStreamState()).name).toBe(keptBus.names.eventsStream);
      expect(await caches[1]?.exists(`${gone}:lb:x`)).toBe(0);
      expect(await caches[1]?.exists(`${kept}:lb:x`)).toBe(1);
    } finally {
      await buses[1]?.deleteStreams().catch(() => undefined);
      for (const bus of buses) await bus.close();
      await caches[1]?.drop();
      await caches[0]?.close();
    }
  });
});
