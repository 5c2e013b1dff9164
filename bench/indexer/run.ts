// Indexer benchmark: logs per second through the amm-v2 adapter with time-weighted balances, enrichment
// (pegged and LP pricing rules) and the csv sink, beside a decode-only baseline (ABI-decoding the same logs)
// in the same run. Chain reads are left out on purpose: they depend on the RPC provider, and this measures
// what the engine itself costs per log.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ammV2Adapter, decodeAddress, decodeSwapAmounts, decodeTransferValue, poolKeyPrefix, SWAP_TOPIC, TRANSFER_TOPIC } from "@pointwise/adapter-amm-v2";
import { applyEvent, type BatchItem, boundariesBetween, type ChainLog, CsvSink, Enricher, Pricer, StateStore, WindowBook } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { AbiCoder, zeroPadValue } from "ethers";
import { emit, type Figure, median, peakRssMb, quick } from "../lib/measure";

const LOGS = quick ? 5_000 : 20_000;
const ROUNDS = quick ? 1 : 3;
const BATCH = 1_000;
const USERS = 500;
const FLUSH_MS = 3_600_000;
const POOL = "0x00000000000000000000000000000000000000a0";
const T0 = "0x00000000000000000000000000000000000000f0";
const T1 = "0x00000000000000000000000000000000000000f1";
const coder = AbiCoder.defaultAbiCoder();
const logger = createLogger({ service: "bench-indexer", level: "silent" });

interface TimedLog {
  log: ChainLog;
  ts: number;
  from: string;
}

