// lastBlockBefore over block timelines written out in the test: the answer, and how many steps it needs.
import fc from "fast-check";
import { lastBlockBefore } from "./boundary";

/** A chain whose block n is stamped stamps[n], counting the batches asked of it. */
function timeline(stamps: readonly number[]) {
  const source = {
    steps: 0,
    async timestamps(blocks: readonly number[]) {
      source.steps++;
      return new Map(blocks.map((b) => [b, stamps[b] as number]));
    },
  };
  return source;
}

/** The answer by definition: the last block stamped before the boundary. */
const expected = (stamps: readonly number[], boundary: number) => stamps.filter((t) => t < boundary).length - 1;

describe("lastBlockBefore", () => {
  it("needs one step on a chain with a steady block time", async () => {
    const stamps = Array.from({ length: 5_001 }, (_, n) => 1_000_000 + n * 12_000);
    const chain = timeline(stamps);
    const boundary = 1_000_000 + 3_600_000 * 13 + 5;
    const at = await lastBlockBefore(chain, boundary, { block: 0, ts: stamps[0] as number }, { block: 5_000, ts: stamps[5_000] as number });
    expect(at).toBe(3_900); // 3,900 x 12 s = 13 h exactly, so block 3,900 is 5 ms before the boundary
    expect(chain.steps).toBe(1);
  });

  it("finds the last block before the boundary for any increasing timeline, in O(log n) steps", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 3_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (gaps, where) => {
          let sum = 0;
          const stamps = gaps.map((g) => (sum += g));
          const last = stamps.length - 1;
          const boundary = Math.max((stamps[0] as number) + 1, Math.floor((stamps[0] as number) + where * ((stamps[last] as number) - (stamps[0] as number))));
          const chain = timeline(stamps);
          const at = await lastBlockBefore(chain, boundary, { block: 0, ts: stamps[0] as number }, { block: last, ts: stamps[last] as number });
          expect(at).toBe(expected(stamps, boundary));
          expect(chain.steps).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(last + 1)) + 2);
        },
      ),
      { numRuns: 200 },
    );
  });
});
