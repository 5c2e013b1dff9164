// A range processed before the one before it is committed: each commit holds exactly what one-at-a-time indexing commits.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Adapter, ChainLog } from "./adapter";
import type { LogBatch } from "./chain/logs";
import { Enricher } from "./enrich";
import { TRANSFER_TOPIC, transferDeltas } from "./erc20";
import { Pricer } from "./pricing/pricer";
import { commitRange, indexRange, processRange } from "./range";
import { CsvSink } from "./sinks/csv";
import type { Checkpoint, StateStore } from "./state/store";
import { capturingLogger, testStore } from "./testing/fixtures";
import { WindowBook } from "./windows";

const TOKEN = "0x00000000000000000000000000000000000000c0";
const HOUR = 3_600_000;
const T0 = 1_800_000_000_000;
const ts = (block: number) => T0 + block * 12_000;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const holder = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

/** Transfer logs written out: mints to ten holders in block 1, then one transfer every 7 blocks between them. */
function logsOf(from: number, to: number): ChainLog[] {
  const out: ChainLog[] = [];
  for (let b = from; b <= to; b++) {
    const moves: [number, number][] = b === 1 ? Array.from({ length: 10 }, (_, i) => [0, i + 1]) : b % 7 === 0 ? [[(b % 10) + 1, ((b * 3) % 10) + 1]] : [];
    moves.forEach(([src, dst], logIndex) => {
      const topics = [TRANSFER_TOPIC, `0x${holder(src).slice(2).padStart(64, "0")}`, `0x${holder(dst).slice(2).padStart(64, "0")}`];
      const value = src === 0 ? 10n ** 24n : BigInt(b) * 10n ** 15n;
      out.push({ address: TOKEN, topics, data: word(value), blockNumber: b, transactionHash: word(BigInt(b * 100 + logIndex)), logIndex });
    });
  }
  return out;
}

/** A block range with every block's timestamp read ahead, as the engine reads it. */
function batchOf(from: number, to: number): LogBatch {
  const headers = new Map<number, number>();
  for (let b = from - 1; b <= to; b++) headers.set(b, ts(b));
  return { from, to, logs: logsOf(from, to), headers, senders: new Map() };
}

const adapter: Adapter = {
  filters: [{ address: TOKEN, topics: [TRANSFER_TOPIC], withTransaction: false }],
  contracts: [TOKEN],
  handle: (log) => transferDeltas(log, TOKEN, 18),
};
const stores: StateStore[] = [];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pw-overlap-"));
});
afterAll(async () => {
  for (const store of stores) {
    await store.clearIndexer();
    await store.close();
  }
  await rm(dir, { recursive: true, force: true });
});

async function indexer(name: string) {
  const { logger } = capturingLogger();
  const store = await testStore(name);
  stores.push(store);
  const noChain = { call: () => Promise.reject(new Error("no chain in this test")) };
  const pricer = new Pricer({ rules: [], pricingRange: undefined, chain: noChain, labels: store.labels, facts: store.kv, market: undefined, logger });
  const runner = { indexerId: "overlap", chainId: 1, adapterId: "erc20-holdings", adapterVersion: "0.0.1" };
  const reader = {
    timestamp: async (b: number) => ts(b),
    timestamps: async (bs: readonly number[]) => new Map(bs.map((b) => [b, ts(b)])),
    transactionFrom: async () => undefined,
  };
  const csv = new CsvSink("0-csv", join(dir, `${name}.csv`), logger);
  await csv.recover(undefined);
  const deps = {
    adapter,
    reader,
    book: new WindowBook(),
    metrics: new Map<string, string>(),
    enricher: new Enricher({ runner, pricer, logger }),
    flushMs: HOUR,
    logger,
    sinks: [csv],
    store,
  };
  const start: Checkpoint = { fromBlock: 1, nextBlock: 1, prev: { block: 0, ts: ts(0) }, sinks: {}, rowsWritten: 0 };
  return { deps, store, csv, start, file: join(dir, `${name}.csv`) };
}

describe("processing a range while the one before it commits", () => {
  it("commits after each range what one-at-a-time indexing commits, and writes the same file", async () => {
    const ranges = [batchOf(1, 400), batchOf(401, 900), batchOf(901, 1_500)];
    const one = await indexer("one-at-a-time");
    const overlapped = await indexer("overlapped");

    let a = one.start;
    let b = overlapped.start;
    // Every range is processed before the previous one is committed, which is how the engine runs them.
    let pending = await processRange(overlapped.deps, b.prev, ranges[0] as LogBatch);
    for (let i = 0; i < ranges.length; i++) {
      const next = i + 1 < ranges.length ? await processRange(overlapped.deps, pending.last, ranges[i + 1] as LogBatch) : undefined;
      b = await commitRange(overlapped.deps, b, pending);
      a = await indexRange(one.deps, a, ranges[i] as LogBatch);
      // What a crash right here would leave: the same checkpoint and the same stored positions.
      expect({ ...b, sinks: {} }).toEqual({ ...a, sinks: {} });
      expect(b.sinks["0-csv"]).toBe(a.sinks["0-csv"]);
      const byKey = (p: { user: string }, q: { user: string }) => (p.user < q.user ? -1 : 1);
      expect((await overlapped.store.loadPositions()).sort(byKey)).toEqual((await one.store.loadPositions()).sort(byKey));
      if (next !== undefined) pending = next;
    }
    await one.csv.close();
    await overlapped.csv.close();
    // Hourly windows of ten holders over five hours, and the transfers' windows: the file is not trivially small.
    expect(a.rowsWritten).toBeGreaterThan(50);
    expect(await readFile(overlapped.file, "utf8")).toBe(await readFile(one.file, "utf8"));
  });
});
