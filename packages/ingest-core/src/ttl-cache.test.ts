// TtlCache: expiry, a ttl of 0, and dropping the oldest entry when full.
import { TtlCache } from "./ttl-cache";

describe("TtlCache", () => {
  it("returns a value until it expires", async () => {
    const cache = new TtlCache<number>(30);
    cache.set("a", 1);
    expect(cache.get("a")).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect(cache.get("a")).toBeUndefined();
  });

  it("stores nothing with a ttl of 0 or less", () => {
    for (const ttl of [0, -5]) {
      const cache = new TtlCache<number>(ttl);
      expect(cache.set("a", 1)).toBe(1);
      expect(cache.size).toBe(0);
      expect(cache.get("a")).toBeUndefined();
    }
  });

  describe("on a controlled clock", () => {
    beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
    afterEach(() => jest.useRealTimers());

    it("expires an entry exactly ttl ms after it was set, and forgets it then", () => {
      const cache = new TtlCache<string>(100);
      expect(cache.set("a", "x")).toBe("x");
      jest.setSystemTime(1_000_099);
      expect(cache.get("a")).toBe("x");
      jest.setSystemTime(1_000_100);
      expect(cache.size).toBe(1);
      expect(cache.get("a")).toBeUndefined();
      expect(cache.size).toBe(0);
    });

    it("setting a key again restarts its ttl", () => {
      const cache = new TtlCache<string>(100);
      cache.set("a", "old");
      jest.setSystemTime(1_000_050);
      cache.set("a", "new");
      jest.setSystemTime(1_000_120);
      expect(cache.get("a")).toBe("new");
    });
  });

  it("setting a key again makes it the newest, so the next eviction takes another", () => {
    const cache = new TtlCache<string>(60_000, 3);
    for (const k of ["a", "b", "c"]) cache.set(k, k);
    cache.set("a", "a2");
    cache.set("d", "d");
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual(["a2", undefined, "c", "d"]);
  });

  it("replacing a key in a full cache evicts nothing", () => {
    const cache = new TtlCache<string>(60_000, 3);
    for (const k of ["a", "b", "c"]) cache.set(k, k);
    cache.set("b", "b2");
    expect(cache.size).toBe(3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["a", "b2", "c"]);
  });

  it("holds 10000 entries by default", () => {
    const cache = new TtlCache<number>(60_000);
    for (let i = 0; i <= 10_000; i++) cache.set(String(i), i);
    expect(cache.size).toBe(10_000);
    expect(cache.get("0")).toBeUndefined();
    expect(cache.get("1")).toBe(1);
  });

  it("drops the oldest entry when full, keeping the rest", () => {
    const cache = new TtlCache<string>(60_000, 3);
    for (const k of ["a", "b", "c", "d"]) cache.set(k, k);
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect([cache.get("b"), cache.get("c"), cache.get("d")]).toEqual(["b", "c", "d"]);
  });
});
