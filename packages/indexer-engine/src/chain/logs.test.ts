// The adaptive log fetcher: ranges split when the node refuses them, spans shrink when crowded and grow when quiet.
import fc from "fast-check";
import type { ChainLog } from "../adapter";
import { AdaptiveLogFetcher } from "./logs";
import { RpcResponseError } from "./transport";

const log = (blockNumber: number, logIndex = 0): ChainLog => ({
  address: "0xa",
  topics: ["0xt"],
  data: "0x",
  blockNumber,
  transactionHash: `0x${blockNumber}-${logIndex}`,
  logIndex,
});

/** A node holding `logs`, refusing (as nodes do, with a JSON-RPC error) any range wider than `maxWidth` blocks. */
function node(logs: readonly ChainLog[], maxWidth = Number.POSITIVE_INFINITY) {
  const requests: [number, number][] = [];
  return {
    requests,
    async logs(_addresses: readonly string[], _topics: readonly string[], from: number, to: number) {
      requests.push([from, to]);
      if (to - from + 1 > maxWidth) throw new RpcResponseError(-32005, `range ${from}-${to} too wide`);
      return logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to);
    },
  };
}

/** `n` logs, one per block from `first`. */
const logsFrom = (first: number, n: number) => Array.from({ length: n }, (_, i) => log(first + i));

describe("AdaptiveLogFetcher sizing", () => {
  it("starts with the initial span, within [1, maxSpan]", () => {
    const source = node([]);
    expect(new AdaptiveLogFetcher(source, { initialSpan: 10, maxSpan: 50, targetLogs: 100 }).span).toBe(10);
    expect(new AdaptiveLogFetcher(source, { initialSpan: 100, maxSpan: 50, targetLogs: 100 }).span).toBe(50);
    expect(new AdaptiveLogFetcher(source, { initialSpan: 0, maxSpan: 50, targetLogs: 100 }).span).toBe(1);
  });

  it("plans a range as wide as the span, ending at the limit at most", () => {
    const fetcher = new AdaptiveLogFetcher(node([]), { initialSpan: 10, maxSpan: 50, targetLogs: 100 });
    expect(fetcher.plan(100, 1_000)).toBe(109);
    expect(fetcher.plan(100, 105)).toBe(105);
  });

  it("doubles the span after a quiet range as wide as it, up to maxSpan", async () => {
    const fetcher = new AdaptiveLogFetcher(node(logsFrom(0, 4)), { initialSpan: 10, maxSpan: 30, targetLogs: 10 });
    // 4 logs, below half the target of 10.
    expect(await fetcher.fetch([], [], 0, 9)).toHaveLength(4);
    expect(fetcher.span).toBe(20);
    await fetcher.fetch([], [], 10, 29);
    expect(fetcher.span).toBe(30);
  });

  it("keeps the span after a quiet range narrower than it", async () => {
    const fetcher = new AdaptiveLogFetcher(node([]), { initialSpan: 10, maxSpan: 100, targetLogs: 10 });
    await fetcher.fetch([], [], 0, 8);
    expect(fetcher.span).toBe(10);
  });

  it("keeps the span when a range brings between half the target and the target", async () => {
    for (const n of [5, 7, 10]) {
      const fetcher = new AdaptiveLogFetcher(node(logsFrom(0, n)), { initialSpan: 10, maxSpan: 100, targetLogs: 10 });
      expect(await fetcher.fetch([], [], 0, 9)).toEqual(logsFrom(0, n));
      expect(fetcher.span).toBe(10);
    }
  });

  it("halves the span (rounding down, never below 1) after a range bringing more than the target", async () => {
    const crowded = logsFrom(0, 11);
    const cases = [
      [10, 5],
      [3, 1],
      [1, 1],
    ] as const;
    for (const [initialSpan, after] of cases) {
      const fetcher = new AdaptiveLogFetcher(node(crowded), { initialSpan, maxSpan: 100, targetLogs: 10 });
      expect(await fetcher.fetch([], [], 0, 10)).toEqual(crowded);
      expect(fetcher.span).toBe(after);
    }
  });

  it("reads the next range with the current span and reports what it covered", async () => {
    const fetcher = new AdaptiveLogFetcher(node([log(3), log(12)]), { initialSpan: 10, maxSpan: 100, targetLogs: 10 });
    expect(await fetcher.next([], [], 0, 1_000)).toEqual({ from: 0, to: 9, logs: [log(3)] });
    expect(await fetcher.next([], [], 20, 25)).toEqual({ from: 20, to: 25, logs: [] });
  });
});

