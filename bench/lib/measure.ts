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
  /** The per-round ratios the headline ratio was computed from, where the sides alternated. */
  rounds?: number[];
  target?: string;
  met?: boolean;
  note?: string;
}

/** What each benchmark prints as its last line (JSON). */
export interface BenchResult {
  path: string;
  /**
   * Which way the path's ratios are measured; bumped when that changes, so the repeatability section
   * compares only runs measured the same way (absent: 1).
   */
  method?: number;
  figures: Figure[];
  memory: { process: string; peakRssMb: number }[];
  notes: string[];
  /** Why this run's figures are not valid (its load could not be applied as planned); reported, kept out of the history. */
  invalid?: string;
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
  /** How long the run took, start to last answer, in seconds. */
  seconds: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Answers by HTTP status code. */
  statusCodes: Record<string, number>;
}

// Where each list of bodies or paths has got to: the next load run over the same list goes on from there.
const cursors = new WeakMap<readonly string[], { next: number }>();

/** A function handing out the list's items in turn to every connection, continuing across runs. */
function cycle(items: readonly string[]): () => string {
  let cursor = cursors.get(items);
  if (!cursor) {
    cursor = { next: 0 };
    cursors.set(items, cursor);
  }
  const c = cursor;
  return () => {
    const item = items[c.next] as string;
    c.next = (c.next + 1) % items.length;
    return item;
  };
}

/**
 * Drives HTTP load from this process (loopback only) and returns throughput and latency.
 * `bodies` and `paths` are handed out from one shared cursor: autocannon's own `requests` list is
 * walked by every connection from its start, so 100 connections for a few seconds would only ever
 * send the first few hundred items of a list of 10,000.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (target.hostname !== "127.0.0.1" && target.hostname !== "localhost") throw new Error("load tests only target 127.0.0.1");
  const nextBody = options.bodies ? cycle(options.bodies) : undefined;
  const nextPath = options.paths ? cycle(options.paths) : undefined;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.durationSec,
    pipelining: options.pipelining ?? 1,
    ...(nextBody || nextPath
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({ ...req, ...(nextBody ? { body: nextBody() } : {}), ...(nextPath ? { path: nextPath() } : {}) }),
            },
          ],
        }
      : {}),
  });
  return {
    // Completed requests over the run's own elapsed time: with rounds of a second or two, autocannon's
    // per-second samples are too few to average.
    requestsPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    seconds: result.duration,
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
 * Runs each side once per round, in the order given (B S B S ... for `{ baseline, subject }`), so a
 * noisy neighbour on this shared machine hits every side alike; returns each side's results in round order.
 */
export async function rotate<K extends string, T>(rounds: number, sides: Record<K, () => Promise<T>>): Promise<Record<K, T[]>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as T[]])) as Record<K, T[]>;
  for (let i = 0; i < rounds; i++) for (const n of names) out[n].push(await sides[n]());
  return out;
}

/** Runs `baseline` and `subject` alternately `rounds` times (B S B S ...). */
export function alternate<T>(rounds: number, baseline: () => Promise<T>, subject: () => Promise<T>): Promise<{ baseline: T[]; subject: T[] }> {
  return rotate(rounds, { baseline, subject });
}

/** Share of rounds dropped at each end before averaging: a round hit by a burst elsewhere on the machine. */
const TRIM = 0.1;

/**
 * The headline ratio of alternating runs: each subject figure over the baseline figure measured just
 * before it, averaged over the rounds as a geometric mean after dropping the highest and lowest
 * tenth. Pairing neighbours cancels load that drifts over a run; a ratio on this shared machine
 * moves by about 13% from one round to the next, and the trimmed mean of many short rounds repeats
 * better than the median of a few long ones (the median uses only the middle of the rounds).
 */
export function pairedRatio(baseline: readonly number[], subject: readonly number[]): { ratio: number; rounds: number[] } {
  if (baseline.length !== subject.length || baseline.length === 0) throw new Error("pairedRatio needs as many baseline as subject figures, at least one");
  const rounds = subject.map((s, i) => s / (baseline[i] as number));
  const logs = rounds.map(Math.log).sort((a, b) => a - b);
  const cut = Math.floor(logs.length * TRIM);
  const kept = logs.slice(cut, logs.length - cut);
  return { ratio: Math.exp(kept.reduce((a, b) => a + b, 0) / kept.length), rounds };
}

/** Per-round figures (ratios, or a latency per round) as a note's text: how many, their range and the middle half. */
export function describeRounds(rounds: readonly number[]): string {
  const sorted = [...rounds].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(3);
  return `${rounds.length} rounds, ${at(0)}-${at(1)}, middle half ${at(0.25)}-${at(0.75)}`;
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

/**
 * Rounds of the saturation runs (ingest and read): many one-second rounds, not a few long ones. On
 * two shared cores the server, its services and the load generator compete, and a round's ratio
 * lands about 13% from the next one's whatever the round's length, so the number of rounds, not
 * their length, decides how well the ratio repeats (docs/performance.md#method). Profiles need a
 * longer stretch of load than a round.
 */
export const SATURATION = { durationSec: 1, rounds: quick ? 2 : 60, profileDurationSec: quick ? 2 : 5 } as const;
