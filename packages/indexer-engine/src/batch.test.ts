// processBatch: flush boundaries placed in blocks, events in log order, senders, read-ahead answers, onFlush and metrics.
import type { Adapter, ChainLog, LogContext, LogFilter } from "./adapter";
import { applyEvent, processBatch } from "./batch";
import type { BlockSource } from "./chain/reader";
import { type BatchItem, Enricher } from "./enrich";
import { TRANSFER_TOPIC, transferDeltas } from "./erc20";
import { type IndexerEvent, NULL_ADDRESS } from "./events";
import { Pricer } from "./pricing/pricer";
import type { StateStore } from "./state/store";
import { capturingLogger, testStore } from "./testing/fixtures";
import { type Point, type Position, WindowBook } from "./windows";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const A = addr(0xa1);
const B = addr(0xb2);
const C = addr(0xc3);
const TOKEN = addr(0x70);
const OTHER = addr(0x80);
const NAMES: Record<string, string> = { [A]: "A", [B]: "B", [C]: "C", [NULL_ADDRESS]: "0" };
const FLUSH_MS = 10_000;

// The chain of these tests: block number to timestamp (ms). Flush boundaries every 10 s fall as follows:
// 100_000 after block 101 (98_000), 110_000 after 104 (109_000), 120_000 after 105 (112_000),
// 130_000 after 106 (125_000), 140_000 after 107 (131_000; 108 sits exactly on it), 150_000 after 109 (141_000).
const TIMES: Record<number, number> = {
  100: 95_000,
  101: 98_000,
  102: 101_000,
  103: 104_000,
  104: 109_000,
  105: 112_000,
  106: 125_000,
  107: 131_000,
  108: 140_000,
  109: 141_000,
  110: 152_000,
};

/** An in-memory chain that records what it is asked: `timestamp n`, `timestamps a,b`, `from 0xhash`. */
function chainOf(senders: Record<string, string> = {}) {
  const calls: string[] = [];
  const tsOf = (block: number) => {
    const ts = TIMES[block];
    if (ts === undefined) throw new Error(`no block ${block} in this chain`);
    return ts;
  };
  const source: BlockSource = {
    async timestamp(block) {
      calls.push(`timestamp ${block}`);
      return tsOf(block);
    },
    async timestamps(blocks) {
      calls.push(`timestamps ${blocks.join(",")}`);
      return new Map(blocks.map((b) => [b, tsOf(b)]));
    },
    async transactionFrom(hash) {
      calls.push(`from ${hash}`);
      return senders[hash];
    },
  };
  return { source, calls, single: () => calls.filter((c) => !c.startsWith("timestamps")) };
}

/** A chain that must not be asked anything. */
const silentChain: BlockSource = {
  timestamp: (block) => Promise.reject(new Error(`asked the chain for block ${block}`)),
  timestamps: (blocks) => Promise.reject(new Error(`asked the chain for blocks ${blocks.join(",")}`)),
  transactionFrom: (hash) => Promise.reject(new Error(`asked the chain for transaction ${hash}`)),
};

const word = (a: string) => `0x${"0".repeat(24)}${a.slice(2)}`;
/** An ERC-20 Transfer log of `value` whole tokens (decimals 0). */
function transfer(block: number, tx: string, logIndex: number, from: string, to: string, value: number, address = TOKEN): ChainLog {
  return {
    address,
    topics: [TRANSFER_TOPIC, word(from), word(to)],
    data: `0x${value.toString(16).padStart(64, "0")}`,
    blockNumber: block,
    transactionHash: tx,
    logIndex,
  };
}

interface AdapterOptions {
  filters?: LogFilter[];
  /** Events of a log beyond its transfer deltas. */
  extra?: (log: ChainLog) => IndexerEvent[];
  onFlush?: (at: Point, blockTs: number) => IndexerEvent[];
  async?: boolean;
}

