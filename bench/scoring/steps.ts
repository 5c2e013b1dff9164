// The worker's SQL path in this process, step by step: stages N raw events into the inbox as the
// intake does (no NATS), then applies them with the worker's own apply transaction, recording for
// every statement its wall time and the CPU time of the PostgreSQL backend that ran it (from
// /proc: PostgreSQL runs one process per connection), beside this process's own CPU time (engine,
// JSON, driver). run.ts adds the summary to its notes when the target is missed.
//
//   node --import tsx bench/scoring/steps.ts [--events 40000] [--users N] [--stage 1000] [--apply 20000]
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import type { Pool, PoolClient } from "pg";
import { applyInboxBatch } from "../../apps/scoring-worker/src/apply";
import { type StagedMessage, stageMessages } from "../../apps/scoring-worker/src/inbox";
import { RuleVersionCache } from "../../apps/scoring-worker/src/rules";
import { createFixture, wallets } from "../lib/fixture";
import { activateBenchRules, benchEvent } from "./rules";

/** What to measure. */
export interface StepsOptions {
  events: number;
  users: number;
  /** Messages per staging statement (the worker's BATCH_SIZE). */
  stage: number;
  /** Inbox rows per apply transaction (the worker's APPLY_BATCH_SIZE). */
  apply: number;
}

/** One kind of statement: wall time and PostgreSQL CPU, per event of the run. */
export interface StepCost {
  statement: string;
  count: number;
  wallUs: number;
  pgCpuUs: number;
}

/** Per-event costs of staging and applying, measured in this process. */
export interface StepsResult {
  options: StepsOptions;
  stageUs: number;
  applyUs: number;
  /** This process's CPU while applying: the engine, JSON and the driver. */
  workerCpuUs: number;
  pgCpuUs: number;
  statements: StepCost[];
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuOf(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function labelOf(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim();
  const m = /^WITH .*?\) (INSERT INTO \w+)|^(INSERT INTO \w+|COPY \w+|DELETE FROM \w+|UPDATE \w+|SELECT pg_try\w*|BEGIN|COMMIT)|^SELECT .*? FROM (\w+)/.exec(s);
  return m ? (m[1] ?? m[2] ?? `SELECT FROM ${m[3]}`) : s.slice(0, 40);
}

/** Stages and applies a backlog in this process and returns where the time went. */
export async function measureSteps(options: StepsOptions): Promise<StepsResult> {
  const { events, users, stage, apply } = options;
  const fx = await createFixture();
  const pool = fx.db.pool as Pool;
  try {
    await activateBenchRules(fx);
    const accounts = wallets(users);
    const stream = "BENCH_EVENTS";
    const messages: StagedMessage[] = Array.from({ length: events }, (_, i) => ({
      stream,
      streamSeq: i + 1,
      subject: `x.events.${fx.campaignId}`,
      event: benchEvent(fx, accounts, i),
    }));

    const t0 = performance.now();
    for (let from = 0; from < events; from += stage) await stageMessages(pool, messages.slice(from, from + stage));
    const stageMs = performance.now() - t0;

    // Every client the apply transactions use records each statement by kind.
    const costs = new Map<string, { ms: number; cpuMs: number; n: number }>();
    const wrapped = new WeakSet<PoolClient>();
    const timed = async (client: PoolClient): Promise<PoolClient> => {
      if (wrapped.has(client)) return client;
      wrapped.add(client);
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = rows[0]?.pid as number;
      const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
      (client as unknown as { query: unknown }).query = (...a: unknown[]) => {
        const label = labelOf(typeof a[0] === "string" ? a[0] : ((a[0] as { text?: string }).text ?? ""));
        const w0 = performance.now();
        const c0 = cpuOf(pid);
        const record = () => {
          const t = costs.get(label) ?? { ms: 0, cpuMs: 0, n: 0 };
          t.ms += performance.now() - w0;
          t.cpuMs += cpuOf(pid) - c0;
          t.n++;
          costs.set(label, t);
        };
        const result = query(...a);
        // A COPY is a stream the caller writes to, handed back as it is; it is timed until it finishes.
        if (result instanceof Writable) finished(result).then(record, record);
        // pg-pool's own calls pass a callback and get nothing back; those are not the worker's statements.
        else if (result instanceof Promise) result.then(record, record);
        return result;
      };
      return client;
    };
    const connect = pool.connect as (this: Pool) => Promise<PoolClient>;
    (pool as unknown as { connect: unknown }).connect = async () => timed(await connect.call(pool));

    const rules = new RuleVersionCache();
    const t1 = performance.now();
    const cpu0 = process.cpuUsage();
    for (;;) {
      const outcome = await applyInboxBatch({ pool, rules, stream, campaignId: fx.campaignId, floor: events, limit: apply });
      if (outcome.status !== "applied") break;
    }
    const applyMs = performance.now() - t1;
    const cpu = process.cpuUsage(cpu0);
    (pool as unknown as { connect: unknown }).connect = connect;

    const per = (ms: number) => (ms * 1000) / events;
    const statements = [...costs.entries()]
      .map(([statement, t]) => ({ statement, count: t.n, wallUs: per(t.ms), pgCpuUs: per(t.cpuMs) }))
      .sort((a, b) => b.pgCpuUs - a.pgCpuUs);
    return {
      options,
      stageUs: per(stageMs),
      applyUs: per(applyMs),
      workerCpuUs: per((cpu.user + cpu.system) / 1000),
      pgCpuUs: statements.reduce((sum, s) => sum + s.pgCpuUs, 0),
      statements,
    };
  } finally {
    await fx.drop();
  }
}

/** One line for the benchmark's notes. */
export function describeSteps(r: StepsResult): string {
  const us = (n: number) => `${n.toFixed(1)} µs`;
  const top = r.statements
    .filter((s) => s.pgCpuUs >= 0.5)
    .map((s) => `${s.statement} ${us(s.pgCpuUs)}`)
    .join(", ");
  return (
    `in-process step costs per event (${r.options.events.toLocaleString("en")} events of ${r.options.users.toLocaleString("en")} users, ` +
    `${r.options.apply.toLocaleString("en")} per transaction): staging ${us(r.stageUs)} wall; applying ${us(r.applyUs)} wall, ` +
    `of which worker CPU ${us(r.workerCpuUs)} (engine, JSON, driver) and PostgreSQL CPU ${us(r.pgCpuUs)}: ${top}`
  );
}

if (require.main === module) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const events = arg("--events", 40_000);
  const options = {
    events,
    users: arg("--users", Math.max(10, Math.min(10_000, Math.floor(events / 20)))),
    stage: arg("--stage", 1000),
    apply: arg("--apply", 20_000),
  };
  measureSteps(options).then(
    (r) => {
      const us = (n: number) => `${n.toFixed(1).padStart(7)} µs/event`;
      const lines = [
        `${events} events of ${options.users} users; staging ${options.stage} per statement, applying ${options.apply} per transaction`,
        `staging: ${us(r.stageUs)} (${Math.round(1e6 / r.stageUs)} events/s)`,
        `applying: ${us(r.applyUs)} (${Math.round(1e6 / r.applyUs)} events/s)`,
        `  worker CPU ${us(r.workerCpuUs)}, PostgreSQL backend CPU ${us(r.pgCpuUs)} (10 ms ticks)`,
        "  statement: wall time / PostgreSQL CPU (wall time includes waiting while the engine runs)",
        ...r.statements.map((s) => `  ${us(s.wallUs)} / ${us(s.pgCpuUs)}  x${s.count}  ${s.statement}`),
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
      process.exit(0);
    },
    (err) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
