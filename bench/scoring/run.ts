// Scoring benchmark: events per second the built scoring worker applies from a JetStream backlog
// into the log, the ledger and the score rows (with rules, state and referrers), beside a baseline
// in the same run: a consumer of the same backlog doing one Prisma `upsert` per event into a score
// table and acknowledging each message. Prints the result as JSON. Where the target is missed, a
// second, profiled run on a smaller backlog says where the worker's time goes, and the CPU time of
// the worker, PostgreSQL and NATS over the main run says which of them bounds it.
//
//   node --import tsx bench/scoring/run.ts [--events 200000] [--quick] [--profile]
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Bus, createBus } from "@pointwise/bus";
import { spawnApp } from "@pointwise/testkit";
import type { Pool } from "pg";
import { createFixture, type Fixture, wallets } from "../lib/fixture";
import { combineShares, type MachineShares, readMachineTimes, sharesBetween, sparedParts, withMachineShares } from "../lib/machine-time";
import { type BenchResult, emit, type Figure, peakRssMb, quick } from "../lib/measure";
import { withProfileDir } from "../lib/profile";
import { formatNumber, roundingFor } from "../lib/report";
import { baseline, type Slice } from "./baseline";
import { cpuBetween, sampleCpu } from "./cpu";
import { describeCpu, describeMachineTime, describeSpared, type TimedSlice } from "./notes";
import { describeWorkerProfile } from "./profile";
import { activateBenchRules, benchEvent } from "./rules";
import { describeSteps, measureSteps } from "./steps";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const EVENTS = Number(arg("--events") ?? (quick ? 5_000 : 200_000));
// The baseline is ~100x slower per event; samples of the same backlog give its rate. They alternate
// with the worker's run (B S B S ... S B): the worker is paused (SIGSTOP) after every PIECE_MS of
// running and a slice of the baseline runs for BASELINE_SLICE_MS meanwhile, so both meet the machine
// in the same minutes. With one slice before the run and one after it, the two slices a minute apart
// differed by 15-35% on "AMD host 2" of docs/performance.md and the ratio moved 8-10% from run to
// run. Alternating removes the minutes between the two sides, not the difference in how they react
// to the machine (one thread of Prisma's client, busy 62-77% of the time, against a drain that
// keeps both cores busy with other code): five runs with 1,000-event
// slices gave 12.7x-14.3x there, six with 5-s slices 15.5x-17.9x while the machine ran slower (see
// Repeatability in docs/performance.md). Slices of time keep the baseline's total time from
// shrinking on a fast machine (a slow one has more pieces, so more of it).
const PIECE_MS = quick ? 500 : 3_000;
const BASELINE_SLICE_MS = quick ? 300 : 5_000;
// The baseline's first few thousand events after a cold start run slower than the rest: slices of
// 2,000 rose from 224 to 375 events/s over the first 10,000 on AMD host 2, and an unwarmed first
// slice came out 3-23% below the last one in three runs there. The untimed warm-up reads a slice
// of the backlog of its own.
const BASELINE_WARMUP = Math.min(Math.floor(EVENTS / 4), quick ? 200 : 5_000);
// The baseline commits once per event and waits for its PostgreSQL backend every event: a slice in which
// the hypervisor took a few percent of the machine's CPU time runs far slower than that share (on
// "Intel host 3" of docs/performance.md a run with 17% steal in its slices ran the baseline 27% slower
// than one with 2%), and the ratio moved with the host's other tenants. Such slices are reported but
// left out of the baseline's rate, as long as enough others are left to give it.
const STEAL_LIMIT = 0.05;
const MIN_SPARED_SLICES = quick ? 1 : 5;
// 2: the baseline is warmed up (untimed) before its first measured slice. 3: and its slices of
// 1,000 events alternate with pieces of the worker's run. 4: the slices are of 5 s. 5: slices in
// which the hypervisor took more than STEAL_LIMIT of the machine are left out of the baseline's rate.
const METHOD = 5;
const PROFILE_EVENTS = Math.min(EVENTS, 40_000);
const PUBLISH_WINDOW = 2_000;
const TARGET_RATE = 20_000;
const TARGET_RATIO = 30;
const TARGET = ">= 20,000 events/s and >= 30x baseline";
// What the worker runs with in the benchmark: large batches, since a backlog always fills them.
const WORKER_ENV = { BATCH_SIZE: "1000", APPLY_BATCH_SIZE: arg("--apply-batch") ?? "20000", FETCH_EXPIRES_MS: "5000" };
// The in-process step measurement when the target is missed: as many users as the main backlog
// (so a batch holds as many events per user), 40,000 events.
const STEPS_EVENTS = 40_000;

