// The scoring benchmark's notes on its baseline slices and the machine: plain functions of what the
// run measured, so the sentences the report prints are tested (notes.test.ts) without a run.
import { combineShares, type MachineShares, type SparedParts } from "../lib/machine-time";
import { formatRange } from "../lib/report";
import type { Slice } from "./baseline";

/** A slice of the baseline with how the machine's CPUs spent it (null where /proc/stat cannot be read). */
export type TimedSlice = Slice & { machine: MachineShares | null };

/** Which of the baseline's slices its rate was taken from, and what the others would have made of it. */
export function describeSpared(spared: SparedParts<TimedSlice>, rule: { limit: number; minSpared: number }, rate: number, allRate: number): string {
  const limit = `${Math.round(100 * rule.limit)}%`;
  const rates = (of: readonly Slice[]) => of.map((s) => Math.round(s.events / s.seconds)).join(", ");
  if (spared.fellBack) {
    return `the hypervisor took more than ${limit} of the machine's CPU time in all but ${spared.spared} of the baseline's ${spared.kept.length} slices, fewer than the ${rule.minSpared} needed to leave the others out, so the baseline's rate is over all of them, stolen time included`;
  }
  if (spared.left.length === 0) {
    return `the hypervisor took at most ${limit} of the machine's CPU time in every slice of the baseline, so its rate is over all of them`;
  }
  // One decimal: a slice just over the limit (5.3%) would otherwise print as the limit itself.
  const steal = spared.left.map((s) => `${(100 * (s.machine?.steal ?? 0)).toFixed(1)}%`).join(", ");
  return `${spared.left.length} of the baseline's ${spared.kept.length + spared.left.length} slices, in which the hypervisor took more than ${limit} of the machine's CPU time (${steal}), are left out of its rate: they ran at ${rates(spared.left)} events/s against ${rates(spared.kept)} in the others; over all slices the baseline made ${Math.round(allRate)} events/s, ${Math.round(rate)} without them`;
}

/** Each process's CPU over the worker's running time, and how busy that kept the machine's cores. */
export function describeCpu(cpu: Record<string, number>, seconds: number, cores: number): string {
  const parts = Object.entries(cpu).map(([name, s]) => `${name} ${s.toFixed(1)} s (${Math.round((100 * s) / seconds)}% of a core)`);
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  return `CPU over the worker's ${seconds.toFixed(1)} s of running: ${parts.join(", ")}; the machine's ${cores} cores were ${Math.round((100 * total) / (seconds * cores))}% busy`;
}

/**
 * How much of the machine's CPU time the hypervisor took (steal) and how much went idle waiting on
 * the disk, in the baseline's slices and while the worker ran: the baseline commits once per event,
 * so a machine whose disk flushes slowly or whose hypervisor takes more in one run than in the next
 * moves the baseline, and so the ratio, where the worker hardly notices.
 */
export function describeMachineTime(slices: readonly TimedSlice[], worker: MachineShares | null): string {
  const known = slices.map((s) => s.machine).filter((m): m is MachineShares => m !== null);
  if (known.length === 0 || !worker) return "the machine's CPU time by state could not be read (no /proc/stat)";
  const pct = (x: number) => Math.round(100 * x);
  const range = (k: keyof MachineShares) =>
    `${formatRange(
      known.map((m) => m[k]),
      (x) => String(pct(x)),
    )}%`;
  const all = combineShares(slices.map((s) => ({ shares: s.machine, seconds: s.seconds })));
  return `the machine's CPU time by state (/proc/stat): in the baseline's slices steal ${range("steal")} (${pct(all?.steal ?? 0)}% over all) and iowait ${range("iowait")} (${pct(all?.iowait ?? 0)}%); while the worker ran steal ${pct(worker.steal)}% and iowait ${pct(worker.iowait)}%`;
}
