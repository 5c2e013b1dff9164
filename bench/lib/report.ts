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

/** A run as bench/run.mjs records it. */
export interface RunRecord {
  startedAt: string;
  quick: boolean;
  machine: Machine;
  results: readonly PathResult[];
  /** The paths an `--only` run was limited to. */
  only?: readonly string[];
}

const pathMarker = (name: string) => `<!-- bench:path:${name} -->`;
/** How a section dated as a run of its own (an `--only` run's) begins, right under its heading. */
const DATED = "From a run of ";

function runLine(run: RunRecord): string {
  const { machine } = run;
  return `${run.startedAt.slice(0, 16).replace("T", " ")} UTC${run.quick ? " (quick: short runs, rough figures)" : ""} on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}.`;
}

/** One path's section: its marker, table, peak RSS, notes, and each missed target with what bounds it. */
function pathMarkdown(r: PathResult, alone: RunRecord | undefined): string[] {
  const lines = [pathMarker(r.path), `### ${r.path}`];
  if (alone) lines.push(`${DATED}\`npm run bench -- --only=${(alone.only ?? [r.path]).join(",")}\`, ${runLine(alone)}`, "");
  if (r.failed) return [...lines, `The benchmark failed (${r.failed}); see the run's output.`, ""];
  const missed: string[] = [];
  lines.push("| figure | value | baseline (same run) | ratio | target | met |", "|---|---:|---:|---:|---|---|");
  for (const f of r.figures ?? []) {
    const ratio = f.ratio === undefined ? "" : `${formatNumber(f.ratio, f.target?.includes("x") ? f : {})}x`;
    const baseline = f.baseline === undefined ? "" : `${formatNumber(f.baseline)} ${f.unit}`;
    const met = f.met === undefined ? "" : f.met ? "yes" : "**no**";
    lines.push(`| ${f.name}${f.note ? ` (${f.note})` : ""} | ${formatNumber(f.value, f)} ${f.unit} | ${baseline} | ${ratio} | ${f.target ?? ""} | ${met} |`);
    if (f.met === false) missed.push(`missed: ${f.name} (${f.target})`);
  }
  lines.push("", `Peak RSS: ${(r.memory ?? []).map((m) => `${m.process} ${m.peakRssMb} MiB`).join(", ")}.`, "");
  for (const n of r.notes ?? []) lines.push(`- ${n}`);
  if (missed.length > 0) for (const m of [...missed, ...(r.bounds ?? []).map((b) => `what bounds it: ${b}`)]) lines.push(`- ${m}`);
  lines.push("");
  return lines;
}

/** The run's report in Markdown: the machine, then a section per path (an `--only` run's sections say so). */
export function runMarkdown(run: RunRecord): string {
  const lines = run.only ? [] : [`Run ${runLine(run)}`, ""];
  for (const r of run.results) lines.push(...pathMarkdown(r, run.only ? run : undefined));
  return lines.join("\n");
}

/**
 * The results section with the paths of an `--only` run put in place of their earlier sections (each section runs
 * from its path marker to the next one); a path the section did not have yet is added at its end. The header of the
 * full run the section came from goes once every section is dated as a run of its own: it then dates no figure.
 */
export function mergePaths(section: string, run: RunRecord): string {
  let out = section.replace(/\n+$/, "");
  for (const r of run.results) {
    const body = pathMarkdown(r, run).join("\n").replace(/\n+$/, "");
    const i = out.indexOf(pathMarker(r.path));
    if (i < 0) {
      out = `${out}\n\n${body}`;
      continue;
    }
    const next = out.indexOf("<!-- bench:path:", i + 1);
    out = next < 0 ? `${out.slice(0, i)}${body}` : `${out.slice(0, i)}${body}\n\n${out.slice(next)}`;
  }
  const first = out.indexOf("<!-- bench:path:");
  const undated = out
    .split("<!-- bench:path:")
    .slice(1)
    .some((section) => !section.split("\n")[2]?.startsWith(DATED));
  return first > 0 && !undated ? out.slice(first) : out;
}

/** What stands between `<!-- bench:NAME:start -->` and its end marker, trimmed; null when the markers are missing. */
export function readSection(doc: string, name: string): string | null {
  const start = `<!-- bench:${name}:start -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(`<!-- bench:${name}:end -->`);
  return i < 0 || j < i ? null : doc.slice(i + start.length, j).trim();
}

/** Replaces what stands between `<!-- bench:NAME:start -->` and its end marker; null when the markers are missing. */
export function replaceSection(doc: string, name: string, body: string): string | null {
  const start = `<!-- bench:${name}:start -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(`<!-- bench:${name}:end -->`);
  return i < 0 || j < i ? null : `${doc.slice(0, i + start.length)}\n${body}\n${doc.slice(j)}`;
}
