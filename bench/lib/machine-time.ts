// How the machine's CPUs spent a stretch of time, from the kernel's counters in /proc/stat. On a
// virtual machine "steal" is time a CPU of ours was ready to run but the hypervisor ran someone
// else's; "iowait" is idle time with a disk read or write outstanding. Both move a benchmark's
// figures without anything in it changing, so each path reports them beside its figures.
import { readFileSync } from "node:fs";

/** Cumulative time of all CPUs in each state since boot, in kernel ticks (the `cpu` line of /proc/stat). */
export interface MachineTimes {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
}

/** Shares of all CPU time between two readings (0-1 each; together with idle they make 1). */
export interface MachineShares {
  /** Running anything: user, nice, system, irq and softirq. */
  busy: number;
  /** Taken by the hypervisor while a CPU of ours had work. */
  steal: number;
  /** Idle with disk I/O outstanding. */
  iowait: number;
}

const FIELDS = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"] as const;

/** Parses the aggregate `cpu` line of /proc/stat; null when the text has none. */
export function parseProcStat(text: string): MachineTimes | null {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) return null;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 4 || values.some((v) => !Number.isFinite(v))) return null;
  const times = {} as MachineTimes;
  FIELDS.forEach((name, i) => {
    times[name] = values[i] ?? 0; // older kernels have fewer columns; missing ones are zero
  });
  return times;
}

/** The machine's CPU times now; null where /proc/stat cannot be read (not Linux). */
export function readMachineTimes(): MachineTimes | null {
  try {
    return parseProcStat(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

/** How all CPU time between `before` and `after` was spent; null when no time passed. */
export function sharesBetween(before: MachineTimes, after: MachineTimes): MachineShares | null {
  const d = (k: keyof MachineTimes) => Math.max(0, after[k] - before[k]);
  const busy = d("user") + d("nice") + d("system") + d("irq") + d("softirq");
  const total = busy + d("idle") + d("iowait") + d("steal");
  if (total === 0) return null;
  return { busy: busy / total, steal: d("steal") / total, iowait: d("iowait") / total };
}

/** Adds shares measured over stretches of different lengths, weighting each by its seconds. */
export function combineShares(parts: readonly { shares: MachineShares | null; seconds: number }[]): MachineShares | null {
  const known = parts.filter((p): p is { shares: MachineShares; seconds: number } => p.shares !== null && p.seconds > 0);
  const seconds = known.reduce((a, p) => a + p.seconds, 0);
  if (seconds === 0) return null;
  const mean = (k: keyof MachineShares) => known.reduce((a, p) => a + p.shares[k] * p.seconds, 0) / seconds;
  return { busy: mean("busy"), steal: mean("steal"), iowait: mean("iowait") };
}

/** The parts of a measurement kept and left out by `sparedParts`. */
export interface SparedParts<T> {
  kept: T[];
  left: T[];
  /** How many parts the hypervisor spared (as many as `kept` unless it fell back). */
  spared: number;
  /** True when fewer than the minimum were spared, so every part is kept. */
  fellBack: boolean;
}

/**
 * The parts of a measurement (slices of a baseline, say) in which the hypervisor took at most
 * `maxSteal` of the machine's CPU time, and those it took more of. A part without a reading counts
 * as spared (nothing says otherwise). When fewer than `minKept` parts were spared, all are kept and
 * `fellBack` says so: a machine that is stolen from all the time has no quiet parts to choose.
 */
export function sparedParts<T>(parts: readonly T[], sharesOf: (part: T) => MachineShares | null, maxSteal: number, minKept: number): SparedParts<T> {
  const kept: T[] = [];
  const left: T[] = [];
  for (const part of parts) ((sharesOf(part)?.steal ?? 0) <= maxSteal ? kept : left).push(part);
  if (kept.length < minKept) return { kept: [...parts], left: [], spared: kept.length, fellBack: left.length > 0 };
  return { kept, left, spared: kept.length, fellBack: false };
}

const pct = (x: number) => `${Math.round(100 * x)}%`;

/** One sentence for a report: how busy the cores were and how much the hypervisor and the disk took. */
export function describeShares(shares: MachineShares | null, over: string): string {
  if (!shares) return `${over} the machine's CPU time by state could not be read (no /proc/stat)`;
  return `${over} the machine's cores were ${pct(shares.busy)} busy, ${pct(shares.steal)} of their time was taken by the hypervisor (steal) and ${pct(shares.iowait)} idle waiting on the disk (iowait)`;
}

/** Measures how the machine's CPUs spent the time `fn` took. */
export async function withMachineShares<T>(fn: () => Promise<T>): Promise<{ value: T; shares: MachineShares | null; seconds: number }> {
  const before = readMachineTimes();
  const t0 = performance.now();
  const value = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const after = readMachineTimes();
  return { value, shares: before && after ? sharesBetween(before, after) : null, seconds };
}
