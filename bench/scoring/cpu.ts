// CPU time by process from /proc, so the scoring benchmark can say how much of it the worker,
// PostgreSQL backends and the NATS server spent per event.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU milliseconds (user + system) and the name of every process, by pid. */
export type CpuSnapshot = Map<number, { name: string; ms: number }>;

/** A process's name and CPU milliseconds so far (with `children`: of its children that have ended), or null when it has ended. */
export function cpuOf(pid: number, children = false): { name: string; ms: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    return { name: text.slice(text.indexOf("(") + 1, close), ms: (Number(fields[children ? 13 : 11]) + Number(fields[children ? 14 : 12])) * TICK_MS };
  } catch {
    return null;
  }
}

/** The CPU time every process on the machine has used so far. */
export function snapshot(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  for (const entry of readdirSync("/proc")) {
    const s = /^\d+$/.test(entry) ? cpuOf(Number(entry)) : null;
    if (s) out.set(Number(entry), s);
  }
  return out;
}

/**
 * Snapshots every `intervalMs` until stopped, keeping each process's latest figure (a backend that
 * ends meanwhile still counts), and returns CPU seconds used since the start by the processes `pick` names.
 */
export function sampleCpu(pick: (pid: number, name: string) => string | null, intervalMs = 500): { stop(): Record<string, number> } {
  const first = snapshot();
  const latest: CpuSnapshot = new Map(first);
  const take = () => {
    for (const [pid, s] of snapshot()) latest.set(pid, s);
  };
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const groups: Record<string, number> = {};
      for (const [pid, s] of latest) {
        const group = pick(pid, s.name);
        if (group) groups[group] = (groups[group] ?? 0) + (s.ms - (first.get(pid)?.ms ?? 0)) / 1000;
      }
      return groups;
    },
  };
}
