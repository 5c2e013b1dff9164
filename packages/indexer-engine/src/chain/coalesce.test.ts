// Flush-boundary searches started together share their chain requests, and each still finds its own answer.
import fc from "fast-check";
import { coalescedTimestamps } from "./ahead";
import { lastBlockBefore } from "./boundary";

/** A chain whose block n is stamped stamps[n], recording every batch asked of it. */
function timeline(stamps: readonly number[]) {
  const batches: number[][] = [];
  return {
    batches,
    timestamp: async (block: number) => stamps[block] as number,
    async timestamps(blocks: readonly number[]) {
      batches.push([...blocks]);
      return new Map(blocks.map((b) => [b, stamps[b] as number]));
    },
  };
}

/** The answer by definition: the last block stamped before the boundary. */
const expected = (stamps: readonly number[], boundary: number) => stamps.filter((t) => t < boundary).length - 1;

describe("coalescedTimestamps", () => {
  it("sends the first steps of searches started together as one request, and answers each with its own blocks", async () => {
    const stamps = Array.from({ length: 3_001 }, (_, n) => 1_000_000 + n * 12_000);
    const chain = timeline(stamps);
    const source = coalescedTimestamps(chain);
    const point = (block: number) => ({ block, ts: stamps[block] as number });
    const hours = [1, 2, 3, 5, 8].map((h) => 1_000_000 + h * 3_600_000 + 7);
    const answers = await Promise.all(hours.map((boundary) => lastBlockBefore(source, boundary, point(0), point(3_000))));
    expect(answers).toEqual(hours.map((b) => expected(stamps, b)));
    // A steady block time: every search needs one step, so one request for all five.
    expect(chain.batches).toHaveLength(1);
    expect(await source.timestamps([5, 7])).toEqual(
      new Map([
        [5, stamps[5]],
        [7, stamps[7]],
      ]),
    );
  });

  it("finds the same blocks as separate searches on any increasing timeline, in no more requests (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 3, maxLength: 2_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        async (gaps, wheres) => {
          let sum = 0;
          const stamps = gaps.map((g) => (sum += g));
          const last = stamps.length - 1;
          const first = stamps[0] as number;
          const boundaries = wheres.map((w) => Math.max(first + 1, Math.floor(first + w * ((stamps[last] as number) - first))));
          const ends = [
            { block: 0, ts: first },
            { block: last, ts: stamps[last] as number },
          ] as const;
          const alone = timeline(stamps);
          const separate = [];
          for (const b of boundaries) separate.push(await lastBlockBefore(alone, b, ...ends));
          const shared = timeline(stamps);
          const source = coalescedTimestamps(shared);
          const together = await Promise.all(boundaries.map((b) => lastBlockBefore(source, b, ...ends)));
          expect(together).toEqual(boundaries.map((b) => expected(stamps, b)));
          expect(together).toEqual(separate);
          expect(shared.batches.length).toBeLessThanOrEqual(alone.batches.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("asks once for a block several callers want in the same turn, and passes single timestamps straight through", async () => {
    const chain = timeline([10, 20, 30, 40]);
    const source = coalescedTimestamps(chain);
    const [a, b] = await Promise.all([source.timestamps([1, 2]), source.timestamps([2, 3])]);
    expect(a).toEqual(
      new Map([
        [1, 20],
        [2, 30],
      ]),
    );
    expect(b).toEqual(
      new Map([
        [2, 30],
        [3, 40],
      ]),
    );
    expect(chain.batches).toEqual([[1, 2, 3]]);
    expect(await source.timestamp(3)).toBe(40);
    // Nothing more goes to the chain afterwards: no second, empty request for the second caller.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(chain.batches).toEqual([[1, 2, 3]]);
  });

  it("rejects every search waiting on a request that fails", async () => {
    const failing = {
      timestamp: async () => 0,
      timestamps: async () => {
        throw new Error("node down");
      },
    };
    const source = coalescedTimestamps(failing);
    const searches = [10, 20].map((h) => lastBlockBefore(source, h * 1_000, { block: 0, ts: 0 }, { block: 100, ts: 100_000 }));
    for (const search of searches) await expect(search).rejects.toThrow("node down");
  });
});
