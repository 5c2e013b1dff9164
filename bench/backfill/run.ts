// Backfill benchmark, end to end: the built indexer (apps/indexer-service/dist/main.js) timed from process start
// to exit over workloads generated on a local hardhat node, beside the floor measured in the same run (a minimal
// client fetching the same logs and their blocks' headers, floor.ts), alternating; then both again through a
// proxy adding 30 ms to every request. Logs/s, the ratio to the floor, CPU per log and peak RSS of the indexer.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "redis";
import { startChain } from "../../apps/indexer-service/test/support/chain";
import { startRpcProxy } from "../../apps/indexer-service/test/support/servers";
import { generateAmmWorkload, generateErc20Workload, type Workload } from "../../apps/indexer-service/test/support/workload";
import { emit, type Figure, main, median, pairedRatio, peakRssMb, quick } from "../lib/measure";
import { describeProfile } from "../lib/profile";
import { floorFetch } from "./floor";

const ROUNDS = quick ? 1 : 3;
const ERC20 = quick ? { transfers: 8_000, holders: 500, blocks: 6_000, perBlock: 10 } : { transfers: 52_000, holders: 2_000, blocks: 35_000, perBlock: 10 };
const AMM = quick ? { transactions: 1_500, blocks: 4_000 } : { transactions: 12_000, blocks: 30_000 };
const MAIN = path.resolve(__dirname, "../../apps/indexer-service/dist/main.js");
const prefix = `bench_${randomBytes(5).toString("hex")}`;
const dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-backfill-"));
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));

/** CPU seconds of this process's waited-for children (cutime + cstime of /proc/self/stat). */
function childCpuSeconds(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface IndexerRun {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Runs the built indexer over a workload into a csv file, from process start to exit. */
function indexer(rpcUrl: string, workload: Workload, adapter: object, profileDir?: string): Promise<IndexerRun> {
  const id = `${prefix}-${randomBytes(3).toString("hex")}`;
  const config = path.join(dir, `${id}.json`);
  const sinks = [{ sinkType: "csv", path: path.join(dir, `${id}.csv`) }];
  const range = { fromBlock: workload.fromBlock, toBlock: workload.toBlock };
  const body = { kind: "evm", indexerId: id, flushMs: 3_600_000, stateStoreUrl: process.env.REDIS_URL, network: { chainId: 31337, finality: 0 }, range };
  writeFileSync(config, JSON.stringify({ ...body, sinkConfig: { sinks }, adapterConfig: adapter }));
  const env = {
    PATH: process.env.PATH,
    POINTWISE_API_KEY: "bench",
    PRICE_API_KEY: "bench",
    RPC_URL: rpcUrl,
    STATE_KEY_PREFIX: prefix,
    INDEXER_PROGRESS: "off",
  };
  const cpu = childCpuSeconds();
  const started = performance.now();
  const args = [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), MAIN, "run", "--config", config];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "inherit"] });
  let peak = 0;
  const poll = setInterval(() => {
    try {
      peak = Math.max(peak, peakRssMb(child.pid as number));
    } catch {} // exited between two polls
  }, 50);
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      clearInterval(poll);
      rmSync(path.join(dir, `${id}.csv`), { force: true });
      if (code !== 0) reject(new Error(`the indexer exited with ${code}`));
      else resolve({ seconds: (performance.now() - started) / 1000, cpuSeconds: childCpuSeconds() - cpu, peakRssMb: peak });
    }),
  );
}

interface Round {
  floor: number;
  subject: number;
  run: IndexerRun;
}

/** Alternates the floor and the indexer over one workload at one URL; logs/s of each per round. */
async function rounds(url: string, w: Workload, adapter: object): Promise<{ logs: number; rounds: Round[] }> {
  const out: Round[] = [];
  let logs = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const floor = await floorFetch(url, w.contract, w.fromBlock, w.toBlock);
    logs = floor.logs;
    const run = await indexer(url, w, adapter);
    out.push({ floor: floor.logs / floor.seconds, subject: floor.logs / run.seconds, run });
  }
  return { logs, rounds: out };
}

