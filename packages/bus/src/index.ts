import { type RawEventMessage, rawEventMessageSchema } from "@pointwise/schemas";
import {
  AckPolicy,
  type ConnectionOptions,
  connect,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  nanos,
  StorageType,
} from "nats";

import { type BusNames, busNames } from "./names";
import { createEventPublisher } from "./publisher";

export type { JsMsg } from "nats";
export { type BusNames, busNames } from "./names";
export { createEventPublisher, type EventPublisher, type PubAck } from "./publisher";

/** Options for connecting to NATS. */
export interface BusOptions {
  url: string;
  namespace: string;
  /** How long a publish waits for JetStream's acknowledgement before it fails (ms). */
  publishTimeoutMs?: number;
  name?: string;
}

/** A connected bus. */
export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: BusNames;
  /** Creates or updates the streams this service needs (file storage). */
  ensureStreams(): Promise<void>;
  /**
   * Validates and publishes a raw event and resolves only once JetStream has stored it; refuses at
   * once (bus-unavailable) while disconnected rather than buffering. `msgId` (the event id by
   * default) lets JetStream drop a repeat inside its duplicate window.
   */
  publishRawEvent(message: RawEventMessage, msgId?: string): Promise<{ seq: number; duplicate: boolean }>;
  /** True when the server answers a JetStream account-info request. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long JetStream remembers message ids to drop repeats (2 minutes, JetStream's default). */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** Connects to NATS; retries for ever in the background once connected, so a restart of NATS heals. */
export async function createBus(options: BusOptions): Promise<Bus> {
  const connectOptions: ConnectionOptions = {
    servers: options.url,
    name: options.name ?? "pointwise",
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
  };
  const nc = await connect(connectOptions);
  const jsm = await nc.jetstreamManager();
  const publishTimeout = options.publishTimeoutMs ?? 3000;
  const js = nc.jetstream({ timeout: publishTimeout });
  const names = busNames(options.namespace);
  // Created on first use: apps that only consume never open its reply subscription.
  let publisher: ReturnType<typeof createEventPublisher> | undefined;

  return {
    nc,
    js,
    jsm,
    names,
    async ensureStreams() {
      const config = {
        name: names.eventsStream,
        subjects: [names.eventsSubjects],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      };
      try {
        await jsm.streams.info(names.eventsStream);
        await jsm.streams.update(names.eventsStream, config);
      } catch (err) {
        if (!String((err as Error).message).includes("stream not found")) throw err;
        await jsm.streams.add(config);
      }
    },
    async publishRawEvent(message, msgId) {
      publisher ??= createEventPublisher(nc, names, { timeoutMs: publishTimeout });
      return publisher.publish(rawEventMessageSchema.parse(message), msgId);
    },
    async ping() {
      if (nc.isClosed()) return false;
      try {
        await jsm.getAccountInfo();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await publisher?.close();
      if (!nc.isClosed()) await nc.drain();
    },
  };
}

/** Settings of a durable pull consumer. */
export interface ConsumerOptions {
  durable: string;
  /** Redeliveries after which a message is handed to `onDeadLetter` instead of the handler. */
  maxDeliver: number;
  /** How long a message may stay unacknowledged before the server redelivers it (ms). */
  ackWaitMs: number;
  filterSubject?: string;
}

/** Creates (or updates) a durable pull consumer on the raw event stream. */
export async function ensureEventsConsumer(bus: Bus, options: ConsumerOptions): Promise<void> {
  await bus.jsm.consumers.add(bus.names.eventsStream, {
    durable_name: options.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(options.ackWaitMs),
    // The server stops redelivering after this; the worker dead-letters one delivery earlier.
    max_deliver: options.maxDeliver + 1,
    max_ack_pending: 20000,
    ...(options.filterSubject ? { filter_subject: options.filterSubject } : {}),
  });
}

/** Decodes a bus message into a raw event, or returns the reason it can never be applied. */
export function decodeRawEvent(msg: JsMsg): { ok: true; event: RawEventMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(msg.data));
  } catch {
    return { ok: false, reason: "message is not JSON" };
  }
  const parsed = rawEventMessageSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `message is not a raw event v1: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  return { ok: true, event: parsed.data };
}
