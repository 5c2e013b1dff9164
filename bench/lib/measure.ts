// Shared measurement helpers: load from this process with autocannon against apps in their own
// processes on 127.0.0.1, peak RSS from /proc, and the result record every benchmark prints.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** One measured figure beside its baseline from the same run. */
export interface Figure {
  name: string;
  unit: string;
  value: number;
  baseline?: number;
  /** value / baseline (or baseline / value for costs such as latency), the headline. */
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
}

/** Peak resident memory of a process (VmHWM), in MiB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Load settings of one autocannon run. */
export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Different bodies per request, cycled (autocannon `requests`). */
  bodies?: string[];
  /** Different paths per request, cycled (autocannon `requests`). */
  paths?: string[];
  connections: number;
  durationSec: number;
  pipelining?: number;
}

/** The figures of one load run. */
export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Answers by HTTP status code. */
  statusCodes: Record<string, number>;
}

/** Drives HTTP load from this process (loopback only) and returns throughput and latency. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (target.hostname !== "127.0.0.1" && target.hostname !== "localhost") throw new Error("load tests only target 127.0.0.1");
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.durationSec,
    pipelining: options.pipelining ?? 1,
    ...(options.bodies ? { requests: options.bodies.map((body) => ({ body })) } : {}),
    ...(options.paths ? { requests: options.paths.map((path) => ({ path })) } : {}),
  });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0])),
  };
}

/** Median of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs `subject` and `baseline` alternately `rounds` times (B S B S ...) and keeps the medians, so a
 * noisy neighbour on this shared machine hits both sides alike.
 */
export async function alternate<T>(rounds: number, baseline: () => Promise<T>, subject: () => Promise<T>): Promise<{ baseline: T[]; subject: T[] }> {
  const out = { baseline: [] as T[], subject: [] as T[] };
  for (let i = 0; i < rounds; i++) {
    out.baseline.push(await baseline());
    out.subject.push(await subject());
  }
  return out;
}

/** Starts a node script as a child process and resolves once it prints `ready <port>`. */
export function startChild(script: string, args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const m = /ready (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
}

/** Prints the result as the last line of stdout for the orchestrator. */
export function emit(result: BenchResult): void {
  process.stdout.write(`\nBENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** Whether the run is the seconds-long smoke mode. */
export const quick = process.argv.includes("--quick");