const usersFor = (events: number) => Math.max(10, Math.min(10_000, Math.floor(events / 20)));

/** A campaign with the benchmark's rule version active and a backlog of `events` raw events on its stream. */
async function prepare(events: number): Promise<{ fx: Fixture; bus: Bus }> {
  const fx = await createFixture();
  await activateBenchRules(fx);
  const bus = await createBus({ url: fx.env.NATS_URL as string, namespace: fx.namespace });
  await bus.ensureStreams();
  // Events of one wallet per 20 events (at most 10,000) over a few days, published before anyone consumes.
  const accounts = wallets(usersFor(events));
  const event = (i: number) => benchEvent(fx, accounts, i);
  for (let from = 0; from < events; from += PUBLISH_WINDOW) {
    const n = Math.min(PUBLISH_WINDOW, events - from);
    await Promise.all(Array.from({ length: n }, (_, k) => bus.publishRawEvent(event(from + k))));
  }
  return { fx, bus };
}

async function cleanUp({ fx, bus }: { fx: Fixture; bus: Bus }): Promise<void> {
  await bus.close();
  await fx.drop();
}

interface WorkerRun {
  /** Seconds the worker ran (pauses for the baseline excluded). */
  seconds: number;
  /** How many times it was paused for a slice of the baseline. */
  pauses: number;
  startSeconds: number;
  rssMb: number;
  cpu: Record<string, number>;
  /** How the machine's CPUs spent the worker's running time (pauses excluded). */
  machine: MachineShares | null;
  ledger: string;
  scores: string;
  users: string;
}

/**
 * Waits until none of the worker's backends is executing anything, so that work the paused worker
 * sent before it stopped is finished on the worker's time, not on the baseline's. A backend waiting
 * on the client counts as done: for more COPY data (ClientRead) the paused worker will not send, or
 * to send rows it will not read until it runs again (ClientWrite, a full socket buffer).
 */
async function settled(pool: Pool, backends: ReadonlySet<number>): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[]) AND state = 'active' AND wait_event_type IS DISTINCT FROM 'Client'",
      [[...backends]],
    );
    if ((rows[0]?.n ?? 0) === 0) return;
    if (performance.now() > deadline) throw new Error("the paused worker's statements did not finish within 60 s");
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * Starts the built worker on the backlog and waits until every event is in the log. With `between`,
 * the worker is paused (SIGSTOP) after every PIECE_MS of running, and `between` (a slice of the
 * baseline) runs while it is stopped, so the two alternate over the whole drain. `profileDir` profiles it.
 */
