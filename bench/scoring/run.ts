// Scoring benchmark: events per second the built scoring worker applies from a JetStream backlog into
// the log, the ledger and the score rows (rules, state, referrers), beside a baseline consuming the
// same backlog with one Prisma upsert per event, in the same run; and the CPU per event of the
// worker, its PostgreSQL backends and nats-server beside the floor: what PostgreSQL and NATS alone
// spend to store and deliver the same rows (floor.ts).
//
//   node --import tsx bench/scoring/run.ts [--events 200000] [--quick]
import os from "node:os";
import { busNames, createBus } from "@pointwise/bus";
import { applicationNameOf } from "@pointwise/db";
import { spawnApp, waitUntil } from "@pointwise/testkit";
import { connect } from "nats";
import { createFixture, type Fixture, wallets } from "../lib/fixture";
import { type BenchResult, emit, type Figure, main, peakRssMb, quick } from "../lib/measure";
import { profileApp } from "../lib/profile";
import { baseline } from "./baseline";
import { sampleCpu } from "./cpu";
import { natsFloor, postgresFloor } from "./floor";
import { activateBenchRules, benchEvent } from "./rules";

const arg = process.argv.indexOf("--events");
const EVENTS = arg >= 0 ? Number(process.argv[arg + 1]) : quick ? 5_000 : 200_000;
// The baseline (~100x slower per event) runs one slice before the worker and one after it, on the
// same backlog, each after an untimed warm-up: its first few thousand events after a cold start are slower.
const SLICE_MS = quick ? 1_000 : 8_000;
const WARMUP = Math.min(Math.floor(EVENTS / 10), quick ? 200 : 3_000);
const PROFILE_EVENTS = Math.min(EVENTS, 40_000);
const TARGET_RATIO = 10;
// What the worker runs with: large batches, since a backlog always fills them.
const WORKER_ENV = { BATCH_SIZE: "1000", APPLY_BATCH_SIZE: "20000", FETCH_EXPIRES_MS: "5000" };
const usersFor = (events: number) => Math.max(10, Math.min(10_000, Math.floor(events / 20)));

/** A campaign with the benchmark's rule version active and a backlog of `events` raw events on its stream. */
async function prepare(events: number): Promise<Fixture> {
  const fx = await createFixture();
  await activateBenchRules(fx);
  const bus = await createBus({ url: fx.env.NATS_URL as string, namespace: fx.namespace });
  await bus.ensureStreams();
  const accounts = wallets(usersFor(events));
  for (let from = 0; from < events; from += 2_000) {
    await Promise.all(Array.from({ length: Math.min(2_000, events - from) }, (_, k) => bus.publishRawEvent(benchEvent(fx, accounts, from + k))));
  }
  await bus.close();
  return fx;
}

/** Resolves once `events` events are in the fixture's event log (max(seq) is one index probe; the count confirms it). */
const logged = (fx: Fixture, events: number, onPoll: () => Promise<void> = async () => undefined) =>
  waitUntil(
    async () => {
      await onPoll();
      const { rows } = await fx.pool.query<{ max: string | null }>("SELECT max(seq)::text AS max FROM event_log");
      return Number(rows[0]?.max ?? 0) >= events && Number((await fx.pool.query("SELECT count(*) AS n FROM event_log")).rows[0]?.n) >= events;
    },
    30 * 60_000,
    "the backlog to be applied",
  );

