// Indexer benchmark: logs per second through the engine's own block-range step (indexRange: the amm-v2 adapter,
// event validation, time-weighted balances with hourly flushes, enrichment with pricing rules, the csv sink with
// its fsync, and the state commit to Redis), beside a baseline that decodes the same logs with ethers and nothing
// else, in the same run. The logs come from a recorded pool history (recorded-chain.ts) read in the block ranges
// the engine's adaptive fetcher picks; reading them is the RPC node's work and is left out of both figures.

import os from "node:os";
import { emit, type Figure, median, quick } from "../lib/measure";
import { withTempDir } from "../lib/temp-dir";
import { adapterDecode, engineRun, profiledRun, type SubjectRun } from "./engine-run";
import { fingerprint, HOLDERS, rangeFor } from "./recorded-chain";

const LOGS = quick ? 20_000 : 100_000;
// Seven short rounds (about 5 s each): the median of three moved 5% between full runs.
const ROUNDS = quick ? 1 : 7;
/** Every fourth range is also decoded by the baseline, just before it is indexed. */
const PROBE_EVERY = 4;
const TARGET = 20_000;

async function main(): Promise<void> {
  const one = rangeFor(LOGS);
  const ten = rangeFor(LOGS * 10);
  const own: number[] = [];
  const runs: SubjectRun[] = [];
  const { tenfold, profile } = await withTempDir("pw-bench-indexer-", async (dir) => {
    // A long-running indexer runs JIT-compiled code: one short untimed run first, so round one is not the cold start.
    await engineRun(rangeFor(Math.min(LOGS, 20_000)).toBlock, dir);
    for (let round = 0; round < ROUNDS; round++) {
      own.push(await adapterDecode(one.toBlock));
      runs.push(await engineRun(one.toBlock, dir, { probeEvery: PROBE_EVERY }));
    }
    return {
      tenfold: await engineRun(ten.toBlock, dir, { probeEvery: PROBE_EVERY }),
      profile: await profiledRun(rangeFor(Math.min(LOGS, 20_000)).toBlock, dir),
    };
  });
  const value = median(runs.map((r) => r.logsPerSec));
  const base = median(runs.map((r) => r.baselineLogsPerSec));
  const ratio = median(runs.map((r) => r.logsPerSec / r.baselineLogsPerSec));
  const tenRatio = tenfold.logsPerSec / tenfold.baselineLogsPerSec;
  const cpu = median(runs.map((r) => r.cpuUsPerLog));
  const first = runs[0] as SubjectRun;
  const met = value >= TARGET;
  const fmt = (n: number) => Math.round(n).toLocaleString("en");
  const figures: Figure[] = [
    {
      name: "amm-v2 logs/s with time-weighted balances into csv",
      unit: "logs/s",
      value,
      baseline: base,
      ratio,
      target: ">= 20,000 logs/s",
      met,
      note: "baseline: decoding the same logs with ethers' ABI coder only, interleaved with the run",
    },
    {
      name: `the same at 10x the logs (${fmt(tenfold.logs)})`,
      unit: "logs/s",
      value: tenfold.logsPerSec,
      baseline: tenfold.baselineLogsPerSec,
      ratio: tenRatio,
      note: "baseline: the same ethers decoding, interleaved with this run",
    },
    {
      name: "cost per log at 10x the logs, relative to 1x (from the ratios to the baseline)",
      unit: "x",
      value: ratio / tenRatio,
      note: "1.0 means the cost per log does not grow with the number of logs",
    },
  ];
  emit({
    path: "indexer",
    figures,
    memory: [
      { process: `benchmark process, ${fmt(first.logs)}-log run (engine in-process)`, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) },
      { process: `benchmark process, ${fmt(tenfold.logs)}-log run`, peakRssMb: tenfold.peakRssMb },
    ],
    notes: [
      `Recorded set: ${fmt(first.logs)} logs of one amm-v2 pool (fingerprint ${fingerprint(one.toBlock)}): ${HOLDERS} LP holders minted first, then 68% LP transfers, 2% burns, 30% swaps through a router, 1 to 9 logs per 12-second block; ${fmt(first.rows)} rows per run (${(first.rows / first.logs).toFixed(2)} per log), in ${first.ranges} block ranges sized by the engine's adaptive fetcher. The 10x set continues the same history to ${fmt(tenfold.logs)} logs (${fmt(tenfold.rows)} rows).`,
      `Measured: the engine's indexRange per block range (adapter, validation, windows with hourly flushes, pegged pricing, csv write with fsync, Redis state commit), ${ROUNDS} round(s) after an untimed warm-up, median: ${((1 / value) * 1e6).toFixed(1)} µs of wall time and ${cpu.toFixed(1)} µs of CPU time (all threads) per log; ${((1 / tenfold.logsPerSec) * 1e6).toFixed(1)} and ${tenfold.cpuUsPerLog.toFixed(1)} µs at 10x. Reading the set (the RPC node's work) is outside every figure.`,
      `The baseline decodes every ${PROBE_EVERY}th range just before the engine indexes it, so both meet the same machine load; the adapter's own word decoder reads ${fmt(median(own))} logs/s over the same logs.`,
      `Peak RSS is measured per run (VmHWM reset at its start): ${fmt(Math.max(...runs.map((r) => r.peakRssMb)))} MiB at ${fmt(first.logs)} logs, ${fmt(tenfold.peakRssMb)} MiB at ${fmt(tenfold.logs)}. Memory is bounded rather than proportional to the logs: ranges are read, indexed, written and committed one at a time, the csv sink reuses one line buffer, and every cache is a bounded LRU; the largest, the action-id dedupe (100,000 ids), fills after about ${fmt(100_000 / 0.3)} logs of this set (one id per swap, 30% of the logs), which is most of the growth from the 1x to the 10x run. The rest is Node and V8 themselves plus garbage between collections.`,
      met
        ? `Target met (${fmt(value)} >= ${fmt(TARGET)} logs/s). Where the time goes (profile of a separate run): ${profile}.`
        : `Target missed by ${fmt(TARGET - value)} logs/s (${Math.ceil((1 - value / TARGET) * 100)}% short). What bounds it (profile of a separate run): ${profile}. The step used ${cpu.toFixed(1)} µs of CPU time per log (all threads) against ${((1 / value) * 1e6).toFixed(1)} µs of wall time${cpu < 1e6 / value ? `: ${((1 - (cpu * value) / 1e6) * 100).toFixed(0)}% of the wall time it waited, for a CPU on this shared machine (load average ${os.loadavg()[0]?.toFixed(1)} at the end, 2 cores) and for fsync` : ""}.`,
      "A real backfill also waits for eth_getLogs, block timestamps and transaction senders; with a remote RPC provider those reads, not this step, usually bound the rate.",
    ],
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