async function runWorker({ fx }: { fx: Fixture }, events: number, options: { profileDir?: string; between?: () => Promise<void> } = {}): Promise<WorkerRun> {
  const { pool } = fx.db;
  const { profileDir, between } = options;
  // The worker starts consuming a moment before it answers /readyz, so timing from readiness slightly flatters it.
  const spawnedAt = performance.now();
  const env = { ...fx.env, ...WORKER_ENV };
  // The profile is written when the process exits after SIGTERM.
  const worker = await spawnApp("scoring-worker", env, profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {});
  const pid = worker.child.pid as number;
  const readyAt = performance.now();
  // The worker's own backends, told apart from everyone else's by name, database and start time.
  const backends = new Set<number>();
  const spawnedAtWall = new Date(Date.now() - (performance.now() - spawnedAt));
  const findBackends = async () => {
    const { rows } = await pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'scoring-worker' AND datname = current_database() AND backend_start >= $1",
      [spawnedAtWall],
    );
    for (const r of rows) backends.add(r.pid);
  };
  await findBackends();
  // Polling must not load PostgreSQL: max(seq) is one index probe, and count(*) (a scan) runs only once
  // max(seq) says the count can have been reached (seqs are distinct, so count >= n needs max >= n).
  const logged = async () => {
    const { rows: top } = await pool.query<{ max: string | null }>("SELECT max(seq)::text AS max FROM event_log");
    if (Number(top[0]?.max ?? 0) < events) return false;
    return Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM event_log")).rows[0]?.n) >= events;
  };
  // CPU and time are summed over the pieces in which the worker ran.
  const cpu: Record<string, number> = {};
  const pieces: { shares: MachineShares | null; seconds: number }[] = [];
  let sampler = sampleCpu();
  let pieceTimes = readMachineTimes();
  let pieceStart = readyAt;
  let runningMs = 0;
  let pauses = 0;
  const endPiece = () => {
    const ms = performance.now() - pieceStart;
    runningMs += ms;
    for (const [group, seconds] of Object.entries(cpuBetween(sampler.first, sampler.stop(), pid, backends))) cpu[group] = (cpu[group] ?? 0) + seconds;
    const now = readMachineTimes();
    pieces.push({ shares: pieceTimes && now ? sharesBetween(pieceTimes, now) : null, seconds: ms / 1000 });
  };
  const deadline = Date.now() + 30 * 60_000;
  for (let polls = 0; !(await logged()); polls++) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the backlog to be applied");
    const pause = between !== undefined && performance.now() - pieceStart >= PIECE_MS;
    // Before a pause every backend must be known, or settled() would not wait for it.
    if (pause || polls % 10 === 0) await findBackends();
    if (pause) {
      process.kill(pid, "SIGSTOP");
      try {
        await settled(pool, backends);
        endPiece();
        pauses++;
        await between?.();
      } finally {
        process.kill(pid, "SIGCONT");
      }
      sampler = sampleCpu();
      pieceTimes = readMachineTimes();
      pieceStart = performance.now();
      continue;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await findBackends();
  endPiece();
  const { rows } = await pool.query<{ ledger: string; scores: string; users: string }>(
    `SELECT (SELECT count(*) FROM ledger_entry)::text AS ledger, (SELECT count(*) FROM score WHERE campaign_id = $1)::text AS scores,
            (SELECT count(*) FROM app_user WHERE campaign_id = $1)::text AS users`,
    [fx.campaignId],
  );
  const rssMb = peakRssMb(pid);
  await worker.stop();
  const counts = rows[0] ?? { ledger: "?", scores: "?", users: "?" };
  return { seconds: runningMs / 1000, pauses, startSeconds: (readyAt - spawnedAt) / 1000, rssMb, cpu, machine: combineShares(pieces), ...counts };
}

