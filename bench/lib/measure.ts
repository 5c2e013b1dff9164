// Shared measurement helpers: HTTP load from this process with autocannon against apps in their own
// processes on 127.0.0.1, alternating rounds and their paired ratio, peak RSS from /proc, and the
// result record every benchmark prints.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** One measured figure beside its baseline from the same run. */
export interface Figure {
  name: string;
  unit: string;
  value: number;
  baseline?: number;
  /** value / baseline, the headline. */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
}

/** What each benchmark prints as its last line (JSON). */
export interface BenchResult {
  path: string;
  figures: Figure[];
  memory: { process: string; peakRssMb: number }[];
  notes: string[];
  /** What bounds each missed target (a profile of the app under the same load), one line each. */
  bounds?: string[];
}

/** Whether the run is the short smoke mode. */
export const quick = process.argv.includes("--quick");

/**
 * Saturation rounds (ingest and read): many one-second rounds alternating with the baseline's, not a
 * few long ones: on two shared cores a round's ratio lands about 13% from the next one's whatever
 * its length, so the number of rounds decides how well the ratio repeats.
 */
export const SATURATION = { durationSec: 1, rounds: quick ? 2 : 30, profileDurationSec: quick ? 2 : 5 } as const;

/** Fixed-rate latency rounds: short, and many, since a single round's p99 rests on its slowest tens of requests. */
export const PACED = { durationSec: quick ? 2 : 3, rounds: quick ? 1 : 10, share: 0.5 } as const;

/** Peak resident memory of a process (VmHWM), in MiB. */
export function peakRssMb(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** Load settings of one autocannon run. */
export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Different bodies per request, handed out in turn from one cursor that continues across runs. */
  bodies?: string[];
  connections: number;
  durationSec: number;
}

/** The figures of one load run. */
export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  seconds: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  failed: number;
}

const cursors = new WeakMap<readonly string[], { next: number }>();

/**
 * Drives HTTP load from this process (loopback only). Bodies come from one shared cursor: autocannon's
 * own `requests` list is walked by every connection from its start, so 100 connections would only
 * ever send the first few hundred bodies of a list of 10,000.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(options.url)) throw new Error("load tests only target 127.0.0.1");
  const { bodies } = options;
  const cursor = bodies ? (cursors.get(bodies) ?? { next: 0 }) : { next: 0 };
  if (bodies) cursors.set(bodies, cursor);
  const nextBody = () => {
    const list = bodies as string[];
    const body = list[cursor.next] as string;
    cursor.next = (cursor.next + 1) % list.length;
    return body;
  };
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.durationSec,
    ...(bodies ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: nextBody() }) }] } : {}),
  });
  return {
    // Completed requests over the run's own elapsed time: one-second rounds have too few per-second samples.
    requestsPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    seconds: result.duration,
    failed: result.non2xx + result.errors,
  };
}

/** Median of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs each side once per round, in the order given (B S B S ... for `{ baseline, subject }`), so a
 * noisy neighbour on this shared machine hits every side alike; returns each side's results in round order.
 */
export async function rotate<K extends string, T>(rounds: number, sides: Record<K, () => Promise<T>>): Promise<Record<K, T[]>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as T[]])) as Record<K, T[]>;
  for (let i = 0; i < rounds; i++) for (const n of names) out[n].push(await sides[n]());
  return out;
}

/**
 * The headline ratio of alternating runs: each subject figure over the baseline figure measured just
 * before it, as a geometric mean after dropping the highest and lowest tenth of the rounds. Pairing
 * neighbours cancels load that drifts over a run.
 */
export function pairedRatio(baseline: readonly number[], subject: readonly number[]): number {
  if (baseline.length !== subject.length || baseline.length === 0) throw new Error("pairedRatio needs as many baseline as subject figures, at least one");
  const logs = subject.map((s, i) => Math.log(s / (baseline[i] as number))).sort((a, b) => a - b);
  const cut = Math.floor(logs.length * 0.1);
  const kept = logs.slice(cut, logs.length - cut);
  return Math.exp(kept.reduce((a, b) => a + b, 0) / kept.length);
}

/** Starts a node script as a child process and resolves once it prints `ready <port>`. */
export function startChild(script: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Prints the result as the last line of stdout for bench/run.mjs. */
export function emit(result: BenchResult): void {
  process.stdout.write(`\nBENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** Runs a benchmark's main and exits 1 with the error's stack when it fails. */
export function main(fn: () => Promise<void>): void {
  fn().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
