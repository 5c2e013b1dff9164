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
  it("counts a block stamped exactly at the boundary as past it", async () => {
    // Blocks 12 s apart; block 300 is stamped at the boundary itself, so the answer is block 299.
    const stamps = Array.from({ length: 1_001 }, (_, n) => 5_000 + n * 12_000);
    const boundary = 5_000 + 300 * 12_000;
    for (const [from, to] of [
      [0, 1_000],
      [0, 301],
      [298, 1_000],
      [299, 300],
    ] as const) {
      const chain = timeline(stamps);
      const at = await lastBlockBefore(chain, boundary, { block: from, ts: stamps[from] as number }, { block: to, ts: stamps[to] as number });
      expect(at).toBe(299);
    }
  });

  it("falls back to bisection when interpolation crawls: one long stall keeps the step count logarithmic", async () => {
    // 4,000 blocks one second apart, then one block a year later: a straight line from block 0 to the last block puts
    // every guess next to the lower end, so interpolation alone would move a block or two per step.
    const stamps = Array.from({ length: 4_001 }, (_, n) => (n < 4_000 ? n * 1_000 : 365 * 86_400_000));
    const boundary = 3_000 * 1_000 + 500;
    const chain = timeline(stamps);
    const at = await lastBlockBefore(chain, boundary, { block: 0, ts: 0 }, { block: 4_000, ts: stamps[4_000] as number });
    expect(at).toBe(3_000);
    expect(chain.steps).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(4_001)) + 2);
  });

  it("asks only for blocks strictly between the two it knows", async () => {
    const stamps = Array.from({ length: 2_001 }, (_, n) => n * n * 7 + n * 3_000);
    const asked: number[][] = [];
    const source = {
      async timestamps(blocks: readonly number[]) {
        asked.push([...blocks]);
        return new Map(blocks.map((b) => [b, stamps[b] as number]));
      },
    };
    const boundary = (stamps[1_234] as number) + 1;
    const at = await lastBlockBefore(source, boundary, { block: 10, ts: stamps[10] as number }, { block: 2_000, ts: stamps[2_000] as number });
    expect(at).toBe(1_234);
    let lo = 10;
    let hi = 2_000;
    for (const blocks of asked) {
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        expect(b).toBeGreaterThan(lo);
        expect(b).toBeLessThan(hi);
      }
      for (const b of blocks) {
        if ((stamps[b] as number) < boundary) lo = Math.max(lo, b);
        else hi = Math.min(hi, b);
      }
    }
  });
  it("needs only a few steps where block times wander around a steady mean", async () => {
    // 100,000 blocks 12 s apart, each stamp moved by up to 3 s: bisection alone would take about 17 steps.
    let seed = 7;
    const jitter = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return (seed % 6_001) - 3_000;
    };
    const stamps = Array.from({ length: 100_001 }, (_, n) => 10_000_000 + n * 12_000 + jitter());
    for (const where of [0.1, 0.37, 0.5, 0.93]) {
      const boundary = Math.floor((stamps[0] as number) + where * ((stamps[100_000] as number) - (stamps[0] as number)));
      const chain = timeline(stamps);
      const at = await lastBlockBefore(chain, boundary, { block: 0, ts: stamps[0] as number }, { block: 100_000, ts: stamps[100_000] as number });
      expect(at).toBe(expected(stamps, boundary));
      expect(chain.steps).toBeLessThanOrEqual(4);
    }
  });
});
