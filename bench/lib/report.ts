// Helpers for writing the benchmark's report: how a figure is printed, how a run's record is kept
// and merged, and how a generated section of docs/performance.md is replaced.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeShares, type MachineShares } from "./machine-time";
import type { BenchResult } from "./measure";

/** Which way a printed figure is rounded. */
export type Rounding = "nearest" | "down" | "up";

/**
 * A figure as the report prints it: whole numbers with separators from 100 up, three significant
 * digits below; rounded to the nearest unless told otherwise (see roundingFor).
 */
export function formatNumber(n: number | undefined | null, rounding: Rounding = "nearest"): string {
  if (n === undefined || n === null) return "";
  if (rounding === "nearest") return Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en") : Number(n.toPrecision(3)).toString();
  const round = rounding === "down" ? Math.floor : Math.ceil;
  if (Math.abs(n) >= 100) return round(n).toLocaleString("en");
  if (n === 0) return "0";
  const scale = 10 ** (2 - Math.floor(Math.log10(Math.abs(n))));
  // toPrecision(12) drops the binary noise of the multiplication (0.6 * 1000 = 600.0000000000001).
  return Number((round(Number((n * scale).toPrecision(12))) / scale).toPrecision(3)).toString();
}

/**
 * How to round a figure that missed its target, so that the report never prints it as meeting the
 * target (0.59967x printed as "0.6x" beside ">= 0.60 x baseline" and "no"): down under an at-least
 * target, up under an at-most one; a figure that met its target, or has none, to the nearest.
 */
export function roundingFor(figure: { met?: boolean; target?: string }): Rounding {
  if (figure.met !== false || !figure.target) return "nearest";
  if (figure.target.startsWith(">=")) return "down";
  if (figure.target.startsWith("<=")) return "up";
  return "nearest";
}

/** The smallest and largest of `values` as `lo-hi`, each printed by `format`; one value when both print alike. */
export function formatRange(values: readonly number[], format: (n: number) => string): string {
  const [lo, hi] = [format(Math.min(...values)), format(Math.max(...values))];
  return lo === hi ? lo : `${lo}-${hi}`;
}

/** Whether the document has both markers of the named generated section. */
export function hasSection(doc: string, name: string): boolean {
  const i = doc.indexOf(`<!-- bench:${name}:start -->`);
  return i >= 0 && doc.indexOf(`<!-- bench:${name}:end -->`) > i;
}

/** Replaces what stands between `<!-- bench:NAME:start -->` and its end marker; the document unchanged when they are missing. */
export function replaceSection(doc: string, name: string, body: string): string {
  if (!hasSection(doc, name)) return doc;
  const start = `<!-- bench:${name}:start -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(`<!-- bench:${name}:end -->`);
  return `${doc.slice(0, i + start.length)}\n${body}\n${doc.slice(j)}`;
}

/** One path's result in a run's record (the rest of it as the benchmark printed it). */
export interface PathResult {
  path: string;
  measuredAt?: string;
}

/** What `npm run bench` keeps of a run in bench/results: when, in which mode, and each path's result. */
export interface RunRecord<R extends PathResult = PathResult> {
  startedAt: string;
  quick: boolean;
  results: R[];
  [key: string]: unknown;
}

/** The machine a run describes itself by (bench/run.mjs). */
export interface MachineDescription {
  cpu: string;
  cores: number;
  boot?: string;
  memoryGiB: number;
  node: string;
  loadAverageAtStart: string;
}

/** A path's result as a run's record holds it: what its benchmark printed, or why it has none. */
export type ReportedPath = PathResult &
  Partial<BenchResult> & {
    missing?: boolean;
    failed?: string;
    /** How the machine's CPUs spent the benchmark; absent in results recorded before it was measured. */
    machineTime?: MachineShares | null;
  };

/** The run's report in Markdown: the machine, then per path its figures, peak RSS, machine time and notes. */
export function runMarkdown(run: { startedAt: string; quick: boolean; machine: MachineDescription; results: readonly ReportedPath[] }): string {
  const { machine } = run;
  const lines = [
    `Run ${run.startedAt}${run.quick ? " (quick mode: short runs, figures are rough)" : ""} on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB${machine.boot ? ` (boot ${machine.boot})` : ""}, Node ${machine.node}; load average at start ${machine.loadAverageAtStart}.`,
    "",
  ];
  for (const r of run.results) {
    lines.push(`### ${r.path}`, "", ...(r.measuredAt ? [`Measured ${r.measuredAt}.`, ""] : []));
    if (r.missing) {
      lines.push("No benchmark script yet.", "");
      continue;
    }
    if (r.failed) {
      lines.push(`The benchmark failed (${r.failed}); see the run's output.`, "");
      continue;
    }
    lines.push("| figure | value | baseline (same run) | ratio | target | met |", "|---|---:|---:|---:|---|---|");
    for (const f of r.figures ?? []) {
      const rounding = roundingFor(f);
      lines.push(
        `| ${f.name}${f.note ? ` (${f.note})` : ""} | ${formatNumber(f.value, rounding)} ${f.unit} | ${f.baseline === undefined ? "" : `${formatNumber(f.baseline)} ${f.unit}`} | ${f.ratio === undefined ? "" : `${formatNumber(f.ratio, rounding)}x`} | ${f.target ?? ""} | ${f.met === undefined ? "" : f.met ? "yes" : "**no**"} |`,
      );
    }
    lines.push("", `Peak RSS: ${(r.memory ?? []).map((m) => `${m.process} ${m.peakRssMb} MiB`).join(", ")}.`);
    // Results recorded before this was measured have no machineTime; they say nothing rather than "could not be read".
    if (r.machineTime !== undefined) lines.push("", `${describeShares(r.machineTime, "Over this benchmark")}.`);
    for (const n of r.notes ?? []) lines.push("", `- ${n}`);
    lines.push("");
  }
  return lines.join("\n");
}

/**
 * The file a run's record is kept in, without extension: a quick run keeps its own (quick.json), so
 * it never replaces the full record (latest.json) that the next `--only` run refreshes.
 */
export function recordFile(dir: string, quick: boolean): string {
  return path.join(dir, quick ? "quick" : "latest");
}

/** The last record of runs of this kind (quick or full) in `dir`, or null when there is none. */
export function loadRecord(dir: string, quick: boolean): RunRecord | null {
  const file = `${recordFile(dir, quick)}.json`;
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as RunRecord) : null;
}

/** Writes a run's record (JSON) and its report (Markdown) where `loadRecord` finds them. */
export function saveRecord(dir: string, record: RunRecord, markdown: string): void {
  writeFileSync(`${recordFile(dir, record.quick)}.json`, JSON.stringify(record, null, 2));
  writeFileSync(`${recordFile(dir, record.quick)}.md`, markdown);
}

/**
 * The results a report shows after measuring `measured`: those, and for every other path of `order`
 * its result from the previous record of the same kind (an `--only` run refreshes some paths and
 * keeps the others), in `order`.
 */
export function mergeResults<R extends PathResult>(previous: RunRecord | null, measured: R[], quick: boolean, order: readonly string[]): R[] {
  if (!previous || previous.quick !== quick) return measured;
  return order
    .map((p) => measured.find((r) => r.path === p) ?? (previous.results.find((r) => r.path === p) as R | undefined))
    .filter((r): r is R => r !== undefined);
}
