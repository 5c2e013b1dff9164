// The Redis cache on a real server: getOrBuild builds once across connections, prefixed keys, scripts, closing.
import net from "node:net";
import { type Cache, createCache } from "./index";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `t_cache_${process.pid}_${Date.now().toString(36)}`;
let cache: Cache;

beforeAll(async () => {
  cache = await createCache({ url, prefix });
});
afterAll(async () => {
  await cache.delTree(prefix);
  await cache.close();
});

describe("cache.getOrBuild", () => {
  it("builds once and serves the same bytes until the entry expires", async () => {
    let builds = 0;
    const k = cache.key("once");
    const build = async () => `value-${++builds}`;
    expect(await cache.getOrBuild(k, 200, build)).toBe("value-1");
    expect(await cache.getOrBuild(k, 200, build)).toBe("value-1");
    await new Promise((r) => setTimeout(r, 250));
    expect(await cache.getOrBuild(k, 200, build)).toBe("value-2");
  });

  it("answers a value its keep check refuses without storing it, so the next call builds again", async () => {
    let builds = 0;
    const k = cache.key("unkept");
    const build = async () => `value-${++builds}`;
    expect(await cache.getOrBuild(k, 60_000, build, () => false)).toBe("value-1");
    expect(await cache.get(k)).toBeNull();
    expect(await cache.getOrBuild(k, 60_000, build, () => true)).toBe("value-2");
    expect(await cache.getOrBuild(k, 60_000, build)).toBe("value-2");
  });

  it("builds once for many concurrent misses, across separate connections", async () => {
    const other = await createCache({ url, prefix });
    let builds = 0;
    const k = cache.key("single-flight");
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 100));
      return "built";
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? cache : other).getOrBuild(k, 5000, build)));
    await other.close();
    expect(new Set(results)).toEqual(new Set(["built"]));
    expect(builds).toBe(1);
  });

  it("prefixes keys so deployments sharing a server do not collide", () => {
    expect(cache.key("lb", "ab12-cd34", "100")).toBe(`${prefix}:lb:ab12-cd34:100`);
  });
});

describe("the named operations", () => {
  it("stores, reads, expires and counts strings under prefixed keys", async () => {
    const k = cache.key("ops", "plain");
    expect(await cache.get(k)).toBeNull();
    expect(await cache.getWithTtl(k)).toBeNull();
    await cache.set(k, "forever");
    expect(await cache.get(k)).toBe("forever");
    expect(await cache.getWithTtl(k)).toEqual({ value: "forever", ttlMs: -1 });
    await cache.set(k, "soon", 60_000);
    const read = await cache.getWithTtl(k);
    expect(read?.value).toBe("soon");
    expect(read?.ttlMs).toBeGreaterThan(50_000);
    expect(read?.ttlMs).toBeLessThanOrEqual(60_000);
    await cache.expire(k, 100);
    expect((await cache.getWithTtl(k))?.ttlMs).toBeLessThanOrEqual(100);
    expect(await cache.exists(k, cache.key("ops", "missing"))).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(await cache.exists(k)).toBe(0);
  });

  it("deletes a key and the keys below it, not a key that merely starts with the same letters", async () => {
    const head = cache.key("tree", "lb", "c1");
    const below = [head, `${head}:100`, `${head}:100:x`];
    const beside = [`${head}0`, cache.key("tree", "lb", "c2")];
    for (const k of [...below, ...beside]) await cache.set(k, "1");
    expect(await cache.delTree(head)).toBe(3);
    expect(await cache.exists(...below)).toBe(0);
    expect(await cache.exists(...beside)).toBe(2);
    expect((await cache.scanKeys(cache.key("tree", "*"))).sort()).toEqual([...beside].sort());
  });

  it("runs a script by its hash and loads it again after Redis forgot it", async () => {
    const incr = cache.defineScript("return redis.call('incrby', KEYS[1], ARGV[1])");
    const k = cache.key("script", "n");
    expect(await incr.run([k], ["2"])).toBe(2);
    await cache.flushScripts();
    expect(await incr.run([k], ["3"])).toBe(5);
  });

  it("fails with cache-unavailable once closed, and says it is closed", async () => {
    const gone = await createCache({ url, prefix });
    expect(gone.isOpen()).toBe(true);
    await gone.close();
    expect(gone.isOpen()).toBe(false);
    await expect(gone.get(gone.key("x"))).rejects.toMatchObject({ code: "cache-unavailable", retryable: true });
    await expect(gone.defineScript("return 1").run([], [])).rejects.toMatchObject({ code: "cache-unavailable" });
    expect(await gone.ping()).toBe(false);
  });

  it("with firstConnect background, starts at once while Redis is away and works once it is reachable", async () => {
    // A port nothing listens on yet; later a forwarder to the real Redis takes it, as Redis coming up.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const started = Date.now();
    const late = await createCache({ url: `redis://127.0.0.1:${port}`, prefix, firstConnect: "background" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await late.ping()).toBe(false);
    await expect(late.get(late.key("late"))).rejects.toMatchObject({ code: "cache-unavailable", retryable: true });

    const target = new URL(url);
    const sockets = new Set<net.Socket>();
    const forwarder = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => s.destroy());
        s.on("close", () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => forwarder.listen(port, "127.0.0.1", resolve));
    try {
      const deadline = Date.now() + 10_000;
      while (!(await late.ping()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await late.set(late.key("late"), "here");
      expect(await late.get(late.key("late"))).toBe("here");
      await late.close();
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => forwarder.close(r));
    }
  });
});
