// WindowBook flushes every open window in key order however positions join and leave, held to a model written here.
import fc from "fast-check";
import { positionKey, WindowBook } from "./windows";

const users = ["0xc3", "0xa1", "0xb2", "0xa10", "0xff", "0x0e"];
const step = fc.oneof(
  fc.record({ kind: fc.constant("delta" as const), user: fc.constantFrom(...users), amount: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ kind: fc.constant("flush" as const) }),
);

describe("WindowBook flush order", () => {
  it("closes at each flush exactly the positions holding a balance, in key order (property)", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const book = new WindowBook();
        const model = new Map<string, number>();
        let ts = 1_000;
        for (const s of steps) {
          ts += 10; // every step later than the one before, so every open window has length
          const at = { ts, block: ts };
          if (s.kind === "delta") {
            // The model never goes below zero: a withdrawal is at most what is held.
            const held = model.get(s.user) ?? 0;
            const amount = Math.max(-held, s.amount);
            book.applyDelta(s.user, "0xasset", "hold", String(amount), at);
            model.set(s.user, held + amount);
          } else {
            const closed = book.flush(at).map((w) => positionKey(w.user, w.asset, w.activity));
            const holding = [...model.entries()].filter(([, b]) => b > 0).map(([u]) => positionKey(u, "0xasset", "hold"));
            expect(closed).toEqual([...holding].sort());
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
