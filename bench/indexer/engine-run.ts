// The measured step of the indexer benchmark and its baseline, over a subject's recorded history (subjects.ts): the
// engine's own block-range step (indexRange) with the subject's adapter, pricing rules, the csv sink and the Redis
// state store, and decode-only passes over the same logs. Reading the set (the RPC node's work) is kept out of every timing.

import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import {
  AdaptiveLogFetcher,
  type ChainLog,
  type Checkpoint,
  CsvSink,
  DEFAULT_TUNING,
  Enricher,
  indexRange,
  type LogBatch,
  Pricer,
  StateStore,
  WindowBook,
} from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { AbiCoder } from "ethers";
import { recordedBlockTs } from "../../apps/indexer-service/test/support/recorded";
import { peakRssMb } from "../lib/measure";
import { describeProfile } from "../lib/profile";
import { rowsByKind } from "../lib/row-kinds";
import type { BenchChain, Subject } from "./subjects";

const FLUSH_MS = 3_600_000;
const coder = AbiCoder.defaultAbiCoder();
const logger = createLogger({ service: "bench-indexer", level: "silent" });
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const now = () => process.hrtime.bigint();

/** The recorded set's ranges, as the engine's fetcher sizes them (same spans and target as a real run). */
async function* ranges(subject: Subject, toBlock: number, chain: BenchChain): AsyncGenerator<LogBatch> {
  const fetcher = new AdaptiveLogFetcher(chain, {
    initialSpan: DEFAULT_TUNING.initialBlockRange,
    maxSpan: DEFAULT_TUNING.maxBlockRange,
    targetLogs: DEFAULT_TUNING.targetLogsPerRange,
  });
  for (let next = subject.firstBlock; next <= toBlock; ) {
    // The senders come with the range, as the engine reads them ahead with its logs.
    const batch = { ...(await fetcher.next([], [], next, toBlock)), senders: chain.senders };
    yield batch;
    next = batch.to + 1;
  }
}

/** Baseline: decodes logs' data and indexed topics with ethers' ABI coder, nothing else; returns the seconds taken. */
function ethersDecode(subject: Subject, logs: readonly ChainLog[]): number {
  const start = now();
  let sink = 0n;
  for (const log of logs) {
    const types = subject.abi[log.topics[0] as string];
    if (types === undefined) throw new Error(`${subject.name}: no ABI for topic ${log.topics[0]}`);
    const values = coder.decode(types.data, log.data);
    sink += BigInt(values.length);
    types.indexed.forEach((type, i) => {
      sink += BigInt(String(coder.decode([type], log.topics[i + 1] ?? "0x")[0]).length);
    });
  }
  if (sink < 0n) throw new Error("unreachable");
  return Number(now() - start) / 1e9;
}

export interface SubjectRun {
  logsPerSec: number;
  /** The ethers baseline over every `probeEvery`-th range, decoded just before that range is indexed. */
  baselineLogsPerSec: number;
  /** CPU time (user + system, all threads) per log in the measured step: steadier than wall time on a busy machine. */
  cpuUsPerLog: number;
  logs: number;
  rows: number;
  ranges: number;
  /** Peak RSS of this process during the run (VmHWM reset at its start), MiB. */
  peakRssMb: number;
  /** With `tally`: the rows written, by kind (`action`, or `window` and what closed it: `window flush`, ...). */
  rowsByKind?: Record<string, number>;
}

/** How a subject run is fed and paired with its baseline. */
export interface RunOptions {
  /** Ranges read ahead of the run, used as given (for the profile, so reading the set stays out of it). */
  preloaded?: readonly LogBatch[];
  /**
   * Decode every n-th range with the baseline right before indexing it, so the baseline meets the same machine
   * load as the subject at each moment of a long run (0: no baseline).
   */
  probeEvery?: number;
  /** Count the rows of the csv file by kind after the run (untimed), as `rowsByKind`. */
  tally?: boolean;
}

/** Resets the process's peak-RSS mark to its current RSS, so the next reading covers only what follows. */
function resetPeakRss(): void {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // Without clear_refs the reading is the lifetime peak, which only overstates.
  }
}

