// Reading ahead on an in-memory chain: each range's headers, senders and flush-boundary blocks, and readAhead's order and depth.
import fc from "fast-check";
import type { ChainLog } from "../adapter";
import { knownHeaders, readAhead, readRange } from "./ahead";
import { AdaptiveLogFetcher } from "./logs";
import { RpcResponseError } from "./transport";

const HOUR = 3_600_000;

const log = (blockNumber: number, logIndex = 0, topic = "0xtransfer"): ChainLog => ({
  address: "0xtoken",
  topics: [topic],
  data: "0x",
  blockNumber,
  transactionHash: `0xtx${blockNumber}-${logIndex}`,
  logIndex,
});

/** The hash of block n on the in-memory chain. */
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/**
 * A chain whose block n is stamped stamps[n] and hashed hashOf(n), holding `logs`, recording what is asked of it. Its
 * blocks hold `transactionsPerBlock` transactions on average (undefined: none counted yet); read whole, a block gives
 * the senders of its logs' transactions, but for those listed in `hashOnly`.
 */
function chainOf(
  stamps: readonly number[],
  logs: readonly ChainLog[],
  options: { maxWidth?: number; failAt?: number; transactionsPerBlock?: number; hashOnly?: readonly string[] } = {},
) {
  const asked = {
    logs: [] as [number, number][],
    timestamps: [] as number[][],
    timestamp: [] as number[],
    senders: [] as string[][],
    headers: [] as number[][],
    wholeBlocks: [] as number[][],
  };
  const stampOf = (block: number) => {
    const ts = stamps[block];
    if (ts === undefined) throw new Error(`no block ${block}`);
    return ts;
  };
  return {
    asked,
    async logs(_addresses: readonly string[], _topics: readonly string[], from: number, to: number) {
      asked.logs.push([from, to]);
      if (options.failAt !== undefined && from <= options.failAt && options.failAt <= to) throw new Error(`node failed on ${from}-${to}`);
      if (to - from + 1 > (options.maxWidth ?? Number.POSITIVE_INFINITY)) throw new RpcResponseError(-32005, "range too wide");
      return logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to);
    },
    async timestamp(block: number) {
      asked.timestamp.push(block);
      return stampOf(block);
    },
    async timestamps(blocks: readonly number[]) {
      asked.timestamps.push([...blocks]);
      return new Map(blocks.map((b) => [b, stampOf(b)]));
    },
    async headers(blocks: readonly number[]) {
      asked.headers.push([...blocks]);
      return new Map(blocks.map((b) => [b, { ts: stampOf(b), hash: hashOf(b) }]));
    },
    async transactionsFrom(hashes: readonly string[]) {
      asked.senders.push([...hashes]);
      return new Map(hashes.map((h) => [h, `0xsender-of-${h}`]));
    },
    async blocksWithSenders(blocks: readonly number[]) {
      asked.wholeBlocks.push([...blocks]);
      const held = logs.filter((l) => blocks.includes(l.blockNumber) && !options.hashOnly?.includes(l.transactionHash));
      return {
        timestamps: new Map(blocks.map((b) => [b, stampOf(b)])),
        senders: new Map(held.map((l) => [l.transactionHash, `0xsender-of-${l.transactionHash}`])),
      };
    },
    transactionsPerBlock: options.transactionsPerBlock,
  };
}

/** A steady chain: block n at 12 s times n after `start`. */
const steady = (n: number, start = 1_700_000_000_000) => Array.from({ length: n }, (_, i) => start + i * 12_000);

/** The last block stamped before `boundary`, by definition. */
const lastBefore = (stamps: readonly number[], boundary: number) => stamps.filter((t) => t < boundary).length - 1;

/** The flush boundaries in (after, upto], by definition. */
function boundaries(after: number, upto: number, flushMs: number): number[] {
  const out: number[] = [];
  for (let b = after - (after % flushMs) + flushMs; b <= upto; b += flushMs) out.push(b);
  return out;
}

/**
 * Processing of a range as batch.ts does it, with nothing but `headers`: between each two neighbouring known blocks
 * (the block before the range, its blocks with logs, its last block), each boundary's last block before it. Fails on
 * any block missing from `headers`; returns the blocks found per boundary.
 */
