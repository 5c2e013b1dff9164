// Shared measurement helpers: HTTP load from this process with autocannon against apps in their own
// processes on 127.0.0.1, alternating rounds and their paired ratio, peak RSS from /proc, and the
// result record every benchmark prints.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { printResult } from "./child";
import { type PacedOptions, type PacedResult, pacedLoadProcess } from "./paced-load";

export { main, startChild } from "./child";

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

/** A figure's value, baseline and ratio from alternating rounds: both sides' medians and the paired ratio. */
export function versus(baseline: readonly number[], subject: readonly number[]): { value: number; baseline: number; ratio: number } {
  return { value: median(subject), baseline: median(baseline), ratio: pairedRatio(baseline, subject) };
}

/** Requests per second of each load run. */
export const rps = (runs: readonly LoadResult[]) => runs.map((r) => r.requestsPerSec);

/**
 * The latency target: alternating paced rounds against the baseline's and the subject's URL at one fixed offered rate,
 * `PACED.share` of the baseline's saturation rate; the p99 figure (<= 20 ms) and every round.
 */
export async function p99AtFixedRate(
  what: string,
  baselineRate: number,
  urls: { baseline: string; subject: string },
  options: Omit<PacedOptions, "url" | "rate" | "durationSec">,
): Promise<{ figure: Figure; runs: Record<"baseline" | "subject", PacedResult[]> }> {
  const rate = Math.max(1, Math.round(baselineRate * PACED.share));
  const paced = (url: string) => () => pacedLoadProcess({ ...options, url, rate, durationSec: PACED.durationSec });
  const runs = await rotate(PACED.rounds, { baseline: paced(urls.baseline), subject: paced(urls.subject) });
  const value = median(runs.subject.map((r) => r.p99Ms));
  const baseline = median(runs.baseline.map((r) => r.p99Ms));
  return {
    figure: { name: `${what} p99 at a fixed ${rate.toLocaleString("en")} req/s`, unit: "ms", value, baseline, target: "<= 20 ms", met: value <= 20 },
    runs,
  };
}

/** Prints the result as the last line of stdout for bench/run.mjs. */
export function emit(result: BenchResult): void {
  printResult("BENCH_RESULT", result);
}
