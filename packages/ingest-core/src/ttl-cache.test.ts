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

  it("stores nothing with a ttl of 0", () => {
    const cache = new TtlCache<number>(0);
    expect(cache.set("a", 1)).toBe(1);
    expect(cache.get("a")).toBeUndefined();
  });

  it("drops the oldest entry when full, keeping the rest", () => {
    const cache = new TtlCache<string>(60_000, 3);
    for (const k of ["a", "b", "c", "d"]) cache.set(k, k);
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect([cache.get("b"), cache.get("c"), cache.get("d")]).toEqual(["b", "c", "d"]);
  });
});
