// The chaos suite's figures: events, faults by kind, recovery times and crashes, as JSON and as the Markdown table docs/operations.md shows.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "@pointwise/testkit";
import type { Crash } from "./cluster";
import type { FaultKind, FaultRecord } from "./faults";
import type { TrafficBook } from "./traffic";

/** Everything one run measured. */
export interface ChaosFigures {
  machine: { cpu: string; cores: number; memoryGiB: number; node: string };
  durationS: number;
  chaosS: number;
  events: {
    sent: number;
    acknowledged: number;
    /** Refused events of plain requests by code. */
    refusedByCode: Record<string, number>;
    /** Events told bus-unavailable (or not answered) that the log holds all the same. */
    storedDespiteRefusal: number;
    keyedRequests: number;
    keyedRetries: number;
    keyedRefusalsByCode: Record<string, number>;
    logged: number;
  };
  reads: Record<string, number>;
  faults: FaultRecord[];
  crashes: Crash[];
  /** The first body of each 5xx answer kind of read-api and admin-api. */
  samples: Record<string, string>;
  problems: string[];
}

/** The machine the run is on, for the figures' caption. */
export function machine(): ChaosFigures["machine"] {
  return { cpu: os.cpus()[0]?.model ?? "unknown", cores: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.versions.node };
}

/** A Map of counts as a sorted plain object. */
export function counts(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)));
}

/** The event figures of a traffic book. */
export function eventFigures(book: TrafficBook, storedDespiteRefusal: number, logged: number): ChaosFigures["events"] {
  return {
    sent: book.sent,
    acknowledged: book.acked.size,
    refusedByCode: counts(book.refusedByCode),
    storedDespiteRefusal,
    keyedRequests: book.keyedRequests,
    keyedRetries: book.keyedRetries,
    keyedRefusalsByCode: counts(book.keyedRefusalsByCode),
    logged,
  };
}

const KIND_TEXT: Record<FaultKind, string> = {
  "worker-kill": "SIGKILL of one scoring-worker replica, started again at once",
  "pg-terminate": "`pg_terminate_backend` of every backend of the named apps, every 0.2 s for 1.5 s",
  "nats-outage": "the suite's NATS server stopped for 2 s, then started again",
  "redis-outage": "the Redis proxy of every app closed (connections cut, new ones refused) for 2 s",
};

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

const secs = (ms: number | null | undefined) => (ms === null || ms === undefined ? "never" : `${(ms / 1000).toFixed(1)} s`);

/** The slowest member's readiness time after a fault (null when one never became ready). */
function slowestReady(f: FaultRecord): number | null {
  const values = Object.values(f.readyMs);
  return values.some((v) => v === null) ? null : Math.max(0, ...(values as number[]));
}

/** The Markdown the docs show: the run's caption, events, a table by fault kind and one row per fault. */
export function toMarkdown(fig: ChaosFigures): string {
  const e = fig.events;
  const lines: string[] = [];
  lines.push(
    `Run on ${fig.machine.cpu}, ${fig.machine.cores} cores, ${fig.machine.memoryGiB} GiB, Node.js ${fig.machine.node}: ` +
      `${fig.durationS} s in all, ${fig.chaosS} s of faults under load.`,
    "",
    "| Events | Count |",
    "|---|---|",
    `| sent | ${e.sent} |`,
    `| acknowledged (\`data\`) | ${e.acknowledged} |`,
    ...Object.entries(e.refusedByCode).map(([code, n]) => `| refused \`${code}\` (plain requests) | ${n} |`),
    `| refused yet stored (a lost acknowledgement) | ${e.storedDespiteRefusal} |`,
    `| keyed requests / retries until acknowledged | ${e.keyedRequests} / ${e.keyedRetries} |`,
    `| in the event log at the end | ${e.logged} |`,
    "",
    "| Fault | Injected | Ready again, slowest app: median / max | Scores caught up: median / max |",
    "|---|---|---|---|",
  );
  for (const kind of Object.keys(KIND_TEXT) as FaultKind[]) {
    const of = fig.faults.filter((f) => f.kind === kind);
    if (of.length === 0) continue;
    const ready = of.map(slowestReady);
    const caught = of.map((f) => f.catchUpMs ?? null);
    const readyText = ready.some((v) => v === null)
      ? `never (${ready.filter((v) => v === null).length} of ${of.length})`
      : `${secs(median(ready as number[]))} / ${secs(Math.max(...(ready as number[])))}`;
    const caughtText = caught.some((v) => v === null)
      ? `never (${caught.filter((v) => v === null).length} of ${of.length})`
      : `${secs(median(caught as number[]))} / ${secs(Math.max(...(caught as number[])))}`;
    lines.push(`| ${kind}: ${KIND_TEXT[kind]} | ${of.length} | ${readyText} | ${caughtText} |`);
  }
  lines.push("", "| # | Fault | Targets | Backends terminated | Ready again (slowest) | Caught up |", "|---|---|---|---|---|---|");
  for (const f of fig.faults) {
    lines.push(`| ${f.n} | ${f.kind} | ${f.targets.join(", ")} | ${f.backends ?? ""} | ${secs(slowestReady(f))} | ${secs(f.catchUpMs)} |`);
  }
  lines.push("", `Unexpected process exits: ${fig.crashes.length === 0 ? "none" : fig.crashes.map((c) => `${c.member} (${c.during})`).join("; ")}.`);
  return `${lines.join("\n")}\n`;
}

/** Replaces test-artifacts/chaos/ with report.json, report.md and the crashed processes' logs; returns the Markdown. */
export function writeReport(fig: ChaosFigures): string {
  const dir = path.join(repoRoot, "test-artifacts", "chaos");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Whole outputs of crashed processes go to files of their own; the JSON names them.
  const crashes = fig.crashes.map(({ output, ...c }, i) => {
    const file = `crash-${i + 1}-${c.member}.log`;
    writeFileSync(path.join(dir, file), output);
    return { ...c, file };
  });
  writeFileSync(path.join(dir, "report.json"), `${JSON.stringify({ ...fig, crashes }, null, 2)}\n`);
  const md = toMarkdown(fig);
  writeFileSync(path.join(dir, "report.md"), md);
  return md;
}
