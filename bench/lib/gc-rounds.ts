// Which of a benchmark's timed rounds an app's garbage collections fell in, from the log that
// bench/lib/gc-observer.cjs writes inside the app. A latency target judged on the median of rounds'
// p99s can be decided by the rounds in which the app paused to collect garbage; this says, in every
// run, how the rounds' p99s went with their collections: with a full one or without, and with more
// pause time in all or less.
import { median } from "./measure";
import { formatRange } from "./report";

/** One garbage collection: wall-clock start (ms since the epoch), main-thread pause (ms), perf_hooks kind. */
export interface GcEvent {
  at: number;
  ms: number;
  kind: number;
}

/** A timed round: when it ran (ms since the epoch) and the p99 it measured. */
export interface TimedRound {
  start: number;
  end: number;
  p99Ms: number;
}

/** perf_hooks' kinds: a young-generation collection (scavenge) and a full mark-compact. */
export const GC_YOUNG = 1;
export const GC_FULL = 4;

/** The collections of one round. */
export interface RoundGc {
  p99Ms: number;
  full: number;
  fullMaxMs: number;
  young: number;
  youngMaxMs: number;
  /** Every pause of the round added up (incremental marking steps and weak callbacks included). */
  pauseMs: number;
}

/** Parses the observer's log (one JSON object a line); a line that is not one is named in the error. */
export function parseGcLog(text: string): GcEvent[] {
  const events: GcEvent[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`garbage-collection log line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const e = value as Partial<GcEvent>;
    if (![e.at, e.ms, e.kind].every((n) => typeof n === "number" && Number.isFinite(n))) {
      throw new Error(`garbage-collection log line ${i + 1} needs numeric at, ms and kind: ${line.slice(0, 80)}`);
    }
    events.push(e as GcEvent);
  }
  return events;
}

/** The collections that started within each round. */
export function gcPerRound(rounds: readonly TimedRound[], events: readonly GcEvent[]): RoundGc[] {
  return rounds.map((r) => {
    const inRound = events.filter((e) => e.at >= r.start && e.at < r.end);
    const full = inRound.filter((e) => e.kind === GC_FULL);
    const young = inRound.filter((e) => e.kind === GC_YOUNG);
    return {
      p99Ms: r.p99Ms,
      full: full.length,
      fullMaxMs: Math.max(0, ...full.map((e) => e.ms)),
      young: young.length,
      youngMaxMs: Math.max(0, ...young.map((e) => e.ms)),
      pauseMs: inRound.reduce((sum, e) => sum + e.ms, 0),
    };
  });
}

const ms = (n: number) => n.toFixed(1);
const spread = (xs: number[]) =>
  xs.length === 1 ? `${ms(xs[0] as number)} ms` : `${ms(Math.min(...xs))}-${ms(Math.max(...xs))} ms (median ${ms(median(xs))})`;

/**
 * The p99s of the rounds with a full collection beside those of the rounds without one, the pauses,
 * and the p99s of the half of the rounds that paused longest in all beside the other half's (where
 * every round has a full collection, only the second comparison tells the rounds apart).
 */
export function describeGcRounds(app: string, per: readonly RoundGc[]): string {
  if (per.length === 0) return `no rounds of ${app} to compare with its garbage collections`;
  const withFull = per.filter((r) => r.full > 0);
  const youngOnly = per.filter((r) => r.full === 0);
  const group = (rs: readonly RoundGc[], what: string) =>
    rs.length === 0 ? `none ${what}` : `${rs.length} ${what}, ${rs.length === 1 ? "its p99" : "their p99s"} ${spread(rs.map((r) => r.p99Ms))}`;
  const fullPauses = withFull.map((r) => r.fullMaxMs);
  const youngCounts = per.map((r) => r.young);
  return (
    `${app}'s garbage collections in its ${per.length} fixed-rate ${per.length === 1 ? "round" : "rounds"} (bench/lib/gc-observer.cjs): ` +
    `${group(withFull, "had a full (mark-compact) collection")}; ${group(youngOnly, "had young-generation collections only")}. ` +
    (withFull.length > 0 ? `The longest full pause in a round was ${formatRange(fullPauses, ms)} ms; each` : "Each") +
    ` round had ${formatRange(youngCounts, String)} young collections, the longest pausing ${ms(Math.max(...per.map((r) => r.youngMaxMs)))} ms` +
    byPauseTime(per)
  );
}

// The half of the rounds that paused longest in all beside the other half (nothing for one round).
function byPauseTime(per: readonly RoundGc[]): string {
  const half = Math.floor(per.length / 2);
  if (half === 0) return "";
  const sorted = [...per].sort((a, b) => b.pauseMs - a.pauseMs);
  const longer = sorted.slice(0, half).map((r) => r.p99Ms);
  const shorter = sorted.slice(half).map((r) => r.p99Ms);
  const paused = formatRange(
    per.map((r) => r.pauseMs),
    ms,
  );
  return `. In all, the rounds paused ${paused} ms for collections; the ${longer.length} that paused longest had ${longer.length === 1 ? "a p99 of" : "p99s"} ${spread(longer)}, the other ${shorter.length} ${spread(shorter)}`;
}
