// Backfill benchmark, end to end: the built indexer timed from process start to exit over workloads generated on a
// local hardhat node, beside the floor measured in the same run and alternated with it (a minimal client fetching
// the same logs and their blocks' headers, floor.ts); then both through a proxy adding 30 ms to every request.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestCache } from "@pointwise/testkit";
import { startChain } from "../../apps/indexer-service/test/support/chain";
import { startRpcProxy } from "../../apps/indexer-service/test/support/servers";
import { generateAmmWorkload, generateErc20Workload, type Workload } from "../../apps/indexer-service/test/support/workload";
import { emit, type Figure, main, median, pairedRatio, peakRssMb, quick } from "../lib/measure";
import { profileProcess } from "../lib/profile";
import { cpuOf } from "../scoring/cpu";
import { floorFetch } from "./floor";

const ROUNDS = quick ? 1 : 3;
const ERC20 = { transfers: quick ? 8_000 : 52_000, holders: quick ? 500 : 2_000, blocks: quick ? 6_000 : 35_000, perBlock: 10 };
const AMM = { transactions: quick ? 1_500 : 6_000, blocks: quick ? 4_000 : 20_000 };
const prefix = `bench_${randomBytes(5).toString("hex")}`;
const dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-backfill-"));
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
const fmt = (n: number) => n.toLocaleString("en");

/** CPU seconds of this process's children that have ended. */
const childCpu = () => (cpuOf(process.pid, true)?.ms ?? 0) / 1000;

/** Runs apps/indexer-service/dist/main.js over a workload into a csv file: seconds from start to exit, CPU seconds, peak RSS. */
function indexer(rpcUrl: string, w: Workload, adapter: object, nodeArgs: string[] = []): Promise<{ seconds: number; cpu: number; rss: number }> {
  const id = `${prefix}-${randomBytes(3).toString("hex")}`;
  const sinks = [{ sinkType: "csv", path: path.join(dir, `${id}.csv`) }];
  const config = { kind: "evm", indexerId: id, flushMs: 3_600_000, stateStoreUrl: process.env.REDIS_URL, network: { chainId: 31337, finality: 0 } };
  const range = { fromBlock: w.fromBlock, toBlock: w.toBlock };
  writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ ...config, range, sinkConfig: { sinks }, adapterConfig: adapter }));
  const env = {
    PATH: process.env.PATH,
    POINTWISE_API_KEY: "bench",
    PRICE_API_KEY: "bench",
    RPC_URL: rpcUrl,
    STATE_KEY_PREFIX: prefix,
    INDEXER_PROGRESS: "off",
  };
  const [cpu, started] = [childCpu(), performance.now()];
  const main = path.resolve(__dirname, "../../apps/indexer-service/dist/main.js");
  const child = spawn(process.execPath, [...nodeArgs, main, "run", "--config", path.join(dir, `${id}.json`)], { env, stdio: ["ignore", "ignore", "inherit"] });
  let rss = 0;
  const poll = setInterval(() => {
    try {
      rss = Math.max(rss, peakRssMb(child.pid as number));
    } catch {} // it ended between two polls
  }, 50);
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      clearInterval(poll);
      rmSync(path.join(dir, `${id}.csv`), { force: true });
      if (code === 0) resolve({ seconds: (performance.now() - started) / 1000, cpu: childCpu() - cpu, rss });
      else reject(new Error(`the indexer exited with ${code}`));
    }),
  );
}

main(async () => {
  const chain = await startChain();
  const proxy = await startRpcProxy({ target: chain.url, delayMs: 30, passThrough: true });
  try {
    const started = performance.now();
    const erc20 = await generateErc20Workload(chain, ERC20);
    const amm = await generateAmmWorkload(chain, AMM);
    const generated = (performance.now() - started) / 1000;
    const cases: [string, Workload, object][] = [
      ["erc20-holdings", erc20, { adapterId: "erc20-holdings", params: { tokenAddress: erc20.contract } }],
      ["amm-v2", amm, { adapterId: "amm-v2", params: { poolAddress: amm.contract, trackSwaps: true, trackLP: true } }],
    ];
    await floorFetch(chain.url, erc20.contract, erc20.fromBlock, erc20.toBlock); // untimed, so the first round is warm too
    const figures: Figure[] = [];
    const notes: string[] = [];
    let rss = 0;
    for (const [name, w, adapter] of cases) {
      for (const [label, url, target] of [
        ["local node", chain.url, 0.7],
        ["node + 30 ms per request", proxy.url, 0.5],
      ] as const) {
        const floors: number[] = [];
        const subjects: number[] = [];
        const runs = [];
        let logs = 0;
        for (let i = 0; i < ROUNDS; i++) {
          const floor = await floorFetch(url, w.contract, w.fromBlock, w.toBlock);
          const run = await indexer(url, w, adapter);
          logs = floor.logs;
          floors.push(floor.logs / floor.seconds);
          subjects.push(floor.logs / run.seconds);
          runs.push(run);
        }
        const ratio = pairedRatio(floors, subjects);
        const cpu = median(runs.map((r) => (r.cpu * 1e6) / logs));
        rss = Math.max(rss, ...runs.map((r) => r.rss));
        const note = "baseline: the floor, fetching the same logs and headers only";
        figures.push({
          name: `${name}, ${label}: logs/s, process start to exit`,
          unit: "logs/s",
          value: median(subjects),
          baseline: median(floors),
          ratio,
          target: `>= ${target}x floor`,
          met: ratio >= target,
          note,
        });
        if (target === 0.7) figures.push({ name: `${name}, ${label}: CPU per log (the indexer process)`, unit: "µs", value: cpu });
        notes.push(
          `${name}, ${label}: ${fmt(logs)} logs, the indexer took ${median(runs.map((r) => r.seconds)).toFixed(2)} s, the floor ${(logs / median(floors)).toFixed(2)} s`,
        );
      }
    }
    let bounds: string[] = [];
    if (figures.some((f) => f.met === false)) {
      const profile = await profileProcess((nodeArgs) => indexer(chain.url, erc20, cases[0]?.[2] as object, nodeArgs));
      bounds = [`the indexer process, erc20-holdings on the local node: ${profile}`];
    }
    const span = (w: Workload) => `${fmt(w.toBlock - w.fromBlock + 1)} blocks (${((w.toBlock - w.fromBlock) / 300).toFixed(0)} h)`;
    notes.unshift(
      `generated on hardhat in ${generated.toFixed(0)} s, 12 s blocks: ${fmt(ERC20.transfers)} ERC-20 Transfers among ${fmt(ERC20.holders)} holders over ${span(erc20)}; an amm-v2 pool with ${fmt(AMM.transactions)} swaps and LP transfers over ${span(amm)}; hourly windows into csv, state in Redis; median of ${ROUNDS} alternating round(s)`,
    );
    emit({ path: "backfill", figures, memory: [{ process: "indexer-service", peakRssMb: rss }], notes, bounds });
  } finally {
    await proxy.close();
    await chain.stop();
    await (await createTestCache(prefix, process.env.REDIS_URL)).drop();
  }
});
