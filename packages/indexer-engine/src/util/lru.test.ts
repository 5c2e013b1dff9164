// The LRU map: eviction order and its agreement with a list kept in recency order.
import fc from "fast-check";
import { Lru } from "./lru";

type Op = { op: "get" | "has" | "delete"; key: number } | { op: "set"; key: number; value: number };

describe("LRU map", () => {
  it("evicts the least recently used entry; get refreshes, has does not", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect([lru.has("a"), lru.has("b"), lru.has("c"), lru.size]).toEqual([true, false, true, 2]);
    lru.has("a");
    lru.set("d", 4);
    expect([lru.get("a"), lru.get("c"), lru.get("d")]).toEqual([undefined, 3, 4]);
    expect(() => new Lru(0)).toThrow("capacity must be at least 1");
  });

  it("set on a present key replaces its value and refreshes it; delete in the middle keeps the order of the rest", () => {
    const lru = new Lru<string, number>(3);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    lru.set("a", 10);
    lru.delete("c");
    lru.set("d", 4);
    lru.set("e", 5);
    // Recency before e: b (oldest), a, d; e evicts b.
    expect([lru.get("a"), lru.has("b"), lru.get("d"), lru.get("e"), lru.size]).toEqual([10, false, 4, 5, 3]);
    lru.set("f", 6);
    // a, d and e were read in that order, so a is the oldest now.
    expect([lru.has("a"), lru.has("d"), lru.has("e"), lru.has("f")]).toEqual([false, true, true, true]);
  });

  it("behaves like a list kept in recency order, for any operations (property)", () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constantFrom("get" as const, "has" as const, "delete" as const), key: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ op: fc.constant("set" as const), key: fc.integer({ min: 0, max: 6 }), value: fc.integer() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const lru = new Lru<number, number>(capacity);
        // The model: oldest first.
        let model: [number, number][] = [];
        for (const o of ops) {
          const at = model.findIndex(([k]) => k === o.key);
          if (o.op === "set") {
            model = [...model.filter(([k]) => k !== o.key), [o.key, o.value] as [number, number]].slice(-capacity);
            lru.set(o.key, o.value);
          } else if (o.op === "get") {
            const hit = model[at];
            if (hit !== undefined) model = [...model.filter(([k]) => k !== o.key), hit];
            expect(lru.get(o.key)).toBe(hit?.[1]);
          } else if (o.op === "has") {
            expect(lru.has(o.key)).toBe(at >= 0);
          } else {
            model = model.filter(([k]) => k !== o.key);
            lru.delete(o.key);
          }
          expect(lru.size).toBe(model.length);
        }
      }),
      { numRuns: 400 },
    );
  });
});
