// The benchmark's report: how a figure is printed, the Markdown of a run, and the generated section
// of docs/performance.md it replaces.
import type { BenchResult, Figure } from "./measure";

/** The machine a run describes itself by (bench/run.mjs). */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
}

/** A path's result as a run's record holds it: what its benchmark printed, or why it printed nothing. */
export type PathResult = Partial<BenchResult> & { path: string; failed?: string };

/**
 * A figure as the report prints it: whole numbers with separators from 100 up, three significant
 * digits below; a missed figure rounds away from its target, so it never prints as meeting it.
 */
export function formatNumber(n: number | undefined, figure: Pick<Figure, "met" | "target"> = {}): string {
  if (n === undefined || !Number.isFinite(n)) return "";
  const away = figure.met === false && figure.target ? (figure.target.startsWith(">=") ? Math.floor : Math.ceil) : Math.round;
  if (Math.abs(n) >= 100) return away(n).toLocaleString("en");
  if (n === 0) return "0";
  const scale = 10 ** (2 - Math.floor(Math.log10(Math.abs(n))));
  // toPrecision(12) drops the binary noise of the multiplication (0.6 * 1000 = 600.0000000000001).
  return Number((away(Number((n * scale).toPrecision(12))) / scale).toPrecision(3)).toString();
}

/** The run's report in Markdown: the machine, a table per path, peak RSS, notes, and every missed target with what bounds it. */
export function runMarkdown(run: { startedAt: string; quick: boolean; machine: Machine; results: readonly PathResult[] }): string {
  const { machine } = run;
  const lines = [
    `Run ${run.startedAt.slice(0, 16).replace("T", " ")} UTC${run.quick ? " (quick: short runs, rough figures)" : ""} on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}.`,
    "",
  ];
  const missed: string[] = [];
  for (const r of run.results) {
    lines.push(`### ${r.path}`, "");
    if (r.failed) {
      lines.push(`The benchmark failed (${r.failed}); see the run's output.`, "");
      missed.push(`${r.path}: the benchmark failed`);
      continue;
    }
    lines.push("| figure | value | baseline (same run) | ratio | target | met |", "|---|---:|---:|---:|---|---|");
    for (const f of r.figures ?? []) {
      const ratio = f.ratio === undefined ? "" : `${formatNumber(f.ratio, f.target?.includes("x") ? f : {})}x`;
      const baseline = f.baseline === undefined ? "" : `${formatNumber(f.baseline)} ${f.unit}`;
      const met = f.met === undefined ? "" : f.met ? "yes" : "**no**";
      lines.push(`| ${f.name}${f.note ? ` (${f.note})` : ""} | ${formatNumber(f.value, f)} ${f.unit} | ${baseline} | ${ratio} | ${f.target ?? ""} | ${met} |`);
      if (f.met === false) missed.push(`${r.path}: ${f.name} missed ${f.target}`);
    }
    lines.push("", `Peak RSS: ${(r.memory ?? []).map((m) => `${m.process} ${m.peakRssMb} MiB`).join(", ")}.`, "");
    for (const n of r.notes ?? []) lines.push(`- ${n}`);
    if (r.figures?.some((f) => f.met === false)) for (const b of r.bounds ?? []) missed.push(`${r.path}, what bounds it: ${b}`);
    lines.push("");
  }
  if (missed.length) lines.push("### Missed targets", "", ...missed.map((m) => `- ${m}`), "");
  return lines.join("\n");
}

/** Replaces what stands between `<!-- bench:NAME:start -->` and its end marker; null when the markers are missing. */
export function replaceSection(doc: string, name: string, body: string): string | null {
  const start = `<!-- bench:${name}:start -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(`<!-- bench:${name}:end -->`);
  return i < 0 || j < i ? null : `${doc.slice(0, i + start.length)}\n${body}\n${doc.slice(j)}`;
}