async function processOffline(headers: ReadonlyMap<number, number>, known: readonly number[], flushMs: number): Promise<Map<number, number>> {
  const { lastBlockBefore } = await import("./boundary");
  const offline = {
    async timestamps(blocks: readonly number[]) {
      return new Map(
        blocks.map((b) => {
          const ts = headers.get(b);
          if (ts === undefined) throw new Error(`block ${b} was not read ahead`);
          return [b, ts];
        }),
      );
    },
  };
  const found = new Map<number, number>();
  for (let i = 1; i < known.length; i++) {
    const point = { block: known[i] as number, ts: headers.get(known[i] as number) as number };
    let lower = { block: known[i - 1] as number, ts: headers.get(known[i - 1] as number) as number };
    for (const boundary of boundaries(lower.ts, point.ts, flushMs)) {
      const block = await lastBlockBefore(offline, boundary, lower, point);
      found.set(boundary, block);
      lower = { block, ts: (await offline.timestamps([block])).get(block) as number };
    }
  }
  return found;
}

const options = (over: Partial<Parameters<typeof readRange>[2]> = {}) => ({
  addresses: ["0xtoken"],
  topics: ["0xtransfer"],
  wantsSender: () => false,
  flushMs: HOUR,
  depth: 2,
  wholeBlockTransactions: 16,
  ...over,
});

const fetcherOf = (source: ReturnType<typeof chainOf>, span = 1_000) => new AdaptiveLogFetcher(source, { initialSpan: span, maxSpan: span, targetLogs: 1_000 });

describe("knownHeaders", () => {
  it("answers known blocks from memory and records what it had to ask the chain", async () => {
    const chain = chainOf([100, 200, 300, 400, 500], []);
    const headers = new Map([[1, 200]]);
    const source = knownHeaders(chain, headers);
    expect(await source.timestamp(1)).toBe(200);
    expect(chain.asked.timestamp).toEqual([]);
    expect(await source.timestamp(3)).toBe(400);
    expect(chain.asked.timestamp).toEqual([3]);
    expect(await source.timestamp(3)).toBe(400);
    expect(chain.asked.timestamp).toEqual([3]);
    expect(headers).toEqual(
      new Map([
        [1, 200],
        [3, 400],
      ]),
    );
  });

  it("asks the chain in one batch for the missing blocks only, and answers in the order asked", async () => {
    const chain = chainOf([100, 200, 300, 400, 500], []);
    const headers = new Map([[2, 300]]);
    const source = knownHeaders(chain, headers);
    const answer = await source.timestamps([4, 2, 0]);
    expect([...answer]).toEqual([
      [4, 500],
      [2, 300],
      [0, 100],
    ]);
    expect(chain.asked.timestamps).toEqual([[4, 0]]);
    expect(headers.get(4)).toBe(500);
    expect(headers.get(0)).toBe(100);
    expect(await source.timestamps([0, 2])).toEqual(
      new Map([
        [0, 100],
        [2, 300],
      ]),
    );
    expect(chain.asked.timestamps).toEqual([[4, 0]]);
  });
});