async function main(): Promise<void> {
  // Ctrl-C or a kill would end this process without its exit handlers and leave the worker running,
  // or stopped in the middle of a transaction if it was paused for the baseline; exiting runs them,
  // and testkit's kills every app it started.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(1));
  const setup = await prepare(EVENTS);
  const users = usersFor(EVENTS);
  const notes: string[] = [`${EVENTS.toLocaleString("en")} events of ${users.toLocaleString("en")} users in the backlog`];
  // The baseline alternates with the worker's run (B S B ... S B), on consecutive slices of the same
  // backlog, and its rate is its slices' events over their time (the slices the hypervisor spared,
  // see STEAL_LIMIT): a machine that gets busier or quieter during the run moves both sides alike.
  const measureBaseline = await baseline(setup);
  await measureBaseline(BASELINE_WARMUP);
  // The slices never ask for more than the backlog holds (a fetch would wait for events that never come).
  let left = EVENTS - BASELINE_WARMUP;
  // Each slice also records how the machine's CPUs spent it: steal and disk waits move the baseline,
  // which commits once per event, far more than the worker, which commits once per batch.
  const slices: TimedSlice[] = [];
  const baselineSlice = async () => {
    if (left === 0) return;
    const { value: slice, shares } = await withMachineShares(() => measureBaseline(left, BASELINE_SLICE_MS));
    left -= slice.events;
    slices.push({ ...slice, machine: shares });
  };
  await baselineSlice();
  const profileDir = process.argv.includes("--profile") ? mkdtempSync(path.join(os.tmpdir(), "pw-prof-")) : undefined;
  const run = await runWorker(setup, EVENTS, { profileDir, between: baselineSlice });
  await baselineSlice();
  const sum = (f: (s: Slice) => number, of: readonly Slice[] = slices) => of.reduce((acc, s) => acc + f(s), 0);
  const baselineEvents = sum((s) => s.events);
  const baselineSeconds = sum((s) => s.seconds);
  const baselineCpuSeconds = sum((s) => s.cpuSeconds);
  const spared = sparedParts(slices, (s) => s.machine, STEAL_LIMIT, MIN_SPARED_SLICES);
  const baselineRate = sum((s) => s.events, spared.kept) / sum((s) => s.seconds, spared.kept);
  const sliceRates = slices.map((s) => s.events / s.seconds);
  const sliceCpu = slices.map((s) => (1e6 * s.cpuSeconds) / s.events);
  const sliceBusy = slices.map((s) => (100 * s.cpuSeconds) / s.seconds);
  const range = (xs: number[]) => `${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))}`;
  await cleanUp(setup);

  const rate = EVENTS / run.seconds;
  const ratio = rate / baselineRate;
  const met = rate >= TARGET_RATE && ratio >= TARGET_RATIO;
  notes.push(
    `the worker logged ${EVENTS.toLocaleString("en")} events in ${run.seconds.toFixed(1)} s of running (paused ${run.pauses} ${run.pauses === 1 ? "time" : "times"} for the baseline), writing ${run.ledger} ledger entries, ${run.users} users and ${run.scores} score rows; start-up to ready took ${run.startSeconds.toFixed(1)} s`,
    `worker settings: ${Object.entries(WORKER_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")}`,
    `baseline measured in ${slices.length} slices of ${BASELINE_SLICE_MS / 1000} s (${baselineEvents.toLocaleString("en")} events in all) of the same backlog alternated with the worker's run (B S B ... S B: the worker is paused with SIGSTOP after every ${PIECE_MS / 1000} s of running, and its statements in flight finish on its time), after ${BASELINE_WARMUP.toLocaleString("en")} untimed events to warm it up; slices ${range(sliceRates)} events/s, the figure is the events over the time of the slices the hypervisor spared (below); it writes one score row per event only: no log, ledger, state or rules`,
    `the baseline's own CPU (this process, which runs nothing else during a slice): ${range(sliceCpu)} µs per event over the slices, ${Math.round((1e6 * baselineCpuSeconds) / baselineEvents)} over all; the process used ${range(sliceBusy)}% of a core in each slice, so it spends more of its time ${baselineCpuSeconds >= baselineSeconds / 2 ? "computing (Prisma's client) than waiting on PostgreSQL" : "waiting on PostgreSQL than computing"}`,
    describeSpared(spared, { limit: STEAL_LIMIT, minSpared: MIN_SPARED_SLICES }, baselineRate, baselineEvents / baselineSeconds),
    describeCpu(run.cpu, run.seconds, os.cpus().length),
    describeMachineTime(slices, run.machine),
  );
  if (!met) {
    const rounding = roundingFor({ met, target: TARGET });
    const short = [
      // Rounded as the table rounds a missed figure, so the two print the same numbers.
      rate < TARGET_RATE ? `${formatNumber(rate, rounding)} events/s is ${Math.floor((100 * rate) / TARGET_RATE)}% of the 20,000 target` : "",
      ratio < TARGET_RATIO ? `${formatNumber(ratio, rounding)}x is below 30x` : "",
    ];
    notes.push(`target missed: ${short.filter(Boolean).join("; ")}`);
  }
  // A profile says where the worker's own time goes; without --profile it is taken on a smaller
  // second backlog and removed once summarised. One asked for with --profile is kept for DevTools.
  if (profileDir) {
    notes.push(`profile of the worker (kept in ${profileDir}): ${describeWorkerProfile(profileDir)}`);
  } else if (!met && !quick) {
    const second = await prepare(PROFILE_EVENTS);
    const { profiled, where } = await withProfileDir(async (dir) => {
      const run = await runWorker(second, PROFILE_EVENTS, { profileDir: dir });
      return { profiled: run, where: describeWorkerProfile(dir) };
    });
    await cleanUp(second);
    notes.push(
      `profile of the worker on ${PROFILE_EVENTS.toLocaleString("en")} events (${Math.round(PROFILE_EVENTS / profiled.seconds).toLocaleString("en")} events/s while profiled): ${where}`,
    );
  }
  if (!met && !quick) {
    const steps = await measureSteps({
      events: STEPS_EVENTS,
      users: Math.min(users, STEPS_EVENTS / 4),
      stage: Number(WORKER_ENV.BATCH_SIZE),
      apply: Number(WORKER_ENV.APPLY_BATCH_SIZE),
    });
    notes.push(describeSteps(steps));
  }

  const figures: Figure[] = [
    {
      name: "events applied per second, JetStream backlog -> log + ledger + scores",
      unit: "events/s",
      value: rate,
      baseline: baselineRate,
      ratio,
      target: TARGET,
      met,
      note: "baseline: one Prisma upsert per event",
    },
  ];
  const result: BenchResult = { path: "scoring", method: METHOD, figures, memory: [{ process: "scoring-worker", peakRssMb: run.rssMb }], notes };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  emit(result);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
