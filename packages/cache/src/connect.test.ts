// The cache's first connection made once (bounded, typed failure) or in the background, and checkConnection.
// testkit is not a declared dependency: it builds on this package, and declaring it would make a cycle.
import { createTcpProxy } from "@pointwise/testkit";
import { createCache } from "./index";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `t_cache_connect_${process.pid}`;

jest.setTimeout(30_000);

describe("firstConnect", () => {
  it("once: rejects at once with a retryable cache-unavailable while nothing listens", async () => {
    const proxy = await createTcpProxy(url);
    const started = Date.now();
    const err = await createCache({ url: proxy.url, prefix, firstConnect: "once" }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toMatchObject({ code: "cache-unavailable", retryable: true });

    await proxy.start();
    const cache = await createCache({ url: proxy.url, prefix, firstConnect: "once" });
    try {
      await expect(cache.checkConnection()).resolves.toBeUndefined();
    } finally {
      await cache.close();
      await proxy.stop();
    }
  });

  it("background: resolves at once, fails every operation with cache-unavailable, and works once Redis answers", async () => {
    const proxy = await createTcpProxy(url);
    const cache = await createCache({ url: proxy.url, prefix, firstConnect: "background" });
    try {
      expect(cache.isOpen()).toBe(true);
      await expect(cache.get(cache.key("x"))).rejects.toMatchObject({ code: "cache-unavailable" });
      await expect(cache.checkConnection()).rejects.toMatchObject({ code: "cache-unavailable", retryable: true });
      expect(await cache.ping()).toBe(false);

      await proxy.start();
      const deadline = Date.now() + 10_000;
      while (!(await cache.ping()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await expect(cache.checkConnection()).resolves.toBeUndefined();
      expect(await cache.get(cache.key("x"))).toBeNull();
    } finally {
      await cache.close();
      await proxy.stop();
    }
  });

  it("background: closes while it has never connected", async () => {
    const proxy = await createTcpProxy(url);
    const cache = await createCache({ url: proxy.url, prefix, firstConnect: "background" });
    await cache.close();
    expect(cache.isOpen()).toBe(false);
  });
});
