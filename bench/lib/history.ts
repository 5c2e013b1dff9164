// The benchmark's memory of its own full runs: every non-quick run appends each path's ratios (and their
// two sides) to bench/history.jsonl (committed beside docs/performance.md), and the report's repeatability
// section is computed from that file, so "two runs give the same ratios" is something the report
// shows rather than something written into it by hand.
import { formatNumber, type PathResult as RecordedPath } from "./report";

/**
 * The machine a run was measured on. Machines of one kind can report the same CPU and run at
 * different speeds, so where a run knows its machine's boot only runs of that boot are compared;
 * otherwise runs on the same kind of machine are.
 */
export interface MachineKey {
  cpu: string;
  cores: number;
  /** A hash of the kernel's boot id: one boot of one machine. Absent in entries older than it. */
  boot?: string;
}

/** One path's figures from one full run, as one line of bench/history.jsonl. */
export interface HistoryEntry {
  path: string;
  measuredAt: string;
  /** The commit measured (short hash, "+dirty" when the tree had changes). */
  commit: string;
  machine: MachineKey;
  /** How the path measured its ratios (BenchResult.method); absent in entries of method 1. */
  method?: number;
  /** Each figure that stands beside a baseline: its ratio, the headline. */
  ratios: Record<string, number>;
  /**
   * The two sides of each ratio (the figure's value and its baseline's), so that a ratio that moved
   * between runs can be told apart into how each side moved. Absent in entries older than it.
   */
  sides?: Record<string, Sides>;
}

/** A figure's value and its baseline's in one run. */
export interface Sides {
  value: number;
  baseline: number;
}

/** A benchmark's result as bench/run.mjs holds it (only what the history needs). */
export interface PathResult extends RecordedPath {
  method?: number;
  figures?: { name: string; ratio?: number; value?: number; baseline?: number }[];
  missing?: boolean;
  failed?: string;
  invalid?: string;
}

/**
 * The entry a path's result adds to the history, or null when it measured nothing or its benchmark
 * said its figures are not valid (so the repeatability table never compares such a run).
 */
export function historyEntry(result: PathResult, measuredAt: string, commit: string, machine: MachineKey): HistoryEntry | null {
  if (result.missing || result.failed || result.invalid || !result.figures) return null;
  const ratios: Record<string, number> = {};
  const sides: Record<string, Sides> = {};
  for (const f of result.figures) {
    if (!finite(f.ratio)) continue;
    ratios[f.name] = f.ratio;
    if (finite(f.value) && finite(f.baseline)) sides[f.name] = { value: f.value, baseline: f.baseline };
  }
  if (Object.keys(ratios).length === 0) return null;
  const key: MachineKey = { cpu: machine.cpu, cores: machine.cores };
  if (machine.boot !== undefined) key.boot = machine.boot;
  const entry: HistoryEntry = { path: result.path, measuredAt, commit, machine: key, ratios };
  if (result.method !== undefined && result.method !== 1) entry.method = result.method;
  if (Object.keys(sides).length > 0) entry.sides = sides;
  return entry;
}

const finite = (x: number | undefined): x is number => typeof x === "number" && Number.isFinite(x);

/** Parses bench/history.jsonl; a line that is not an entry is an error naming its line number. */
export function parseHistory(text: string): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new Error(`bench/history.jsonl line ${i + 1} is not JSON`);
    }
    const e = entry as Partial<HistoryEntry>;
    if (typeof e.path !== "string" || typeof e.measuredAt !== "string" || typeof e.ratios !== "object" || !e.machine) {
      throw new Error(`bench/history.jsonl line ${i + 1} is not a history entry (path, measuredAt, machine and ratios are required)`);
    }
    const bad = e.sides === undefined ? undefined : malformedSides(e.sides);
    if (bad !== undefined) throw new Error(`bench/history.jsonl line ${i + 1}: ${bad}`);
    out.push(e as HistoryEntry);
  });
  return out;
}

/** What is wrong with an entry's recorded sides (a hand-edited line), if anything. */
function malformedSides(sides: unknown): string | undefined {
  if (typeof sides !== "object" || sides === null || Array.isArray(sides)) return "sides must be an object with one entry per figure";
  for (const [name, side] of Object.entries(sides)) {
    const s = side as Partial<Sides> | null;
    if (typeof s !== "object" || s === null || !finite(s.value) || !finite(s.baseline)) return `sides.${name} needs a finite value and baseline`;
  }
  return undefined;
}

/** How far apart two or more ratios are: largest / smallest (1 when they agree). */
export function spread(values: readonly number[]): number {
  return Math.max(...values) / Math.min(...values);
}

const pct = (s: number) => `${((s - 1) * 100).toFixed(1)}%`;
/** A change from one run to the next (later / earlier) with its direction: +9.8%, -3.0%. */
const change = (f: number) => `${f >= 1 ? "+" : "-"}${(Math.abs(f - 1) * 100).toFixed(1)}%`;

