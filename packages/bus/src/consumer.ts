// The one durable pull consumer of the raw event stream: its settings, and the messages it hands out.
import { type RawEventMessage, rawEventMessageSchema } from "@pointwise/schemas";
import { AckPolicy, type ConsumerMessages, DeliverPolicy, type JetStreamClient, type JetStreamManager, nanos } from "nats";

/**
 * One delivery of a raw-event message. The fields are those of the NATS client's own message, so a
 * delivery is handed out as it arrives, without a wrapper per message.
 */
export interface EventDelivery {
  /** Its sequence in the stream. */
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly info: {
    readonly stream: string;
    /** How many times this message has been delivered, this delivery included. */
    readonly redeliveryCount: number;
  };
  /** Acknowledges it: the consumer's ack floor may move past it. */
  ack(): void;
  /** Acknowledges it and resolves once the server confirmed (false if it did not). */
  ackAck(): Promise<boolean>;
  /** Hands it back for redelivery, after `delayMs` when given. */
  nak(delayMs?: number): void;
  /** Tells the server never to deliver it again. */
  term(): void;
  /** Resets its ack-wait timer: still being worked on. */
  working(): void;
}

/** Settings of the durable consumer the worker replicas share. */
export interface EventsConsumerSettings {
  /** How long a message may stay unacknowledged before the server redelivers it (ms). */
  ackWaitMs: number;
  /** How many messages may be delivered and not yet acknowledged, across every replica. */
  maxAckPending: number;
}

/** How a consumer's messages are pulled. */
export interface ConsumeOptions {
  /** Messages asked for per pull request. */
  batchSize: number;
  /** How long one pull request stays open (ms). */
  expiresMs: number;
  /** Pause before pulling again after a failed pull (ms). */
  retryDelayMs: number;
  /** Told about each failed pull before it is retried. */
  onError?(err: unknown): void;
}

/** The messages of a durable consumer, as they arrive; iterate once. */
export interface EventDeliveries extends AsyncIterable<EventDelivery> {
  /** Stops pulling; the iteration ends. Messages delivered and not yet acknowledged are redelivered after ack_wait unless nak'ed. */
  stop(): void;
}

/** Where a durable consumer stands. */
export interface EventsConsumerState {
  /** The stream seq up to which every message is acknowledged. */
  ackFloor: number;
  /** Messages of the stream not yet delivered to it. */
  pending: number;
  /** Messages delivered and not yet acknowledged. */
  ackPending: number;
}

const decoder = new TextDecoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates or updates the durable pull consumer. The server never gives up on a message (max_deliver
 * -1): the worker itself dead-letters what can never be staged or applied. A consumer created earlier
 * with other settings is brought in line.
 */
export async function ensureConsumer(jsm: JetStreamManager, stream: string, name: string, settings: EventsConsumerSettings): Promise<void> {
  const update = { ack_wait: nanos(settings.ackWaitMs), max_deliver: -1, max_ack_pending: settings.maxAckPending };
  const exists = await jsm.consumers.info(stream, name).then(
    () => true,
    () => false,
  );
  if (!exists) {
    try {
      await jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ...update });
      return;
    } catch (err) {
      // Another replica created it first; fall through to bring its settings in line.
      if (!/exist|in use/i.test((err as Error).message)) throw err;
    }
  }
  await jsm.consumers.update(stream, name, update);
}

/**
 * Pulls a durable consumer's messages as soon as they are published (a pull request stays open), so a
 * lone event arrives at once rather than when a fetch window closes. A failed pull is retried after
 * `retryDelayMs`. Rejects when the consumer does not exist.
 */
export async function consume(js: JetStreamClient, stream: string, name: string, options: ConsumeOptions): Promise<EventDeliveries> {
  const consumer = await js.consumers.get(stream, name);
  let stopping = false;
  let current: ConsumerMessages | undefined;

  async function* deliveries(): AsyncGenerator<EventDelivery> {
    try {
      while (!stopping) {
        try {
          current = await consumer.consume({ max_messages: options.batchSize, expires: options.expiresMs });
          if (stopping) break;
          for await (const m of current) yield m;
        } catch (err) {
          if (stopping) break;
          options.onError?.(err);
          await sleep(options.retryDelayMs);
        }
      }
    } finally {
      current?.stop();
    }
  }

  const iterator = deliveries();
  return {
    [Symbol.asyncIterator]: () => iterator,
    stop() {
      stopping = true;
      current?.stop();
    },
  };
}

/** Where a durable consumer stands (a fresh answer from the server). */
export async function consumerState(jsm: JetStreamManager, stream: string, name: string): Promise<EventsConsumerState> {
  const info = await jsm.consumers.info(stream, name);
  return { ackFloor: info.ack_floor.stream_seq, pending: info.num_pending, ackPending: info.num_ack_pending };
}

/** Decodes a delivery into a raw event, or returns the reason it can never be applied. */
export function decodeRawEvent(delivery: { readonly data: Uint8Array }): { ok: true; event: RawEventMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(delivery.data));
  } catch {
    return { ok: false, reason: "message is not JSON" };
  }
  const parsed = rawEventMessageSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `message is not a raw event (version 1 or 2): ${parsed.error.issues[0]?.message ?? "invalid"}` };
  return { ok: true, event: parsed.data };
}
