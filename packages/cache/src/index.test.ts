import { type Cache, createCache } from "./index";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `t_cache_${process.pid}_${Date.now().toString(36)}`;
let cache: Cache;

beforeAll(async () => {
  cache = await createCache({ url, prefix });
});
afterAll(async () => {
  const keys = await cache.client.keys(`${prefix}:*`);
  if (keys.length) await cache.client.del(keys);
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
