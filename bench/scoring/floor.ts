// The scoring benchmark's floor: the CPU PostgreSQL and NATS alone spend to store and deliver what the
// worker stored and was delivered, with no worker. NATS: a bare consumer drains the same backlog and
// acks every message. PostgreSQL: the rows the worker wrote are copied (COPY) into empty tables of
// the same shape and indexes, and the writing backend's CPU is read from /proc.
import { pipeline } from "node:stream/promises";
import { AckPolicy, type Consumer, DeliverPolicy, type NatsConnection, nanos } from "nats";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { cpuOf, sampleCpu } from "./cpu";

/** The tables the worker stores an applied event's rows in. */
const TABLES = ["event_log", "ledger_entry", "score", "app_user", "identity", "user_state"];

/** A durable pull consumer of the whole stream with explicit acks: how the baseline and the floor read the backlog. */
export async function backlogConsumer(nc: NatsConnection, stream: string, name: string): Promise<Consumer> {
  await (await nc.jetstreamManager()).consumers.add(stream, {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(60_000),
  });
  return nc.jetstream().consumers.get(stream, name);
}

/** CPU seconds nats-server spends delivering `events` messages of `stream` to a consumer that only acks them. */
export async function natsFloor(nc: NatsConnection, stream: string, events: number): Promise<number> {
  const consumer = await backlogConsumer(nc, stream, "bench-floor");
  const cpu = sampleCpu((_pid, name) => (name === "nats-server" ? "nats" : null));
  for (let done = 0; done < events; ) {
    for await (const msg of await consumer.fetch({ max_messages: Math.min(1000, events - done), expires: 5000 })) {
      msg.ack();
      done++;
    }
  }
  // Acks are sent without waiting; a round trip makes sure the server has them all.
  await nc.flush();
  return cpu.stop().nats ?? 0;
}

/** CPU seconds of the PostgreSQL backend that COPYs the worker's rows into empty copies of its tables, and the rows copied. */
export async function postgresFloor(pool: pg.Pool): Promise<{ seconds: number; rows: number }> {
  const reader = await pool.connect();
  const writer = await pool.connect();
  try {
    const { rows } = await writer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const pid = rows[0]?.pid as number;
    // INCLUDING GENERATED: COPY TO leaves a generated column out (score.balance), so the copy must compute it again
    // as the worker's table does; without it the column is a plain one that COPY FROM finds no data for.
    for (const t of TABLES) await writer.query(`CREATE TABLE floor_${t} (LIKE ${t} INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING INDEXES)`);
    let copied = 0;
    const before = cpuOf(pid)?.ms ?? 0;
    for (const t of TABLES) {
      const into = writer.query(copyFrom(`COPY floor_${t} FROM STDIN`));
      await pipeline(reader.query(copyTo(`COPY ${t} TO STDOUT`)), into);
      copied += Number(into.rowCount);
    }
    const seconds = ((cpuOf(pid)?.ms ?? before) - before) / 1000;
    for (const t of TABLES) await writer.query(`DROP TABLE floor_${t}`);
    return { seconds, rows: copied };
  } finally {
    reader.release();
    writer.release();
  }
}