/** Subject: the engine's block-range step over the recorded set, with a fresh state namespace and csv file. */
export async function engineRun(subject: Subject, toBlock: number, dir: string, options: RunOptions = {}): Promise<SubjectRun> {
  const { preloaded, probeEvery = 0, tally = false } = options;
  const indexerId = `bench-${randomBytes(4).toString("hex")}`;
  const store = await StateStore.connect({ url: redisUrl, keyPrefix: "pwbench", indexerId, configHash: "bench" }, logger);
  const csvPath = path.join(dir, `${indexerId}.csv`);
  try {
    await subject.prepare?.(store.kv);
    const chain = subject.chain(toBlock);
    const noCalls = () => Promise.reject(new Error("the benchmark reads no chain state"));
    const calls = { call: chain.call?.bind(chain) ?? noCalls };
    const params = subject.adapter.paramsSchema.parse(subject.params);
    // The engine's live metrics, as it hands them to the adapter (an adapter whose state spans logs keeps it there).
    const metrics = new Map<string, string>();
    const runtime = { chainId: 1, chain: calls, store: store.kv, labels: store.labels, adapterConfigHash: "bench", logger, metrics };
    const adapter = await subject.adapter.create(params, runtime);
    await adapter.init?.();
    const pricer = new Pricer({
      rules: subject.pricing,
      pricingRange: undefined,
      chain: calls,
      labels: store.labels,
      facts: store.kv,
      market: undefined,
      logger,
    });
    const enricher = new Enricher({
      runner: { indexerId, chainId: 1, adapterId: subject.adapter.id, adapterVersion: subject.adapter.version },
      pricer,
      logger,
    });
    const csv = new CsvSink("0-csv", csvPath, logger);
    await csv.recover(undefined);
    const deps = {
      adapter,
      reader: chain,
      book: new WindowBook(),
      metrics,
      enricher,
      flushMs: FLUSH_MS,
      logger,
      sinks: [csv],
      store,
    };
    let checkpoint: Checkpoint = {
      fromBlock: subject.firstBlock,
      nextBlock: subject.firstBlock,
      prev: { block: subject.firstBlock - 1, ts: recordedBlockTs(subject.firstBlock - 1) },
      sinks: {},
      rowsWritten: 0,
    };
    let busy = 0n;
    let cpuUs = 0;
    let logs = 0;
    let count = 0;
    let probeSeconds = 0;
    let probeLogs = 0;
    resetPeakRss();
    for await (const batch of preloaded ?? ranges(subject, toBlock, chain)) {
      if (probeEvery > 0 && count % probeEvery === 0) {
        probeSeconds += ethersDecode(subject, batch.logs);
        probeLogs += batch.logs.length;
      }
      const start = now();
      const cpu = process.cpuUsage();
      checkpoint = await indexRange(deps, checkpoint, batch);
      const used = process.cpuUsage(cpu);
      busy += now() - start;
      cpuUs += used.user + used.system;
      logs += batch.logs.length;
      count++;
    }
    await csv.close();
    return {
      logsPerSec: logs / (Number(busy) / 1e9),
      baselineLogsPerSec: probeSeconds > 0 ? probeLogs / probeSeconds : 0,
      cpuUsPerLog: cpuUs / logs,
      logs,
      rows: checkpoint.rowsWritten,
      ranges: count,
      peakRssMb: peakRssMb(process.pid),
      ...(tally ? { rowsByKind: await rowsByKind(csvPath) } : {}),
    };
  } finally {
    await store.clearIndexer();
    await store.close();
    rmSync(csvPath, { force: true });
  }
}

/** One more subject run under the V8 sampling profiler, summarised by package and hottest function. */
export async function profiledRun(subject: Subject, toBlock: number, dir: string): Promise<string> {
  const preloaded: LogBatch[] = [];
  for await (const batch of ranges(subject, toBlock, subject.chain(toBlock))) preloaded.push(batch);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  await engineRun(subject, toBlock, dir, { preloaded });
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  return describeProfile(profile);
}