/** Synthetic pool history: LP transfers between users (70%) and swaps both ways (30%), 5 logs per 12-second block. */
function makeLogs(count: number): TimedLog[] {
  const user = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`;
  const out: TimedLog[] = [];
  for (let i = 0; i < count; i++) {
    const block = 1_000 + Math.floor(i / 5);
    const base = { address: POOL, blockNumber: block, transactionHash: `0x${i.toString(16).padStart(64, "0")}`, logIndex: i % 5 };
    const a = user((i * 7) % USERS);
    const b = user((i * 13 + 1) % USERS);
    const log: ChainLog =
      i % 10 < 7
        ? {
            ...base,
            topics: [TRANSFER_TOPIC, zeroPadValue(i < USERS ? "0x0000000000000000000000000000000000000000" : a, 32), zeroPadValue(b, 32)],
            data: coder.encode(["uint256"], [10n ** 15n * BigInt((i % 97) + 1)]),
          }
        : {
            ...base,
            topics: [SWAP_TOPIC, zeroPadValue(a, 32), zeroPadValue(b, 32)],
            data: coder.encode(
              ["uint256", "uint256", "uint256", "uint256"],
              i % 2 === 0 ? [1_000_000n * BigInt((i % 50) + 1), 0n, 0n, 10n ** 14n * BigInt((i % 50) + 1)] : [0n, 10n ** 14n, 1_900_000n, 0n],
            ),
          };
    out.push({ log, ts: 1_704_067_200_000 + block * 12_000, from: a });
  }
  return out;
}

/** Baseline: decode every log's topics and data with ethers' ABI coder, nothing else. */
function ethersDecode(logs: TimedLog[]): number {
  const start = process.hrtime.bigint();
  let sink = 0n;
  for (const { log } of logs) {
    const values =
      log.topics[0] === TRANSFER_TOPIC ? coder.decode(["uint256"], log.data) : coder.decode(["uint256", "uint256", "uint256", "uint256"], log.data);
    sink += values[0] as bigint;
    coder.decode(["address"], log.topics[1] ?? "0x");
  }
  if (sink < 0n) throw new Error("unreachable");
  return logs.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** The adapter's own decoders alone (fixed 32-byte words), for comparison. */
function decodeOnly(logs: TimedLog[]): number {
  const start = process.hrtime.bigint();
  let sink = 0n;
  for (const { log } of logs) {
    sink += log.topics[0] === TRANSFER_TOPIC ? decodeTransferValue(log.data) : decodeSwapAmounts(log.data).amount0In;
    sink += BigInt(decodeAddress(log.topics[1] ?? "0x").length);
  }
  if (sink < 0n) throw new Error("unreachable");
  return logs.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** Subject: adapter, time-weighted balances with hourly flushes, enrichment with pricing, csv sink per batch of logs. */
async function fullPipeline(logs: TimedLog[], store: StateStore, dir: string): Promise<{ logsPerSec: number; rows: number }> {
  const runtime = {
    chainId: 1,
    chain: { call: () => Promise.reject(new Error("no chain in the benchmark")) },
    store: store.kv,
    labels: store.labels,
    adapterConfigHash: "bench",
    logger,
  };
  const adapter = await ammV2Adapter.create({ poolAddress: POOL, trackSwaps: true, trackLP: true }, runtime);
  await adapter.init?.();
  const pricer = new Pricer({
    rules: [
      { match: { key: T0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
      { match: { key: T1 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2000 } } },
      { match: { key: POOL }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 44.5 } } },
    ],
    pricingRange: undefined,
    chain: runtime.chain,
    labels: store.labels,
    facts: store.kv,
    market: undefined,
    logger,
  });
  const enricher = new Enricher({ runner: { indexerId: "bench", chainId: 1, adapterId: "amm-v2", adapterVersion: "0.0.1" }, pricer, logger });
  const csv = new CsvSink("0-csv", path.join(dir, `rows-${randomBytes(3).toString("hex")}.csv`), logger);
  await csv.recover(undefined);
  const book = new WindowBook();
  const metrics = new Map<string, string>();
  let rows = 0;
  let lastTs = logs[0]?.ts ?? 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < logs.length; i += BATCH) {
    const items: BatchItem[] = [];
    for (const { log, ts, from } of logs.slice(i, i + BATCH)) {
      for (const boundary of boundariesBetween(lastTs, ts, FLUSH_MS))
        for (const window of book.flush({ ts: boundary, block: log.blockNumber - 1 })) items.push({ kind: "window", window });
      lastTs = ts;
      const ctx = { ts, height: log.blockNumber, txHash: log.transactionHash, logIndex: log.logIndex };
      for (const event of await adapter.handle(log, { ...ctx, transaction: { from } })) {
        if (!enricher.accept(event, ctx)) continue;
        const applied = applyEvent(book, metrics, event, ctx);
        for (const window of applied.windows) items.push({ kind: "window", window });
        if (applied.action !== undefined) items.push({ kind: "action", action: applied.action, ctx });
      }
    }
    const out = await enricher.rows(items);
    await csv.write(out);
    rows += out.length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await csv.close();
  return { logsPerSec: logs.length / seconds, rows };
}

async function main(): Promise<void> {
  const logs = makeLogs(LOGS);
  const store = await StateStore.connect(
    { url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", keyPrefix: `pwbench-${randomBytes(3).toString("hex")}`, indexerId: "bench", configHash: "bench" },
    logger,
  );
  const prefix = poolKeyPrefix("bench", POOL);
  for (const [k, v] of Object.entries({ token0: T0, token1: T1, decimals0: "6", decimals1: "18" })) await store.kv.set(`${prefix}:${k}`, v);
  const dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-indexer-"));
  const baseline: number[] = [];
  const own: number[] = [];
  const subject: number[] = [];
  let rows = 0;
  let tenfold = { logsPerSec: 0, rows: 0 };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(ethersDecode(logs));
      own.push(decodeOnly(logs));
      const r = await fullPipeline(logs, store, dir);
      subject.push(r.logsPerSec);
      rows = r.rows;
    }
    tenfold = await fullPipeline(makeLogs(LOGS * 10), store, dir);
  } finally {
    await store.clearIndexer();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const value = median(subject);
  const base = median(baseline);
  const figures: Figure[] = [
    {
      name: "amm-v2 logs/s with time-weighted balances into csv",
      unit: "logs/s",
      value,
      baseline: base,
      ratio: value / base,
      target: ">= 20,000 logs/s",
      met: value >= 20_000,
      note: "baseline: decoding the same logs with ethers only",
    },
    {
      name: "the same at 10x the logs",
      unit: "logs/s",
      value: tenfold.logsPerSec,
      baseline: value,
      ratio: tenfold.logsPerSec / value,
      note: "baseline: the figure above",
    },
  ];
  emit({
    path: "indexer",
    figures,
    memory: [{ process: "benchmark (engine in-process)", peakRssMb: peakRssMb(process.pid) }],
    notes: [
      `${LOGS.toLocaleString("en")} synthetic logs (70% LP transfers among ${USERS} holders, 30% swaps, 5 per 12-second block), ${ROUNDS} round(s), batches of ${BATCH}; ${rows.toLocaleString("en")} rows per round, ${tenfold.rows.toLocaleString("en")} at 10x.`,
      `The adapter's own word decoder reads ${Math.round(median(own)).toLocaleString("en")} logs/s in the same run (ethers' generic ABI decoder: ${Math.round(base).toLocaleString("en")}).`,
      "Chain reads (eth_getLogs, block timestamps, senders) are excluded: on a real backfill the RPC provider's throughput bounds the rate.",
      "Most of the remaining time is exact decimal arithmetic (decimal.js, 60 digits) for window values and USD x hours.",
    ],
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