main(async () => {
  const chain = await startChain();
  const proxy = await startRpcProxy({ target: chain.url, delayMs: 30, passThrough: true });
  try {
    const started = performance.now();
    const erc20 = await generateErc20Workload(chain, ERC20);
    const amm = await generateAmmWorkload(chain, AMM);
    const generated = (performance.now() - started) / 1000;
    const adapters: [string, Workload, object][] = [
      ["erc20-holdings", erc20, { adapterId: "erc20-holdings", params: { tokenAddress: erc20.contract } }],
      ["amm-v2", amm, { adapterId: "amm-v2", params: { poolAddress: amm.contract, trackSwaps: true, trackLP: true } }],
    ];
    // One untimed run first, so the node and the page cache are warm for the floor's first round too.
    await floorFetch(chain.url, erc20.contract, erc20.fromBlock, erc20.toBlock);
    const figures: Figure[] = [];
    const notes: string[] = [];
    let peak = 0;
    let cpuPerLog = 0;
    for (const [name, w, adapter] of adapters) {
      for (const [label, url, target] of [
        ["local node", chain.url, 0.7],
        ["node + 30 ms per request", proxy.url, 0.5],
      ] as const) {
        const r = await rounds(url, w, adapter);
        const ratio = pairedRatio(
          r.rounds.map((x) => x.floor),
          r.rounds.map((x) => x.subject),
        );
        const seconds = median(r.rounds.map((x) => x.run.seconds));
        const cpu = median(r.rounds.map((x) => (x.run.cpuSeconds * 1e6) / r.logs));
        if (name === "erc20-holdings" && target === 0.7) cpuPerLog = cpu;
        peak = Math.max(peak, ...r.rounds.map((x) => x.run.peakRssMb));
        figures.push({
          name: `${name} backfill, ${label}, logs/s from process start to exit`,
          unit: "logs/s",
          value: median(r.rounds.map((x) => x.subject)),
          baseline: median(r.rounds.map((x) => x.floor)),
          ratio,
          target: `>= ${target}x floor`,
          met: ratio >= target,
          note: `baseline: the floor, fetching the same logs and headers`,
        });
        notes.push(
          `${name}, ${label}: ${r.logs.toLocaleString("en")} logs in ${seconds.toFixed(2)} s (median of ${ROUNDS}), ${cpu.toFixed(0)} µs of indexer CPU per log`,
        );
      }
    }
    figures.push({ name: "erc20-holdings CPU per log, local node (the indexer process, start-up included)", unit: "µs", value: cpuPerLog });
    let bounds: string[] = [];
    if (figures.some((f) => f.met === false)) {
      const profileDir = mkdtempSync(path.join(os.tmpdir(), "pw-prof-"));
      await indexer(chain.url, erc20, adapters[0]?.[2] as object, profileDir);
      const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile")) as string;
      bounds = [
        `the indexer process on the erc20-holdings workload, local node: ${describeProfile(JSON.parse(readFileSync(path.join(profileDir, file), "utf8")))}`,
      ];
      rmSync(profileDir, { recursive: true, force: true });
    }
    emit({
      path: "backfill",
      figures,
      memory: [{ process: "indexer-service (erc20-holdings and amm-v2 runs)", peakRssMb: peak }],
      notes: [
        `workloads generated on hardhat in ${generated.toFixed(0)} s at 12 s per block: ${ERC20.transfers.toLocaleString("en")} ERC-20 Transfers among ${ERC20.holders.toLocaleString("en")} holders over ${(erc20.toBlock - erc20.fromBlock + 1).toLocaleString("en")} blocks (${((erc20.toBlock - erc20.fromBlock) / 300).toFixed(0)} h); an amm-v2 pool with ${AMM.transactions.toLocaleString("en")} swaps and LP transfers over ${(amm.toBlock - amm.fromBlock + 1).toLocaleString("en")} blocks; hourly windows into a csv sink, state in Redis`,
        ...notes,
      ],
      bounds,
    });
  } finally {
    await proxy.close();
    await chain.stop();
    const redis = createClient({ url: process.env.REDIS_URL });
    await redis.connect();
    const keys: string[] = [];
    for await (const key of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(key);
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(keys.slice(i, i + 1000));
    await redis.quit();
  }
});
