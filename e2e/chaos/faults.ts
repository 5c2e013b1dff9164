// The faults the chaos suite injects, how long each app took to be ready again, and a watcher of the event log for catch-up times.
import { setTimeout as sleep } from "node:timers/promises";
import type { NatsServer, TcpProxy } from "@pointwise/testkit";
import { type Cluster, type Member, readyStatus, timeUntilReady } from "./cluster";

/** The kinds of fault, in the words of the report. */
export type FaultKind = "worker-kill" | "pg-terminate" | "nats-outage" | "redis-outage";

/** One injected fault and what followed it. */
export interface FaultRecord {
  n: number;
  kind: FaultKind;
  /** The members it was aimed at (every member for an outage of a shared service). */
  targets: string[];
  /** Milliseconds since the run started. */
  startMs: number;
  /** When the fault was over: the process restarted, the last termination sent, the service back. */
  endMs: number;
  /** Backends terminated, for pg-terminate. */
  backends?: number;
  /** /readyz status of each member seen while the fault was in force (outages); 0: no answer within 2 s. */
  duringStatus: Record<string, number>;
  /** What each probe was answered while the fault was in force (outages): status and the start of the body. */
  duringProbes: Record<string, { status: number; body: string }>;
  /** Milliseconds from the fault's end until each member's /readyz answered 200 again; null: not within the deadline. */
  readyMs: Record<string, number | null>;
  /** Milliseconds from the fault's end until every event acknowledged before it was in the event log; filled in at the end. */
  catchUpMs?: number | null;
}

/** What the faults act on. */
export interface FaultTargets {
  cluster: Cluster;
  nats: NatsServer;
  redisProxy: TcpProxy;
  /** Runs SQL as the test (its own connection, never one of the apps'). */
  query(text: string, values: unknown[]): Promise<{ rows: { n: string }[] }>;
  startedAt: number;
  /** Requests sent while an outage lasts: answers that need neither NATS nor Redis. */
  probes: Probe[];
}

/** A request sent during an outage. */
export interface Probe {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/** One step of the schedule. */
export interface FaultStep {
  kind: FaultKind;
  /** Member names: the worker to kill, or the apps whose backends to terminate. */
  targets?: string[];
}

const OUTAGE_MS = 2000;
// The reproduction: terminations every 0.2 s for a while, so connections die idle, checked
// out and mid-transaction, including the ones the pool opens to replace the last victims.
const TERMINATE_EVERY_MS = 200;
const TERMINATE_FOR_MS = 1500;
const READY_DEADLINE_MS = 20_000;

async function terminateBackends(t: FaultTargets, members: Member[]): Promise<number> {
  const names = members.map((m) => m.applicationName);
  const { rows } = await t.query(
    "SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE application_name = ANY($1::text[]) AND pid <> pg_backend_pid()",
    [names],
  );
  return Number(rows[0]?.n ?? 0);
}

async function probe(probes: Probe[]): Promise<FaultRecord["duringProbes"]> {
  const out: FaultRecord["duringProbes"] = {};
  await Promise.all(
    probes.map(async (p) => {
      try {
        const res = await fetch(p.url, { headers: p.headers ?? {}, signal: AbortSignal.timeout(5000) });
        out[p.name] = { status: res.status, body: (await res.text()).slice(0, 200) };
      } catch (err) {
        out[p.name] = { status: 0, body: String(err) };
      }
    }),
  );
  return out;
}

async function statuses(members: Member[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  await Promise.all(members.map(async (m) => (out[m.name] = await readyStatus(m))));
  return out;
}

/** Injects one fault, waits until every member is ready again (or the deadline passes) and records it. */
export async function injectFault(t: FaultTargets, step: FaultStep, n: number): Promise<FaultRecord> {
  const { cluster } = t;
  const targets = (step.targets ?? cluster.members.map((m) => m.name)).map((name) => cluster.member(name));
  cluster.phase = `fault ${n} ${step.kind} ${targets.map((m) => m.name).join(",")}`;
  const startMs = Date.now() - t.startedAt;
  let backends: number | undefined;
  let duringStatus: Record<string, number> = {};
  let duringProbes: FaultRecord["duringProbes"] = {};
  switch (step.kind) {
    case "worker-kill":
      for (const m of targets) await cluster.kill(m);
      break;
    case "pg-terminate": {
      backends = 0;
      const until = Date.now() + TERMINATE_FOR_MS;
      while (Date.now() < until) {
        backends += await terminateBackends(t, targets);
        await sleep(TERMINATE_EVERY_MS);
      }
      break;
    }
    case "nats-outage":
      await t.nats.stop();
      await sleep(OUTAGE_MS);
      [duringStatus, duringProbes] = await Promise.all([statuses(cluster.members), probe(t.probes)]);
      await t.nats.start();
      break;
    case "redis-outage":
      await t.redisProxy.stop();
      await sleep(OUTAGE_MS);
      [duringStatus, duringProbes] = await Promise.all([statuses(cluster.members), probe(t.probes)]);
      await t.redisProxy.start();
      break;
  }
  const end = Date.now();
  const readyMs: Record<string, number | null> = {};
  await Promise.all(cluster.members.map(async (m) => (readyMs[m.name] = await timeUntilReady(m, end, READY_DEADLINE_MS))));
  cluster.phase = "traffic";
  return {
    n,
    kind: step.kind,
    targets: targets.map((m) => m.name),
    startMs,
    endMs: end - t.startedAt,
    ...(backends === undefined ? {} : { backends }),
    duringStatus,
    duringProbes,
    readyMs,
  };
}

/** Watches the event log of one schema and remembers when each event id first appeared. */
export interface LogWatcher {
  firstSeen: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Polls `event_log` by its sequence every 200 ms. One campaign's events are logged under one
 * advisory lock, so its sequence grows in commit order and a watermark misses nothing.
 */
export function watchEventLog(poll: (after: string) => Promise<{ seq: string; id: string }[]>): LogWatcher {
  const firstSeen = new Map<string, number>();
  let running = true;
  let after = "0";
  const loop = (async () => {
    while (running) {
      try {
        for (;;) {
          const rows = await poll(after);
          const now = Date.now();
          for (const r of rows) if (!firstSeen.has(r.id)) firstSeen.set(r.id, now);
          if (rows.length === 0) break;
          after = rows[rows.length - 1]!.seq;
        }
      } catch {
        // The test's own connection is never terminated; a failed poll is simply tried again.
      }
      await sleep(200);
    }
  })();
  return {
    firstSeen,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * Fills in each fault's catch-up time: from its end until the last event acknowledged before that
 * end was first seen in the log (0 when all were already there); null if one never appeared.
 */
export function computeCatchUp(faults: FaultRecord[], acked: Map<string, { at: number }>, firstSeen: Map<string, number>, startedAt: number): void {
  for (const f of faults) {
    const end = startedAt + f.endMs;
    let worst = 0;
    let missing = false;
    for (const [id, a] of acked) {
      if (a.at > end) continue;
      const seen = firstSeen.get(id);
      if (seen === undefined) {
        missing = true;
        break;
      }
      worst = Math.max(worst, seen - end);
    }
    f.catchUpMs = missing ? null : worst;
  }
}