/** What the repeatability section says. */
export interface Repeatability {
  markdown: string;
  /** Figures whose last two runs on this machine differ by more than the tolerance. */
  moved: Moved[];
}

/** A figure whose ratio moved by more than the tolerance between the last two runs. */
export interface Moved {
  path: string;
  figure: string;
  /** largest / smallest of the two ratios. */
  spread: number;
  /** How each side changed from the earlier run to the later (later / earlier), where both runs recorded their sides. */
  sides?: Sides;
}

function describeMove(m: Moved): string {
  // Which side moved, and which way, tells a change in the code from a machine running faster or slower.
  const sides = m.sides ? `; from the run before, the figure ${change(m.sides.value)} and its baseline ${change(m.sides.baseline)}` : "";
  return `${m.path} "${m.figure}" (${pct(m.spread)}${sides})`;
}

const methodOf = (e: HistoryEntry) => e.method ?? 1;

/**
 * The repeatability section: for each path, its last `runs` full runs on `machine` (this boot of
 * it when `machine.boot` is known, else this kind of machine) measured the way its newest run was
 * (earlier methods are counted, not compared) side by side, each ratio's spread over them and
 * between the last two, and the figures whose last two runs differ by more than `tolerance` (1.05 = 5%).
 */
export function repeatability(history: readonly HistoryEntry[], machine: MachineKey, runs = 3, tolerance = 1.05): Repeatability {
  const lines: string[] = [];
  const moved: Repeatability["moved"] = [];
  // Whether any path has two runs to compare; with one run each there is nothing to say about moves.
  let compared = false;
  const kind = history.filter((e) => e.machine.cpu === machine.cpu && e.machine.cores === machine.cores);
  const same = machine.boot === undefined ? kind : kind.filter((e) => e.machine.boot === machine.boot);
  const where = machine.boot === undefined ? "this kind of machine" : "this machine";
  const elsewhere = kind.length - same.length;
  const notCompared =
    elsewhere > 0 ? `; ${elsewhere} path result(s) of this kind of machine from other boots, or from before boots were recorded, are not compared` : "";
  const paths = [...new Set(same.map((e) => e.path))];
  if (paths.length === 0) {
    return { markdown: `No full run on ${where} is recorded in bench/history.jsonl yet${notCompared}.`, moved };
  }
  lines.push(
    `The last ${runs} full runs of each path on ${where} (${machine.cpu}, ${machine.cores} cores${machine.boot === undefined ? "" : `, boot ${machine.boot}`}), from bench/history.jsonl${notCompared}. ` +
      `"last two" is how far the two most recent runs are apart (largest / smallest - 1); more than ${pct(tolerance)} is flagged.`,
    "",
  );
  for (const p of paths) {
    const all = same.filter((e) => e.path === p).sort((a, b) => a.measuredAt.localeCompare(b.measuredAt));
    const method = methodOf(all[all.length - 1] as HistoryEntry);
    const entries = all.filter((e) => methodOf(e) === method).slice(-runs);
    const older = all.filter((e) => methodOf(e) !== method).length;
    if (entries.length >= 2) compared = true;
    const names = [...new Set(entries.flatMap((e) => Object.keys(e.ratios)))];
    lines.push(`#### ${p}`, "");
    if (older > 0) {
      lines.push(`Measured with method ${method}; ${older} earlier run(s) measured another way are not compared.`, "");
    }
    lines.push(
      `| figure (ratio to its baseline) | ${entries.map((e) => `${e.measuredAt.slice(0, 16).replace("T", " ")} (${e.commit})`).join(" | ")} | all runs | last two |`,
    );
    lines.push(`|---|${entries.map(() => "---:").join("|")}|---:|---:|`);
    for (const name of names) {
      const values = entries.map((e) => e.ratios[name]);
      const present = values.filter((v): v is number => v !== undefined);
      const lastTwo = values.slice(-2).filter((v): v is number => v !== undefined);
      const overAll = present.length >= 2 ? pct(spread(present)) : "";
      let last = "";
      if (lastTwo.length === 2) {
        const s = spread(lastTwo);
        last = s > tolerance ? `**${pct(s)}**` : pct(s);
        if (s > tolerance) {
          const [before, after] = entries.slice(-2).map((e) => e.sides?.[name]);
          const sides = before && after ? { sides: { value: after.value / before.value, baseline: after.baseline / before.baseline } } : {};
          moved.push({ path: p, figure: name, spread: s, ...sides });
        }
      }
      lines.push(`| ${name} | ${values.map((v) => (v === undefined ? "" : `${formatNumber(v)}x`)).join(" | ")} | ${overAll} | ${last} |`);
    }
    lines.push("");
  }
  lines.push(
    !compared
      ? `Each path has one full run measured this way recorded on ${where}; the next full run is compared with it.`
      : moved.length === 0
        ? `Every ratio of the last two runs is within ${pct(tolerance)} of the run before.`
        : `Moved more than ${pct(tolerance)} between the last two runs: ${moved.map(describeMove).join("; ")}.`,
  );
  return { markdown: lines.join("\n"), moved };
}