describe("readRange", () => {
  it("reads the headers of the block before and of the last block, and the timestamps of each block with logs once, in one request", async () => {
    const stamps = steady(200);
    const logs = [log(12), log(15, 0), log(15, 1), log(30)];
    const chain = chainOf(stamps, logs);
    const batch = await readRange(fetcherOf(chain), chain, options(), 10, 40);
    expect(batch.from).toBe(10);
    expect(batch.to).toBe(40);
    expect(batch.logs).toEqual(logs);
    // 31 blocks of 12 s cross no hour boundary: nothing else is read.
    expect(chain.asked.headers).toEqual([[9, 40]]);
    expect(chain.asked.timestamps).toEqual([[12, 15, 30]]);
    expect(batch.headers).toEqual(new Map([9, 12, 15, 30, 40].map((b) => [b, stamps[b]])));
    // Block 9's hash is checked against the checkpoint's; the range's checkpoint keeps block 40's.
    expect(batch.hashes).toEqual({ before: hashOf(9), last: hashOf(40) });
    expect(chain.asked.senders).toEqual([]);
    expect(batch.senders).toEqual(new Map());
  });

  it("takes block 0 itself as the block before a range starting at 0, and does not repeat a last block with logs", async () => {
    const stamps = steady(10);
    const chain = chainOf(stamps, [log(0), log(3), log(5)]);
    const batch = await readRange(fetcherOf(chain), chain, options(), 0, 5);
    // No block comes before block 0: there is no hash to check, only block 5's to keep.
    expect(chain.asked.headers).toEqual([[5]]);
    expect(chain.asked.timestamps).toEqual([[0, 3]]);
    expect(batch.headers).toEqual(new Map([0, 3, 5].map((b) => [b, stamps[b]])));
    expect(batch.hashes).toEqual({ last: hashOf(5) });
  });

  it("asks for no timestamps when the headers hold every block it needs", async () => {
    const chain = chainOf(steady(10), [log(4)]);
    const batch = await readRange(fetcherOf(chain), chain, options(), 4, 4);
    expect(chain.asked.headers).toEqual([[3, 4]]);
    expect(chain.asked.timestamps).toEqual([]);
    expect(batch.hashes).toEqual({ before: hashOf(3), last: hashOf(4) });
  });

  it("asks for the headers and the logs at once, so a node's latency is paid once for both", async () => {
    const chain = chainOf(steady(100), [log(25)]);
    const started: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Neither answers until both have been asked: read one after the other, the range would never finish.
    const held = async <T>(name: string, answer: () => Promise<T>): Promise<T> => {
      started.push(name);
      if (started.length === 2) release();
      await gate;
      return answer();
    };
    const source = {
      ...chain,
      headers: (blocks: readonly number[]) => held("headers", () => chain.headers(blocks)),
      logs: (addresses: readonly string[], topics: readonly string[], from: number, to: number) => held("logs", () => chain.logs(addresses, topics, from, to)),
    };
    const batch = await readRange(fetcherOf(source), source, options(), 20, 30);
    expect(started.sort()).toEqual(["headers", "logs"]);
    expect(batch.hashes).toEqual({ before: hashOf(19), last: hashOf(30) });
  });

  it("reads the senders of the logs the adapter wants, and only those", async () => {
    const chain = chainOf(steady(50), [log(11, 0), log(11, 1, "0xother"), log(20, 0)]);
    const wantsSender = (l: ChainLog) => l.topics[0] === "0xtransfer";
    const batch = await readRange(fetcherOf(chain), chain, options({ wantsSender }), 10, 30);
    expect(chain.asked.senders).toEqual([["0xtx11-0", "0xtx20-0"]]);
    expect(batch.senders).toEqual(
      new Map([
        ["0xtx11-0", "0xsender-of-0xtx11-0"],
        ["0xtx20-0", "0xsender-of-0xtx20-0"],
      ]),
    );
  });

  it("reads the senders with the whole blocks that hold them while the chain's blocks are small, instead of looking each up", async () => {
    const stamps = steady(50);
    const chain = chainOf(stamps, [log(11, 0), log(11, 1), log(12, 0, "0xother"), log(20, 0)], { transactionsPerBlock: 16 });
    const wantsSender = (l: ChainLog) => l.topics[0] === "0xtransfer";
    const batch = await readRange(fetcherOf(chain), chain, options({ wantsSender }), 10, 30);
    // Blocks 11 and 20 are read whole, once each, and give their own timestamps; block 12 only its header.
    expect(chain.asked.wholeBlocks).toEqual([[11, 20]]);
    expect(chain.asked.timestamps).toEqual([[12]]);
    expect(chain.asked.senders).toEqual([]);
    expect(batch.headers).toEqual(new Map([9, 11, 12, 20, 30].map((b) => [b, stamps[b]])));
    expect(batch.senders).toEqual(new Map(["0xtx11-0", "0xtx11-1", "0xtx20-0"].map((h) => [h, `0xsender-of-${h}`])));
  });

  it("keeps only the wanted senders of a whole block, and looks up on its own one the block listed without a sender", async () => {
    const chain = chainOf(steady(50), [log(11, 0), log(11, 1, "0xother"), log(20, 0)], { transactionsPerBlock: 2, hashOnly: ["0xtx20-0"] });
    const wantsSender = (l: ChainLog) => l.topics[0] === "0xtransfer";
    const batch = await readRange(fetcherOf(chain), chain, options({ wantsSender }), 10, 30);
    expect(chain.asked.wholeBlocks).toEqual([[11, 20]]);
    expect(chain.asked.senders).toEqual([["0xtx20-0"]]);
    expect(batch.senders).toEqual(new Map(["0xtx11-0", "0xtx20-0"].map((h) => [h, `0xsender-of-${h}`])));
  });

  it("looks senders up by transaction while the chain's blocks are larger than wholeBlockTransactions, before any block was counted, and with 0", async () => {
    for (const [transactionsPerBlock, wholeBlockTransactions] of [
      [16.5, 16],
      [undefined, 16],
      [0, 0],
    ] as const) {
      const chain = chainOf(steady(50), [log(11), log(20)], { ...(transactionsPerBlock === undefined ? {} : { transactionsPerBlock }) });
      const batch = await readRange(fetcherOf(chain), chain, options({ wantsSender: () => true, wholeBlockTransactions }), 10, 30);
      expect(chain.asked.wholeBlocks).toEqual([]);
      expect(chain.asked.senders).toEqual([["0xtx11-0", "0xtx20-0"]]);
      expect(chain.asked.timestamps).toEqual([[11, 20]]);
      expect(batch.senders?.size).toBe(2);
    }
  });

  it("reads no whole block when the adapter wants no sender, however small the blocks", async () => {
    const chain = chainOf(steady(50), [log(11), log(20)], { transactionsPerBlock: 1 });
    await readRange(fetcherOf(chain), chain, options(), 10, 30);
    expect(chain.asked.wholeBlocks).toEqual([]);
    expect(chain.asked.timestamps).toEqual([[11, 20]]);
  });

  it("reads ahead the block of every flush boundary, so processing asks the chain nothing", async () => {
    // Blocks every 12 s: an hour is 300 blocks. The range [100, 1900] with logs at 150 and 1000 crosses six hours.
    const start = 1_700_000_000_000 - (1_700_000_000_000 % HOUR) + 1_000;
    const stamps = steady(2_000, start);
    const logs = [log(150), log(1_000)];
    const chain = chainOf(stamps, logs);
    const batch = await readRange(fetcherOf(chain, 2_000), chain, options(), 100, 1_900);
    const headers = batch.headers as ReadonlyMap<number, number>;
    for (const [block, ts] of headers) expect(ts).toBe(stamps[block]);
    const found = await processOffline(headers, [99, 150, 1_000, 1_900], HOUR);
    // Hour h starts at start - 1000 + h * HOUR: its last block before is 300 h - 1 (stamped 11 s before it).
    expect([...found.values()]).toEqual([299, 599, 899, 1_199, 1_499, 1_799]);
    expect([...found.keys()]).toEqual([1, 2, 3, 4, 5, 6].map((h) => start - 1_000 + h * HOUR));
  });

  it("finds the boundary between two adjacent blocks without reading anything more", async () => {
    const stamps = [HOUR - 5_000, HOUR + 5_000, HOUR + 10_000];
    const chain = chainOf(stamps, [log(1)]);
    const batch = await readRange(fetcherOf(chain), chain, options(), 1, 2);
    expect(chain.asked.headers).toEqual([[0, 2]]);
    expect(chain.asked.timestamps).toEqual([[1]]);
    expect(chain.asked.timestamp).toEqual([]);
    expect(await processOffline(batch.headers as ReadonlyMap<number, number>, [0, 1, 2], HOUR)).toEqual(new Map([[HOUR, 0]]));
  });

  it("reads ahead every boundary's block on any chain, for any logs (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 2, maxLength: 400 }),
        fc.uniqueArray(fc.nat({ max: 399 }), { maxLength: 12 }),
        fc.integer({ min: 5, max: 300 }),
        fc.nat({ max: 399 }),
        fc.nat({ max: 399 }),
        async (gaps, logBlocks, flushMs, a, b) => {
          let sum = 0;
          const stamps = gaps.map((g) => (sum += g));
          const last = stamps.length - 1;
          const from = Math.min(a, b, last);
          const to = Math.min(Math.max(a, b), last);
          const logs = logBlocks
            .filter((n) => n >= from && n <= to)
            .sort((x, y) => x - y)
            .map((n) => log(n));
          const chain = chainOf(stamps, logs);
          const batch = await readRange(fetcherOf(chain), chain, options({ flushMs }), from, to);
          expect(batch.logs).toEqual(logs);
          const headers = batch.headers as ReadonlyMap<number, number>;
          for (const [block, ts] of headers) expect(ts).toBe(stamps[block]);
          const known = [...new Set([Math.max(0, from - 1), ...logs.map((l) => l.blockNumber), to])];
          const found = await processOffline(headers, known, flushMs);
          for (const [boundary, block] of found) expect(block).toBe(lastBefore(stamps, boundary));
          expect(found.size).toBe(boundaries(stamps[known[0] as number] as number, stamps[to] as number, flushMs).length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("fails with the failure of a timestamp request made by a boundary search", async () => {
    const stamps = steady(1_000, 0);
    const chain = chainOf(stamps, []);
    const failing = {
      ...chain,
      async timestamps(blocks: readonly number[]) {
        if (chain.asked.timestamps.length > 0) throw new Error("node down");
        return chain.timestamps(blocks);
      },
    };
    await expect(readRange(fetcherOf(chain), failing, options(), 1, 999)).rejects.toThrow("node down");
  });
});

/** Runs readAhead to the end (at most 50 ranges), noting how many log requests had started when each range was handed over. */
async function drain(ranges: AsyncGenerator<{ from: number; to: number }>, started: () => number) {
  const seen: [number, number][] = [];
  const startedAt: number[] = [];
  for await (const batch of ranges) {
    seen.push([batch.from, batch.to]);
    startedAt.push(started());
    if (seen.length >= 50) break;
  }
  return { seen, startedAt };
}

describe("readAhead", () => {
  it("hands over the ranges from `from` to `limit` in order, each read completely", async () => {
    const stamps = steady(100);
    const chain = chainOf(stamps, [log(7), log(21)]);
    const got = [];
    for await (const batch of readAhead(fetcherOf(chain, 10), chain, options({ depth: 3 }), 5, 42)) got.push(batch);
    expect(got.map((b) => [b.from, b.to])).toEqual([
      [5, 14],
      [15, 24],
      [25, 34],
      [35, 42],
    ]);
    expect(got.map((b) => b.logs)).toEqual([[log(7)], [log(21)], [], []]);
    expect(got[1]?.headers).toEqual(new Map([14, 21, 24].map((b) => [b, stamps[b]])));
  });

  it("keeps `depth` ranges started when handing one over, and never more", async () => {
    const chain = chainOf(steady(100), []);
    const { seen, startedAt } = await drain(readAhead(fetcherOf(chain, 10), chain, options({ depth: 3 }), 0, 59), () => chain.asked.logs.length);
    expect(seen).toEqual([
      [0, 9],
      [10, 19],
      [20, 29],
      [30, 39],
      [40, 49],
      [50, 59],
    ]);
    expect(startedAt).toEqual([3, 4, 5, 6, 6, 6]);
  });

  it("reads one range at a time with a depth of 1, or 0", async () => {
    for (const depth of [1, 0]) {
      const chain = chainOf(steady(100), []);
      const { seen, startedAt } = await drain(readAhead(fetcherOf(chain, 10), chain, options({ depth }), 0, 29), () => chain.asked.logs.length);
      expect(seen).toEqual([
        [0, 9],
        [10, 19],
        [20, 29],
      ]);
      expect(startedAt).toEqual([1, 2, 3]);
    }
  });

  it("plans each range with the span the fetcher has learned by then", async () => {
    // The node refuses more than 4 blocks: the first range of 8 is split and later ones are planned 4 wide.
    const chain = chainOf(steady(100), [], { maxWidth: 4 });
    const fetcher = new AdaptiveLogFetcher(chain, { initialSpan: 8, maxSpan: 8, targetLogs: 0 });
    const { seen } = await drain(readAhead(fetcher, chain, options({ depth: 1 }), 0, 19), () => 0);
    expect(seen).toEqual([
      [0, 7],
      [8, 11],
      [12, 15],
      [16, 19],
    ]);
  });

  it("hands over nothing when `from` is past `limit`", async () => {
    const chain = chainOf(steady(100), []);
    const { seen } = await drain(readAhead(fetcherOf(chain, 10), chain, options(), 50, 49), () => 0);
    expect(seen).toEqual([]);
    expect(chain.asked.logs).toEqual([]);
  });

  it("hands over a single block range", async () => {
    const chain = chainOf(steady(100), []);
    const { seen } = await drain(readAhead(fetcherOf(chain, 10), chain, options(), 49, 49), () => 0);
    expect(seen).toEqual([[49, 49]]);
  });

  it("surfaces a range's failure when its turn comes, after the ranges before it", async () => {
    const chain = chainOf(steady(100), [], { failAt: 25 });
    const seen: number[] = [];
    const run = async () => {
      for await (const batch of readAhead(fetcherOf(chain, 10), chain, options({ depth: 4 }), 0, 59)) {
        seen.push(batch.from);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await expect(run()).rejects.toThrow("node failed on 20-29");
    expect(seen).toEqual([0, 10]);
  });

  it("lets a range that fails after the caller stopped early go unseen", async () => {
    const chain = chainOf(steady(100), [], { failAt: 15 });
    const seen: number[] = [];
    for await (const batch of readAhead(fetcherOf(chain, 10), chain, options({ depth: 3 }), 0, 59)) {
      seen.push(batch.from);
      break;
    }
    expect(seen).toEqual([0]);
    // A rejection left unhandled would fail this test here.
    await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