main(async () => {
  const fx = await prepare(EVENTS);
  const stream = busNames(fx.namespace).eventsStream;
  const nc = await connect({ servers: fx.env.NATS_URL });
  const slice = await baseline(nc, stream, fx.pool, fx.schema);
  await slice(WARMUP);
  const before = await slice(EVENTS - WARMUP, SLICE_MS);

  // The worker's run, from ready to the last event logged; its backends are told apart from everyone
  // else's on this shared PostgreSQL by application name (the one its pool sets), database and start time.
  const spawnedAt = new Date();
  const applicationName = applicationNameOf({ applicationName: "scoring-worker", schema: fx.schema });
  const worker = await spawnApp("scoring-worker", { ...fx.env, ...WORKER_ENV });
  const pid = worker.child.pid as number;
  const backends = new Set<number>();
  const findBackends = async () => {
    const { rows } = await fx.pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $2 AND datname = current_database() AND backend_start >= $1",
      [spawnedAt, applicationName],
    );
    for (const r of rows) backends.add(r.pid);
  };
  await findBackends();
  const cpu = sampleCpu((p, name) => (p === pid ? "worker" : backends.has(p) ? "postgres" : name === "nats-server" ? "nats" : null));
  const t0 = performance.now();
  await logged(fx, EVENTS, findBackends);
  const seconds = (performance.now() - t0) / 1000;
  const used = cpu.stop();
  // No backend found means the CPU figure would read 0 µs: a measurement that failed, not a result.
  if (backends.size === 0) throw new Error(`found no PostgreSQL backend with application_name ${applicationName}`);
  const rssMb = peakRssMb(pid);
  await worker.stop();
  const { rows } = await fx.pool.query<{ ledger: string; users: string; scores: string }>(
    "SELECT (SELECT count(*) FROM ledger_entry) AS ledger, (SELECT count(*) FROM app_user) AS users, (SELECT count(*) FROM score) AS scores",
  );
  const after = await slice(EVENTS - WARMUP - before.events, SLICE_MS);

  const floorNats = await natsFloor(nc, stream, EVENTS);
  const floorPg = await postgresFloor(fx.pool);
  await nc.close();
  await fx.drop();

  const rate = EVENTS / seconds;
  const baseRate = (before.events + after.events) / (before.seconds + after.seconds);
  const us = (s: number | undefined) => ((s ?? 0) * 1e6) / EVENTS;
  const figures: Figure[] = [
    {
      name: "events applied/s, JetStream backlog -> log + ledger + scores",
      unit: "events/s",
      value: rate,
      baseline: baseRate,
      ratio: rate / baseRate,
      target: `>= ${TARGET_RATIO}x baseline`,
      met: rate / baseRate >= TARGET_RATIO,
      note: "baseline: one Prisma upsert per event",
    },
    { name: "CPU per event: scoring-worker", unit: "µs", value: us(used.worker) },
    {
      name: "CPU per event: PostgreSQL (the worker's backends)",
      unit: "µs",
      value: us(used.postgres),
      baseline: us(floorPg.seconds),
      ratio: (used.postgres ?? 0) / floorPg.seconds,
      note: "baseline: the floor",
    },
    {
      name: "CPU per event: nats-server",
      unit: "µs",
      value: us(used.nats),
      baseline: us(floorNats),
      ratio: (used.nats ?? 0) / floorNats,
      note: "baseline: the floor",
    },
  ];
  const total = Object.values(used).reduce((a, b) => a + b, 0);
  const counts = Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v).toLocaleString("en")]));
  const settings = Object.entries(WORKER_ENV).map(([k, v]) => `${k}=${v}`);
  const busy = Math.round((100 * total) / seconds / os.cpus().length);
  const notes = [
    `${EVENTS.toLocaleString("en")} events of ${usersFor(EVENTS).toLocaleString("en")} users applied in ${seconds.toFixed(1)} s (${counts.ledger} ledger entries, ${counts.users} users, ${counts.scores} score rows), with ${settings.join(", ")}; worker, backends and nats-server kept the machine's ${os.cpus().length} cores ${busy}% busy`,
    `baseline: ${before.events + after.events} events in a slice before and one after the worker's run, after ${WARMUP} untimed events`,
    `floor: a bare consumer drained the same ${EVENTS.toLocaleString("en")} messages acking each; the ${floorPg.rows.toLocaleString("en")} rows the worker stored were copied (COPY) into empty tables of the same shape and indexes; CPU of PostgreSQL backends only (WAL writer and checkpointer are in neither figure)`,
  ];
  const bounds: string[] = [];
  if (!figures[0]?.met && !quick) {
    const second = await prepare(PROFILE_EVENTS);
    bounds.push(
      await profileApp("scoring-worker", { ...second.env, ...WORKER_ENV }, `a backlog of ${PROFILE_EVENTS.toLocaleString("en")} events`, () =>
        logged(second, PROFILE_EVENTS),
      ),
    );
    await second.drop();
  }
  const result: BenchResult = { path: "scoring", figures, memory: [{ process: "scoring-worker", peakRssMb: rssMb }], notes, bounds };
  emit(result);
});