/** An ERC-20 holdings adapter: each Transfer moves "hold" balances of the token; it records what it was handed. */
function holdings(options: AdapterOptions = {}) {
  const handled: { log: string; ctx: LogContext }[] = [];
  const flushes: [number, number, number][] = [];
  const adapter: Adapter = {
    filters: options.filters ?? [{ address: TOKEN, topics: [TRANSFER_TOPIC], withTransaction: false }],
    contracts: [TOKEN],
    handle(log, ctx) {
      handled.push({ log: `${log.blockNumber}/${log.logIndex}`, ctx });
      const events = [...transferDeltas(log, log.address, 0), ...(options.extra?.(log) ?? [])];
      return options.async === true ? Promise.resolve(events) : events;
    },
  };
  const { onFlush } = options;
  if (onFlush !== undefined) {
    adapter.onFlush = (at, blockTs) => {
      flushes.push([at.ts, at.block, blockTs]);
      return onFlush(at, blockTs);
    };
  }
  return { adapter, handled, flushes };
}

let store: StateStore;
beforeAll(async () => {
  store = await testStore("batch");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

function enricher() {
  const { logger, lines } = capturingLogger();
  const pricer = new Pricer({
    rules: [],
    pricingRange: undefined,
    chain: { call: () => Promise.reject(new Error("no chain calls in this test")) },
    labels: store.labels,
    facts: store.kv,
    market: undefined,
    logger,
  });
  return { e: new Enricher({ runner: { indexerId: "idx", chainId: 1, adapterId: "erc20", adapterVersion: "0.0.1" }, pricer, logger }), lines, logger };
}

const held = (user: string, balance: string, since: Point): Position => ({ user, asset: TOKEN, activity: "hold", balance, active: true, openSince: since });

function deps(adapter: Adapter, reader: BlockSource, book: WindowBook, metrics = new Map<string, string>()) {
  const { e, logger } = enricher();
  return { adapter, reader, book, metrics, enricher: e, flushMs: FLUSH_MS, logger };
}

/** An item as text: `<trigger> <user> <balance> <startBlock>@<startTs>..<endBlock>@<endTs> [by tx#index]`, or an action with its context. */
function show(item: BatchItem): string {
  if (item.kind === "action") {
    const { action, ctx } = item;
    return `action ${action.key} ${NAMES[action.user]} at ${ctx.height}@${ctx.ts} ${ctx.txHash}#${ctx.logIndex}`;
  }
  const w = item.window;
  const by = w.cause === undefined ? "" : ` by ${w.cause.txHash}#${w.cause.logIndex}`;
  return `${w.trigger} ${NAMES[w.user]} ${w.balance} ${w.start.block}@${w.start.ts}..${w.end.block}@${w.end.ts}${by}`;
}

const PREV = { block: 100, ts: 95_000 };

// A holds 5 since block 100; block 103 moves 2 from A to B (tx 0x01), block 106 moves 1 from B to C (tx 0x02); the range ends at 110.
const SCENARIO_LOGS = [transfer(103, "0x01", 0, A, B, 2), transfer(106, "0x02", 3, B, C, 1)];
const SCENARIO_ITEMS = [
  "flush A 5 100@95000..101@100000",
  "balanceDelta A 5 101@100000..103@104000 by 0x01#0",
  "flush A 3 103@104000..104@110000",
  "flush B 2 103@104000..104@110000",
  "flush A 3 104@110000..105@120000",
  "flush B 2 104@110000..105@120000",
  "balanceDelta B 2 105@120000..106@125000 by 0x02#3",
  "flush A 3 105@120000..106@130000",
  "flush B 1 106@125000..106@130000",
  "flush C 1 106@125000..106@130000",
  "flush A 3 106@130000..107@140000",
  "flush B 1 106@130000..107@140000",
  "flush C 1 106@130000..107@140000",
  "flush A 3 107@140000..109@150000",
  "flush B 1 107@140000..109@150000",
  "flush C 1 107@140000..109@150000",
];

describe("processBatch", () => {
  it("closes each flush boundary at the last block before it, before the events of the block that crosses it", async () => {
    const chain = chainOf();
    const { adapter } = holdings();
    const book = new WindowBook([held(A, "5", PREV)]);
    const result = await processBatch(deps(adapter, chain.source, book), SCENARIO_LOGS, 110, PREV);
    expect(result.items.map(show)).toEqual(SCENARIO_ITEMS);
    expect(result.last).toEqual({ block: 110, ts: 152_000 });
    expect(result.dirtyMetrics.size).toBe(0);
    // The range's blocks are read at once; each boundary's block is then read once, unless it is the block already known.
    expect(chain.calls[0]).toBe("timestamps 103,106,110");
    expect(chain.single()).toEqual(["timestamp 101", "timestamp 104", "timestamp 105", "timestamp 107", "timestamp 109"]);
    expect(book.get(A, TOKEN, "hold")?.balance).toBe("3");
    expect(book.get(B, TOKEN, "hold")?.openSince).toEqual({ ts: 150_000, block: 109 });
  });

  it("gives every window the full position, the closing event as cause, and the boundary point as end", async () => {
    const { adapter } = holdings();
    const book = new WindowBook([held(A, "5", PREV)]);
    const { items } = await processBatch(deps(adapter, chainOf().source, book), [transfer(103, "0x01", 7, A, B, 2)], 103, PREV);
    expect(items.map((item) => (item.kind === "window" ? { ...item, window: { ...item.window, exact: undefined } } : item))).toEqual([
      {
        kind: "window",
        window: {
          user: A,
          asset: TOKEN,
          activity: "hold",
          balance: "5",
          active: true,
          start: PREV,
          end: { ts: 100_000, block: 101 },
          trigger: "flush",
          cause: undefined,
          exact: undefined,
          key: `${A}|${TOKEN}|hold`,
        },
      },
      {
        kind: "window",
        window: {
          user: A,
          asset: TOKEN,
          activity: "hold",
          balance: "5",
          active: true,
          start: { ts: 100_000, block: 101 },
          end: { ts: 104_000, block: 103 },
          trigger: "balanceDelta",
          cause: { txHash: "0x01", logIndex: 7 },
          exact: undefined,
          key: `${A}|${TOKEN}|hold`,
        },
      },
    ]);
  });

  it("answers from the headers and senders read ahead, asking the chain nothing", async () => {
    const { adapter, handled } = holdings({ filters: [{ address: TOKEN, topics: [TRANSFER_TOPIC], withTransaction: true }] });
    const book = new WindowBook([held(A, "5", PREV)]);
    const headers = new Map(Object.entries(TIMES).map(([block, ts]) => [Number(block), ts]));
    const senders = new Map([["0x01", C]]);
    const result = await processBatch(deps(adapter, silentChain, book), SCENARIO_LOGS, 110, PREV, { headers, senders });
    expect(result.items.map(show)).toEqual(SCENARIO_ITEMS);
    // A transaction missing from the senders read ahead has none: the chain is not asked.
    expect(handled.map((h) => h.ctx)).toStrictEqual([
      { ts: 104_000, height: 103, txHash: "0x01", logIndex: 0, transaction: { from: C } },
      { ts: 125_000, height: 106, txHash: "0x02", logIndex: 3 },
    ]);
  });

  it("asks the chain only for the blocks the read-ahead headers lack", async () => {
    const chain = chainOf();
    const { adapter } = holdings();
    const book = new WindowBook([held(A, "5", PREV)]);
    const headers = new Map(Object.entries(TIMES).map(([block, ts]) => [Number(block), ts]));
    headers.delete(105);
    const result = await processBatch(deps(adapter, chain.source, book), SCENARIO_LOGS, 110, PREV, { headers });
    expect(result.items.map(show)).toEqual(SCENARIO_ITEMS);
    expect(chain.calls).toEqual(["timestamps 105"]);
    // The headers given stay the caller's: what the chain answered is not added to them.
    expect(headers.has(105)).toBe(false);
  });

  it("asks the senders once per transaction, only for logs of filters with withTransaction, and passes them to the adapter", async () => {
    const chain = chainOf({ "0xaa": B, "0xcc": C });
    const upper = `0x${TRANSFER_TOPIC.slice(2).toUpperCase()}`;
    const { adapter, handled } = holdings({
      filters: [
        { address: TOKEN, topics: [upper], withTransaction: true },
        { address: OTHER, topics: [TRANSFER_TOPIC], withTransaction: false },
      ],
    });
    const logs = [
      transfer(103, "0xaa", 0, NULL_ADDRESS, A, 4),
      transfer(103, "0xaa", 1, A, B, 1),
      transfer(103, "0xbb", 2, A, C, 1),
      transfer(103, "0xcc", 3, NULL_ADDRESS, A, 9, OTHER),
    ];
    const { items } = await processBatch(deps(adapter, chain.source, new WindowBook()), logs, 103, { block: 102, ts: 101_000 });
    expect(items).toEqual([]);
    expect(chain.single()).toEqual(["from 0xaa", "from 0xbb"]);
    // The node did not return 0xbb's sender, and 0xcc's filter does not want one: those contexts have no transaction.
    expect(handled.map((h) => h.ctx)).toStrictEqual([
      { ts: 104_000, height: 103, txHash: "0xaa", logIndex: 0, transaction: { from: B } },
      { ts: 104_000, height: 103, txHash: "0xaa", logIndex: 1, transaction: { from: B } },
      { ts: 104_000, height: 103, txHash: "0xbb", logIndex: 2 },
      { ts: 104_000, height: 103, txHash: "0xcc", logIndex: 3 },
    ]);
  });

  it("asks for no senders when no filter wants them", async () => {
    const chain = chainOf({ "0xaa": B });
    const { adapter, handled } = holdings();
    await processBatch(deps(adapter, chain.source, new WindowBook()), [transfer(103, "0xaa", 0, NULL_ADDRESS, A, 4)], 103, { block: 102, ts: 101_000 });
    expect(chain.calls).toEqual(["timestamps 103,103"]);
    expect(handled.map((h) => h.ctx)).toStrictEqual([{ ts: 104_000, height: 103, txHash: "0xaa", logIndex: 0 }]);
  });

  it("runs onFlush after each boundary with the boundary point and its block's own time, and ingests what it returns", async () => {
    const interest = (at: Point): IndexerEvent[] => [
      { type: "balanceDelta", user: A, asset: TOKEN, amount: "1", activity: "hold" },
      { type: "action", key: `interest-${at.ts}`, activity: "claim", user: A, priceable: false },
      { type: "measureDelta", asset: TOKEN, metric: "index", amount: "0.5" },
      { type: "balanceDelta", user: "nobody", asset: TOKEN, amount: "1", activity: "hold" },
    ];
    const { adapter, flushes } = holdings({ onFlush: interest });
    const book = new WindowBook([held(A, "5", PREV)]);
    const d = deps(adapter, chainOf().source, book, new Map([[`${TOKEN}|index`, "1"]]));
    const result = await processBatch(d, [], 106, PREV);
    expect(flushes).toEqual([
      [100_000, 101, 98_000],
      [110_000, 104, 109_000],
      [120_000, 105, 112_000],
    ]);
    // The interest lands at the boundary, so the window opened there carries it.
    expect(result.items.map(show)).toEqual([
      "flush A 5 100@95000..101@100000",
      "action interest-100000 A at 101@100000 #-1",
      "flush A 6 101@100000..104@110000",
      "action interest-110000 A at 104@110000 #-1",
      "flush A 7 104@110000..105@120000",
      "action interest-120000 A at 105@120000 #-1",
    ]);
    expect(book.get(A, TOKEN, "hold")?.balance).toBe("8");
    expect(result.dirtyMetrics).toEqual(new Map([[`${TOKEN}|index`, "2.5"]]));
    expect(d.metrics).toEqual(new Map([[`${TOKEN}|index`, "2.5"]]));
    // The invalid delta (user "nobody") is dropped at each boundary.
    expect(d.enricher.dropped).toBe(3);
    expect(result.last).toEqual({ block: 106, ts: 125_000 });
  });

  it("skips boundaries while no window is open: no block search, no onFlush", async () => {
    const chain = chainOf();
    const { adapter, flushes } = holdings({ onFlush: () => [] });
    const logs = [transfer(106, "0x03", 0, NULL_ADDRESS, B, 4)];
    const result = await processBatch(deps(adapter, chain.source, new WindowBook()), logs, 110, PREV);
    expect(result.items.map(show)).toEqual(["flush B 4 106@125000..106@130000", "flush B 4 106@130000..107@140000", "flush B 4 107@140000..109@150000"]);
    expect(flushes).toEqual([
      [130_000, 106, 125_000],
      [140_000, 107, 131_000],
      [150_000, 109, 141_000],
    ]);
    expect(chain.single()).toEqual(["timestamp 107", "timestamp 109"]);
  });

  it("places a boundary crossed between consecutive blocks in the earlier block without reading the chain", async () => {
    const chain = chainOf();
    const { adapter, flushes } = holdings({ onFlush: () => [] });
    const prev = { block: 101, ts: 98_000 };
    const book = new WindowBook([held(A, "5", prev)]);
    const result = await processBatch(deps(adapter, chain.source, book), [transfer(102, "0x04", 0, A, B, 1)], 102, prev);
    expect(result.items.map(show)).toEqual(["flush A 5 101@98000..101@100000", "balanceDelta A 5 101@100000..102@101000 by 0x04#0"]);
    expect(flushes).toEqual([[100_000, 101, 98_000]]);
    expect(chain.calls).toEqual(["timestamps 102,102"]);
    expect(result.last).toEqual({ block: 102, ts: 101_000 });
  });

  it("keeps each log's events in order, one point per block, and the metrics the batch changed", async () => {
    const since = { block: 102, ts: 101_000 };
    const extra = (log: ChainLog): IndexerEvent[] =>
      log.logIndex === 1
        ? [
            { type: "action", key: "swap-1", activity: "swap", user: A, priceable: false },
            { type: "measureDelta", asset: TOKEN, metric: "supply", amount: "2.5" },
          ]
        : [{ type: "measureDelta", asset: TOKEN, metric: "supply", amount: "-1" }];
    const { adapter } = holdings({ extra, async: true });
    const book = new WindowBook([held(A, "5", since), held(B, "2", since)]);
    const metrics = new Map([
      [`${TOKEN}|supply`, "10"],
      [`${OTHER}|supply`, "7"],
    ]);
    const logs = [transfer(103, "0x05", 1, A, C, 1), transfer(103, "0x05", 2, B, C, 1)];
    const result = await processBatch(deps(adapter, chainOf().source, book, metrics), logs, 103, since);
    // C's window opened and closed in block 103 has no length and is left out.
    expect(result.items.map(show)).toEqual([
      "balanceDelta A 5 102@101000..103@104000 by 0x05#1",
      "action swap-1 A at 103@104000 0x05#1",
      "balanceDelta B 2 102@101000..103@104000 by 0x05#2",
    ]);
    const [first, , third] = result.items;
    const ends = [first, third].map((item) => (item?.kind === "window" ? item.window.end : undefined));
    expect(ends[0]).toBe(ends[1]);
    expect(result.last).toBe(ends[0]);
    expect(result.dirtyMetrics).toEqual(new Map([[`${TOKEN}|supply`, "11.5"]]));
    expect(metrics.get(`${OTHER}|supply`)).toBe("7");
    expect(book.get(C, TOKEN, "hold")?.balance).toBe("2");
  });

  it("drops invalid events of a log with the reason logged, applying the valid ones", async () => {
    const extra = (): IndexerEvent[] => [{ type: "balanceDelta", user: B, asset: TOKEN, amount: "lots", activity: "hold" }];
    const { adapter } = holdings({ extra });
    const book = new WindowBook();
    const d = deps(adapter, chainOf().source, book);
    const result = await processBatch(d, [transfer(103, "0x06", 0, NULL_ADDRESS, A, 3)], 103, { block: 102, ts: 101_000 });
    expect(result.items).toEqual([]);
    expect(d.enricher.dropped).toBe(1);
    expect(book.get(A, TOKEN, "hold")?.balance).toBe("3");
    expect(book.get(B, TOKEN, "hold")).toBeUndefined();
  });

  it("flushes an empty range from the previous point to its last block", async () => {
    const { adapter } = holdings();
    const book = new WindowBook([held(C, "1", { block: 104, ts: 109_000 })]);
    const result = await processBatch(deps(adapter, chainOf().source, book), [], 105, { block: 104, ts: 109_000 });
    expect(result.items.map(show)).toEqual(["flush C 1 104@109000..104@110000"]);
    expect(result.last).toEqual({ block: 105, ts: 112_000 });
  });

  it("cuts windows on position updates, status changes and reprices of a log, with the log as their cause", async () => {
    const since = { block: 102, ts: 101_000 };
    const scripted: Record<number, IndexerEvent[]> = {
      1: [{ type: "positionUpdate", user: A, asset: TOKEN, activity: "hold" }],
      2: [{ type: "positionStatusChange", user: B, asset: TOKEN, activity: "hold", active: false }],
      3: [{ type: "reprice", asset: TOKEN }],
    };
    const adapter: Adapter = { filters: [], contracts: [], handle: (log) => scripted[log.logIndex] ?? [] };
    const book = new WindowBook([held(A, "5", since), held(B, "2", since)]);
    const log = (block: number, logIndex: number): ChainLog => ({
      address: TOKEN,
      topics: ["0x01"],
      data: "0x",
      blockNumber: block,
      transactionHash: "0x07",
      logIndex,
    });
    const result = await processBatch(deps(adapter, chainOf().source, book), [log(103, 1), log(104, 2), log(105, 3)], 105, since);
    expect(result.items.map(show)).toEqual([
      "positionUpdate A 5 102@101000..103@104000 by 0x07#1",
      "statusChange B 2 102@101000..104@109000 by 0x07#2",
      "flush A 5 103@104000..104@110000",
      "flush B 2 104@109000..104@110000",
      "reprice A 5 104@110000..105@112000 by 0x07#3",
      "reprice B 2 104@110000..105@112000 by 0x07#3",
    ]);
    expect(book.get(B, TOKEN, "hold")?.active).toBe(false);
  });
});

describe("applyEvent", () => {
  it("places an event at its context's block and time, with its context as cause, when no point is given", () => {
    const book = new WindowBook([held(A, "5", PREV)]);
    const ctx = { ts: 104_000, height: 103, txHash: "0x08", logIndex: 4 };
    const applied = applyEvent(book, new Map(), { type: "positionUpdate", user: A, asset: TOKEN, activity: "hold" }, ctx);
    expect(applied.windows.map((w) => [w.trigger, w.start, w.end, w.cause])).toEqual([
      ["positionUpdate", PREV, { ts: 104_000, block: 103 }, { txHash: "0x08", logIndex: 4 }],
    ]);
    const delta = applyEvent(
      book,
      new Map(),
      { type: "balanceDelta", user: A, asset: TOKEN, amount: "-1", activity: "hold" },
      { ...ctx, ts: 109_000, height: 104 },
    );
    expect(delta.windows.map((w) => [w.trigger, w.balance, w.start, w.end])).toEqual([
      ["balanceDelta", "5", { ts: 104_000, block: 103 }, { ts: 109_000, block: 104 }],
    ]);
    // Each call without an array of its own gets a new one.
    expect(applyEvent(book, new Map(), { type: "reprice", asset: TOKEN }, ctx).windows).toEqual([]);
    expect(applied.windows).toHaveLength(1);
  });
});
