// CPU time by process from /proc, so the benchmark can say which process a run was bound by: the
// worker, PostgreSQL (its backends, WAL writer and checkpointer) or the NATS server.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU milliseconds (user + system) per process name, summed over every live process of that name. */
export type CpuSnapshot = Map<number, { name: string; ms: number }>;

// PostgreSQL names its processes by role: "postgres: 15/main: checkpointer", "postgres: 15/main: autovacuum worker", ...
const PG_ROLE = /^postgres: [^:]+: (checkpointer|background writer|walwriter|autovacuum worker|autovacuum launcher)/;

function stat(pid: number): { name: string; ms: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    let name = text.slice(text.indexOf("(") + 1, close);
    if (name === "postgres") {
      const role = PG_ROLE.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "))?.[1];
      name = role ? `postgres ${role}` : "postgres";
    }
    const fields = text.slice(close + 2).split(" ");
    return { name, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null; // the process ended between listing and reading
  }
}

/** The CPU time every process on the machine has used so far. */
export function snapshot(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) out.set(pid, s);
  }
  return out;
}

/**
 * CPU seconds used between two snapshots, grouped: `worker` (the given pid), `postgres for the
 * worker` (the backends of its connections, `workerBackends`), `other postgres` (every other
 * backend: this benchmark's own queries and anyone else's on this shared machine), `postgres
 * background` (WAL writer, checkpointer, background writer, autovacuum), `nats-server`, and `other`.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot, workerPid: number, workerBackends: ReadonlySet<number>): Record<string, number> {
  const groups: Record<string, number> = { worker: 0, "postgres for the worker": 0, "other postgres": 0, "postgres background": 0, "nats-server": 0, other: 0 };
  for (const [pid, a] of after) {
    const used = a.ms - (before.get(pid)?.ms ?? 0);
    if (used <= 0) continue;
    const group =
      pid === workerPid
        ? "worker"
        : a.name === "postgres"
          ? workerBackends.has(pid)
            ? "postgres for the worker"
            : "other postgres"
          : a.name.startsWith("postgres ")
            ? "postgres background"
            : a.name === "nats-server"
              ? "nats-server"
              : "other";
    groups[group] = (groups[group] ?? 0) + used / 1000;
  }
  return groups;
}

/**
 * Snapshots every `intervalMs` until stopped, keeping each process's latest figure, so processes
 * that start and end during the run (autovacuum workers) are counted too.
 */
export function sampleCpu(intervalMs = 500): { stop(): CpuSnapshot; first: CpuSnapshot } {
  const first = snapshot();
  const latest: CpuSnapshot = new Map(first);
  const take = () => {
    for (const [pid, s] of snapshot()) latest.set(pid, s);
  };
  const timer = setInterval(take, intervalMs);
  return {
    first,
    stop() {
      clearInterval(timer);
      take();
      return latest;
    },
  };
}
