// Helpers for writing the benchmark's report: how a figure is printed, how a run's record is kept
// and merged, and how a generated section of docs/performance.md is replaced.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A figure as the report prints it: whole numbers with separators from 100 up, three significant digits below. */
export function formatNumber(n: number | undefined | null): string {
  if (n === undefined || n === null) return "";
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en") : Number(n.toPrecision(3)).toString();
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