describe("AdaptiveLogFetcher refusals", () => {
  it("splits a refused range in halves and shrinks the span to what the node accepted", async () => {
    const logs = [log(1), log(6, 0), log(6, 1), log(9), log(15)];
    const source = node(logs, 4);
    // Every accepted range brings 1 or 2 logs: with a target of 2 none of them resizes the span.
    const fetcher = new AdaptiveLogFetcher(source, { initialSpan: 16, maxSpan: 16, targetLogs: 2 });
    expect(await fetcher.fetch(["0xa"], ["0xt"], 0, 15)).toEqual(logs);
    expect(source.requests).toEqual([
      [0, 15],
      [0, 7],
      [0, 3],
      [4, 7],
      [8, 15],
      [8, 11],
      [12, 15],
    ]);
    expect(fetcher.span).toBe(4);
  });

  it("splits an odd width with the smaller half first, and the span follows the half", async () => {
    const source = node([], 5);
    const fetcher = new AdaptiveLogFetcher(source, { initialSpan: 16, maxSpan: 16, targetLogs: 0 });
    expect(await fetcher.fetch([], [], 0, 10)).toEqual([]);
    expect(source.requests).toEqual([
      [0, 10],
      [0, 4],
      [5, 10],
      [5, 7],
      [8, 10],
    ]);
    expect(fetcher.span).toBe(3);
  });

  it("shrinks the span to the accepted half even when it was narrower than the refused range", async () => {
    const source = node([], 8);
    const fetcher = new AdaptiveLogFetcher(source, { initialSpan: 2, maxSpan: 16, targetLogs: 0 });
    await fetcher.fetch([], [], 0, 15);
    expect(source.requests).toEqual([
      [0, 15],
      [0, 7],
      [8, 15],
    ]);
    expect(fetcher.span).toBe(2);
  });

  it("gives up with the node's error when it refuses a single block", async () => {
    const source = node([], 0);
    const fetcher = new AdaptiveLogFetcher(source, { initialSpan: 4, maxSpan: 4, targetLogs: 0 });
    const err = await fetcher.fetch([], [], 0, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcResponseError);
    expect((err as RpcResponseError).message).toBe("range 0-0 too wide");
    expect((err as RpcResponseError).rpcCode).toBe(-32005);
    expect(source.requests).toEqual([
      [0, 3],
      [0, 1],
      [0, 0],
    ]);
    expect(fetcher.span).toBe(1);
  });

  it("does not split on a failure other than a node's refusal", async () => {
    const requests: number[][] = [];
    const fetcher = new AdaptiveLogFetcher(
      {
        async logs(_a, _t, from, to) {
          requests.push([from, to]);
          throw new Error("socket hang up");
        },
      },
      { initialSpan: 8, maxSpan: 8, targetLogs: 0 },
    );
    await expect(fetcher.fetch([], [], 0, 7)).rejects.toThrow("socket hang up");
    expect(requests).toEqual([[0, 7]]);
    expect(fetcher.span).toBe(8);
  });

  it("returns exactly the logs of [from, to] from a node refusing ranges wider than N (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat({ max: 300 }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 64 }),
        fc.nat({ max: 30 }),
        fc.nat({ max: 150 }),
        fc.nat({ max: 150 }),
        async (blocks, maxWidth, initialSpan, targetLogs, from, extra) => {
          const logs = [...blocks].sort((a, b) => a - b).map((b) => log(b));
          const source = node(logs, maxWidth);
          const fetcher = new AdaptiveLogFetcher(source, { initialSpan, maxSpan: 64, targetLogs });
          const to = from + extra;
          expect(await fetcher.fetch([], [], from, to)).toEqual(logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to));
          expect(fetcher.span).toBeGreaterThanOrEqual(1);
          expect(fetcher.span).toBeLessThanOrEqual(64);
        },
      ),
      { numRuns: 200 },
    );
  });
});
