// The intake stage: consumes the raw-event stream and stages each batch into the inbox before acknowledging it.
import { setTimeout as sleep } from "node:timers/promises";
import { type Bus, decodeRawEvent, type EventDelivery } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import { describeFailure, isEventSpecific, isTransient } from "../failures";
import { type StagedMessage, stageMessages } from "./inbox";

/** What the intake needs. */
export interface IntakeDeps {
  bus: Bus;
  db: Database;
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
  /** Called when a message went to the dead-letter table, with why: it cannot be decoded, or it cannot be staged. */
  onDeadLetter?(stage: "decode" | "stage"): void;
}

/** The running consumer side of the worker: bus messages into the inbox. */
export interface Intake {
  /** The stream seq up to which every message is acknowledged, hence staged (the consumer's ack floor). */
  floor(): Promise<number>;
  /** Stops taking messages, finishes the batch in hand (stage and ack), releases the rest (nak). */
  stop(): Promise<void>;
}

/**
 * The message's bytes as the dead-letter table's text: UTF-8, a byte sequence that is not UTF-8 as U+FFFD, and the
 * character U+0000 (which no PostgreSQL text holds) as the six characters `\u0000`, so that even such a message is
 * dead-lettered rather than redelivered for ever.
 */
function payloadText(data: Uint8Array): string {
  return Buffer.from(data).toString("utf8").replaceAll("\u0000", "\\u0000");
}

async function deadLetter(db: Database, msg: EventDelivery, error: string): Promise<void> {
  await db.query(
    `INSERT INTO dead_letter(stream, stream_seq, subject, payload, error, deliveries) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (stream, stream_seq) DO NOTHING`,
    [msg.info.stream, msg.seq, msg.subject, payloadText(msg.data), error, msg.info.redeliveryCount],
  );
}

/** Starts consuming the raw event stream into the inbox. */
export async function startIntake(deps: IntakeDeps): Promise<Intake> {
  const { bus, db, logger } = deps;
  const stream = bus.names.eventsStream;
  await bus.ensureStreams();
  await bus.ensureEventsConsumer(deps.consumerName, { ackWaitMs: deps.ackWaitMs, maxAckPending: Math.max(1000, deps.batchSize * 10) });
  const messages = await bus.consumeEvents(deps.consumerName, {
    batchSize: deps.batchSize,
    expiresMs: deps.pullExpiresMs,
    retryDelayMs: deps.retryDelayMs,
    onError: (err) => logger.warn({ err }, "consume failed; retrying"),
  });

  const buffer: EventDelivery[] = [];
  let stopping = false;
  let wake: (() => void) | undefined;
  let lastFloor = 0;
  const signal = () => {
    wake?.();
    wake = undefined;
  };

  const pump = (async () => {
    for await (const m of messages) {
      buffer.push(m);
      signal();
    }
  })();

  async function stageOneByOne(items: { msg: EventDelivery; staged: StagedMessage }[]): Promise<EventDelivery[]> {
    const done: EventDelivery[] = [];
    for (const item of items) {
      try {
        await stageMessages(db, [item.staged]);
        done.push(item.msg);
      } catch (err) {
        const deliveries = item.msg.info.redeliveryCount;
        if (isEventSpecific(err) && deliveries >= deps.maxDeliver) {
          await deadLetter(db, item.msg, describeFailure(err));
          item.msg.ack();
          deps.onDeadLetter?.("stage");
          logger.error({ stream_seq: item.msg.seq, deliveries, err }, "message dead-lettered");
        } else {
          item.msg.nak(deps.retryDelayMs);
          logger.warn({ stream_seq: item.msg.seq, deliveries, err }, "staging a message failed; it will be redelivered");
        }
      }
    }
    return done;
  }

  async function handle(batch: EventDelivery[]): Promise<void> {
    const good: { msg: EventDelivery; staged: StagedMessage }[] = [];
    for (const msg of batch) {
      const decoded = decodeRawEvent(msg);
      if (decoded.ok) {
        good.push({ msg, staged: { stream, streamSeq: msg.seq, subject: msg.subject, event: decoded.event } });
        continue;
      }
      // Bytes that are not a raw event never will be: no point in redelivering them.
      try {
        await deadLetter(db, msg, decoded.reason);
        msg.ack();
        deps.onDeadLetter?.("decode");
        logger.error({ stream_seq: msg.seq, reason: decoded.reason }, "undecodable message dead-lettered");
      } catch (err) {
        msg.nak(deps.retryDelayMs);
        logger.warn({ err }, "dead-lettering failed; the message will be redelivered");
      }
    }
    if (good.length === 0) return;
    let staged: EventDelivery[];
    try {
      await stageMessages(
        db,
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
        const state = await bus.eventsConsumerState(deps.consumerName);
        lastFloor = Math.max(lastFloor, state.ackFloor);
      } catch (err) {
        logger.debug({ err }, "consumer info failed; using the last known floor");
      }
      return lastFloor;
    },
    async stop() {
      stopping = true;
      messages.stop();
      signal();
      await loop;
      await pump;
      // Released now rather than after ack_wait, so another replica takes them at once.
      for (const m of buffer.splice(0)) m.nak();
    },
  };
}
