import { type Bus, type JsMsg, decodeRawEvent, ensureEventsConsumer } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import type { RawEventMessage } from "@pointwise/schemas";
import { applyBatch } from "./apply";
import type { Env } from "./env";

/** What the worker needs. */
export interface WorkerDeps {
  env: Env;
  logger: Logger;
  db: Database;
  bus: Bus;
}

/** A running consume loop. */
export interface Worker {
  /** Resolves when the loop has stopped after `stop()`. */
  done: Promise<void>;
  /** Stops fetching, finishes the batch in hand (commit and ack), then resolves. */
  stop(): Promise<void>;
  /** Events applied since start (new to the log). */
  stats(): { applied: number; deadLettered: number; batches: number };
}

async function deadLetter(deps: WorkerDeps, msg: JsMsg, error: string): Promise<void> {
  await deps.db.pool.query(
    `INSERT INTO dead_letter(stream, stream_seq, subject, payload, error, deliveries) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (stream, stream_seq) DO NOTHING`,
    [msg.info.stream, msg.seq, msg.subject, Buffer.from(msg.data).toString("utf8"), error, msg.info.redeliveryCount],
  );
  msg.ack();
  deps.logger.warn({ stream_seq: msg.seq, deliveries: msg.info.redeliveryCount, error }, "message dead-lettered");
}

async function applyInTransaction(deps: WorkerDeps, events: RawEventMessage[]): Promise<number> {
  const client = await deps.db.pool.connect();
  try {
    await client.query("BEGIN");
    const applied = await applyBatch(client, events);
    await client.query("COMMIT");
    return applied;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Starts consuming the raw event stream with the shared durable consumer. */
export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { env, logger, bus } = deps;
  await bus.ensureStreams();
  await ensureEventsConsumer(bus, { durable: env.CONSUMER_NAME, maxDeliver: env.MAX_DELIVER, ackWaitMs: env.ACK_WAIT_MS });
  const consumer = await bus.js.consumers.get(bus.names.eventsStream, env.CONSUMER_NAME);
  let stopping = false;
  const stats = { applied: 0, deadLettered: 0, batches: 0 };

  async function handle(messages: JsMsg[]): Promise<void> {
    const good: { msg: JsMsg; event: RawEventMessage }[] = [];
    for (const msg of messages) {
      const decoded = decodeRawEvent(msg);
      if (decoded.ok) good.push({ msg, event: decoded.event });
      else {
        await deadLetter(deps, msg, decoded.reason);
        stats.deadLettered++;
      }
    }
    if (good.length === 0) return;
    try {
      stats.applied += await applyInTransaction(deps, good.map((g) => g.event));
      for (const g of good) g.msg.ack();
      stats.batches++;
      return;
    } catch (err) {
      logger.warn({ err, size: good.length }, "batch failed; retrying its messages one by one");
    }
    // One bad message must not hold back the rest: apply each alone, and dead-letter the ones that keep failing.
    for (const g of good) {
      try {
        stats.applied += await applyInTransaction(deps, [g.event]);
        g.msg.ack();
      } catch (err) {
        if (g.msg.info.redeliveryCount >= env.MAX_DELIVER) {
          await deadLetter(deps, g.msg, (err as Error).message).catch((e) => logger.error({ err: e }, "dead-letter failed"));
          stats.deadLettered++;
        } else {
          g.msg.nak(Math.min(1000 * 2 ** g.msg.info.redeliveryCount, 30_000));
        }
      }
    }
  }

  const done = (async () => {
    while (!stopping) {
      try {
        const batch: JsMsg[] = [];
        const iter = await consumer.fetch({ max_messages: env.BATCH_SIZE, expires: env.FETCH_EXPIRES_MS });
        for await (const msg of iter) batch.push(msg);
        if (batch.length > 0) await handle(batch);
      } catch (err) {
        if (stopping) break;
        logger.warn({ err }, "fetch failed; retrying");
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  return {
    done,
    async stop() {
      stopping = true;
      await done;
    },
    stats: () => ({ ...stats }),
  };
}
