import { setTimeout as sleep } from "node:timers/promises";
import { type Bus, decodeRawEvent, type JsMsg } from "@pointwise/bus";
import type { Logger } from "@pointwise/logger";
import { AckPolicy, type ConsumerMessages, DeliverPolicy, nanos } from "nats";
import type { Pool } from "pg";
import { describeFailure, isEventSpecific, isTransient } from "./failures";
import { type StagedMessage, stageMessages } from "./inbox";

/** What the intake needs. */
export interface IntakeDeps {
  bus: Bus;
  pool: Pool;
  logger: Logger;
  consumerName: string;
  /** Messages staged per transaction. */
  batchSize: number;
  ackWaitMs: number;
  /** How long one pull request of the consume loop stays open (ms). */
  pullExpiresMs: number;
  /** Deliveries after which a message that cannot be staged goes to the dead-letter table. */
  maxDeliver: number;
  /** Redelivery delay after a failed attempt (ms). */
  retryDelayMs: number;
  /** Called after a batch was staged and acknowledged. */
  onStaged(count: number): void;
}

/** The running consumer side of the worker: bus messages into the inbox. */
export interface Intake {
  /** The stream seq up to which every message is acknowledged, hence staged (the consumer's ack floor). */
  floor(): Promise<number>;
  /** Stops taking messages, finishes the batch in hand (stage and ack), releases the rest (nak). */
  stop(): Promise<void>;
}

/**
 * Creates or updates the durable pull consumer the replicas share. The server never gives up on a
 * message (max_deliver -1): the worker itself dead-letters what can never be staged or applied.
 */
export async function ensureConsumer(bus: Bus, name: string, ackWaitMs: number, maxAckPending: number): Promise<void> {
  const stream = bus.names.eventsStream;
  const update = { ack_wait: nanos(ackWaitMs), max_deliver: -1, max_ack_pending: maxAckPending };
  const exists = await bus.jsm.consumers.info(stream, name).then(
    () => true,
    () => false,
  );
  if (!exists) {
    try {
      await bus.jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ...update });
      return;
    } catch (err) {
      // Another replica created it first; fall through to bring its settings in line.
      if (!/exist|in use/i.test((err as Error).message)) throw err;
    }
  }
  await bus.jsm.consumers.update(stream, name, update);
}

async function deadLetter(pool: Pool, msg: JsMsg, error: string): Promise<void> {
  await pool.query(
    `INSERT INTO dead_letter(stream, stream_seq, subject, payload, error, deliveries) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (stream, stream_seq) DO NOTHING`,
    [msg.info.stream, msg.seq, msg.subject, Buffer.from(msg.data).toString("utf8"), error, msg.info.redeliveryCount],
  );
}

/** Starts consuming the raw event stream into the inbox. */
export async function startIntake(deps: IntakeDeps): Promise<Intake> {
  const { bus, pool, logger } = deps;
  const stream = bus.names.eventsStream;
  await bus.ensureStreams();
  await ensureConsumer(bus, deps.consumerName, deps.ackWaitMs, Math.max(1000, deps.batchSize * 10));
  const consumer = await bus.js.consumers.get(stream, deps.consumerName);

  const buffer: JsMsg[] = [];
  let stopping = false;
  let messages: ConsumerMessages | undefined;
  let wake: (() => void) | undefined;
  let lastFloor = 0;
  const signal = () => {
    wake?.();
    wake = undefined;
  };

  // Messages arrive as soon as they are published (consume keeps a pull request open), so a lone
  // event is staged at once rather than when a fetch window closes.
  const pump = (async () => {
    while (!stopping) {
      try {
        messages = await consumer.consume({ max_messages: deps.batchSize, expires: deps.pullExpiresMs });
        for await (const m of messages) {
          buffer.push(m);
          signal();
        }
      } catch (err) {
        if (stopping) break;
        logger.warn({ err }, "consume failed; retrying");
        await sleep(deps.retryDelayMs);
      }
    }
  })();

  async function stageOneByOne(items: { msg: JsMsg; staged: StagedMessage }[]): Promise<JsMsg[]> {
    const done: JsMsg[] = [];
    for (const item of items) {
      try {
        await stageMessages(pool, [item.staged]);
        done.push(item.msg);
      } catch (err) {
        const deliveries = item.msg.info.redeliveryCount;
        if (isEventSpecific(err) && deliveries >= deps.maxDeliver) {
          await deadLetter(pool, item.msg, describeFailure(err));
          item.msg.ack();
          logger.error({ stream_seq: item.msg.seq, deliveries, err }, "message dead-lettered");
        } else {
          item.msg.nak(deps.retryDelayMs);
          logger.warn({ stream_seq: item.msg.seq, deliveries, err }, "staging a message failed; it will be redelivered");
        }
      }
    }
    return done;
  }

  async function handle(batch: JsMsg[]): Promise<void> {
    const good: { msg: JsMsg; staged: StagedMessage }[] = [];
    for (const msg of batch) {
      const decoded = decodeRawEvent(msg);
      if (decoded.ok) {
        good.push({ msg, staged: { stream, streamSeq: msg.seq, subject: msg.subject, event: decoded.event } });
        continue;
      }
      // Bytes that are not a raw event never will be: no point in redelivering them.
      try {
        await deadLetter(pool, msg, decoded.reason);
        msg.ack();
        logger.error({ stream_seq: msg.seq, reason: decoded.reason }, "undecodable message dead-lettered");
      } catch (err) {
        msg.nak(deps.retryDelayMs);
        logger.warn({ err }, "dead-lettering failed; the message will be redelivered");
      }
    }
    if (good.length === 0) return;
    let staged: JsMsg[];
    try {
      await stageMessages(
        pool,
        good.map((g) => g.staged),
      );
      staged = good.map((g) => g.msg);
    } catch (err) {
      if (!isEventSpecific(err)) {
        for (const g of good) g.msg.nak(deps.retryDelayMs);
        if (isTransient(err)) logger.warn({ err, size: good.length }, "staging failed; the batch will be redelivered");
        else logger.error({ err, size: good.length }, "staging failed for a reason that is not about one message; the batch will be redelivered");
        await sleep(deps.retryDelayMs);
        return;
      }
      logger.warn({ err, size: good.length }, "staging a batch failed; staging its messages one by one");
      staged = await stageOneByOne(good);
    }
    const last = staged.pop();
    for (const m of staged) m.ack();
    // Waiting for the server to confirm the last ack lets the applier see the new floor right away.
    if (last) await last.ackAck().catch(() => false);
    const count = staged.length + (last ? 1 : 0);
    logger.debug({ count, first_seq: batch[0]?.seq }, "messages staged");
    deps.onStaged(count);
  }

  const loop = (async () => {
    while (!stopping) {
      if (buffer.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      try {
        await handle(buffer.splice(0, deps.batchSize));
      } catch (err) {
        logger.error({ err }, "handling a batch failed; its unacknowledged messages will be redelivered");
      }
    }
  })();

  return {
    async floor() {
      try {
        const info = await consumer.info(false);
        lastFloor = Math.max(lastFloor, info.ack_floor.stream_seq);
      } catch (err) {
        logger.debug({ err }, "consumer info failed; using the last known floor");
      }
      return lastFloor;
    },
    async stop() {
      stopping = true;
      messages?.stop();
      signal();
      await loop;
      await pump;
      // Released now rather than after ack_wait, so another replica takes them at once.
      for (const m of buffer.splice(0)) m.nak();
    },
  };
}
