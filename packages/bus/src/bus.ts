// The connected bus: every operation the services perform on NATS, by name; the connection stays inside.
import { NotFoundError, RetryableError } from "@pointwise/errors";
import { type RawEventMessage, rawEventMessageSchema, type ScoresChanged } from "@pointwise/schemas";
import { type ConnectionOptions, connect, Events, type JetStreamManager, type NatsConnection, nanos, StorageType } from "nats";
import {
  type ConsumeOptions,
  consume,
  consumerState,
  type EventDeliveries,
  type EventsConsumerSettings,
  type EventsConsumerState,
  ensureConsumer,
} from "./consumer";
import { type BusNames, busNames } from "./names";
import { createEventPublisher, type EventPublisher, type PubAck } from "./publisher";
import {
  publishScoresChanged as publishChange,
  type ScoresChangedHandler,
  type ScoresSubscribeOptions,
  type ScoresSubscription,
  subscribeScoresChanged as subscribeChanges,
} from "./scores";

/** Options for connecting to NATS. */
export interface BusOptions {
  /** A NATS server, or several of one cluster separated by commas (`nats://a:4222,nats://b:4222`). */
  url: string;
  namespace: string;
  /** How long a publish waits for JetStream's acknowledgement before it fails (ms). */
  publishTimeoutMs?: number;
  name?: string;
  /**
   * How the first connection is made: `wait` (the default) retries until NATS answers; `once` makes one
   * attempt (at most `connectTimeoutMs`) and rejects with `bus-unavailable` when it fails or the server
   * has no JetStream, so a start-up loop can log and retry it; `background` resolves at once and keeps
   * trying, for a service that starts and serves while NATS is away: until connected, `ping` answers
   * false, subscriptions wait for the connection and every other operation fails with bus-unavailable.
   * Once connected, every mode reconnects by itself.
   */
  firstConnect?: "wait" | "once" | "background";
  /** How long one connection attempt may take with `firstConnect: "once"` (ms, default 5000). */
  connectTimeoutMs?: number;
  /**
   * Copies of the raw event stream JetStream keeps (1 to 5; an odd number survives a minority of nodes
   * down). Unset: a new stream gets 3 on a cluster and 1 on a single server, and an existing stream keeps
   * its count, so apps started with different settings never flip it back and forth.
   */
  streamReplicas?: number;
}

/** Where a dropped score-change announcement is reported: a pino logger, or anything with its `warn(object, message)`. */
export interface AnnounceLogger {
  warn(context: object, message: string): void;
}

/** The raw event stream as the server reports it. */
export interface EventsStreamState {
  name: string;
  /** Messages stored. */
  messages: number;
  firstSeq: number;
  lastSeq: number;
}

/** A message as the raw event stream stores it. */
export interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  /** The payload parsed as JSON (not validated). */
  json<T = unknown>(): T;
}

/**
 * A connection to NATS with the streams, subjects and messages of one namespace. While the connection
 * is lost and the client reconnects, every request to JetStream's API (streams, consumers, their
 * state, `ping`, `checkConnection`) is refused at once with `bus-unavailable` rather than held until
 * it times out.
 */
export interface Bus {
  names: BusNames;
  /** Creates or updates the streams this service needs (file storage). */
  ensureStreams(): Promise<void>;
  /** The raw event stream's replica count and, on a cluster, its leader and the other peers (whether each is current). */
  streamReplicas(): Promise<{ replicas: number; leader: string | undefined; peers: { name: string; current: boolean }[] }>;
  /** Deletes the raw event stream and every message in it; nothing happens when there is none. */
  deleteStreams(): Promise<void>;
  /** The raw event stream's size and sequence range; rejects with `stream-not-found` when it does not exist. */
  eventsStreamState(): Promise<EventsStreamState>;
  /** The stored message at `seq` of the raw event stream. */
  storedEvent(seq: number): Promise<StoredMessage>;
  /** Every message the raw event stream holds, oldest first (one request per message: for tests and tools). */
  storedEvents(): Promise<StoredMessage[]>;
  /**
   * Validates and publishes a raw event and resolves only once JetStream has stored it; refuses at
   * once (bus-unavailable) while disconnected rather than buffering. `msgId` (the event id by
   * default) lets JetStream drop a repeat inside its duplicate window.
   */
  publishRawEvent(message: RawEventMessage, msgId?: string): Promise<PubAck>;
  /**
   * A publisher of raw events the caller has already validated, for the ingest hot path: no work per
   * message beyond the publish itself (see publisher.ts). Close it when done; the bus stays open.
   */
  eventPublisher(options?: { timeoutMs?: number }): EventPublisher;
  /**
   * Publishes `data` on `subject` as it is, without validation or acknowledgement (JetStream stores it
   * when a stream takes the subject). Producers use the typed publishers; this lets a test send what no
   * producer should.
   */
  publishBytes(subject: string, data: string | Uint8Array): Promise<void>;
  /** Creates or updates the durable consumer of the raw event stream the worker replicas share (see consumer.ts). */
  ensureEventsConsumer(name: string, settings: EventsConsumerSettings): Promise<void>;
  /** The messages of the durable consumer `name`, as they arrive; rejects when it does not exist. */
  consumeEvents(name: string, options: ConsumeOptions): Promise<EventDeliveries>;
  /** Where the durable consumer `name` stands (ack floor, pending). */
  eventsConsumerState(name: string): Promise<EventsConsumerState>;
  /** Deletes the durable consumer `name`. */
  deleteEventsConsumer(name: string): Promise<void>;
  /** Announces that a campaign's scores changed (best effort, core NATS); throws bus-unavailable when it cannot be handed to the connection. */
  publishScoresChanged(change: ScoresChanged): void;
  /**
   * Publishes like `publishScoresChanged` for a caller whose change has already committed and must not
   * fail because of the announcement: when it cannot be handed to the connection (NATS away, bus
   * closed) it is dropped with one warning on `logger` naming the campaign and reason, and readers
   * catch up within their cache window. Returns whether it was handed over.
   */
  announceScoresChanged(change: ScoresChanged, logger: AnnounceLogger): boolean;
  /** Calls `handler` with each valid "scores changed" message (every campaign's, or one campaign's). */
  subscribeScoresChanged(handler: ScoresChangedHandler, options?: ScoresSubscribeOptions): ScoresSubscription;
  /** True when the server answers a JetStream account-info request. */
  ping(): Promise<boolean>;
  /** Resolves when the server answers a JetStream account-info request now; rejects with `bus-unavailable` (its cause saying why) otherwise. */
  checkConnection(): Promise<void>;
  close(): Promise<void>;
}

/** How long JetStream remembers message ids to drop repeats (2 minutes, JetStream's default). */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** bus-unavailable before the first connection (the default message) or while a lost one is being restored. */
const notConnected = (message = "event bus unavailable: NATS is not connected yet") =>
  new RetryableError("bus-unavailable", message, { details: { reason: "NATS not connected" } });
const isStreamMissing = (err: unknown) => String((err as Error)?.message).includes("stream not found");

const unreachable = (cause: unknown) =>
  new RetryableError("bus-unavailable", "event bus unavailable: NATS could not be reached", {
    cause,
    details: { reason: String((cause as Error)?.message ?? cause) },
  });

/**
 * Connects to NATS; retries for ever in the background once connected, so a restart of NATS heals.
 * See `firstConnect` for how the first connection is made.
 */
export async function createBus(options: BusOptions): Promise<Bus> {
  const mode = options.firstConnect ?? "wait";
  const connectOptions: ConnectionOptions = {
    // A cluster is given as a comma-separated list of its servers; the client fails over between them.
    servers: options.url.split(",").map((u) => u.trim()),
    name: options.name ?? "pointwise",
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // Without it, connect() rejects on the first refused attempt instead of retrying inside.
    waitOnFirstConnect: mode !== "once",
    ...(mode === "once" ? { timeout: options.connectTimeoutMs ?? 5000 } : {}),
  };
  const publishTimeout = options.publishTimeoutMs ?? 3000;
  const names = busNames(options.namespace);
  const connection = connect(connectOptions);
  let nc: NatsConnection | undefined;
  let closed = false;
  let manager: Promise<JetStreamManager> | undefined;
  // Created on first use: apps that only consume never open its reply subscription.
  let publisher: EventPublisher | undefined;
  const subscriptions = new Set<ScoresSubscription>();

  // Whether the connection is up, from its status events: nats.js holds a request made while it
  // reconnects until the request times out, and a scrape or readiness probe must be answered now.
  let up = false;
  const followStatus = async (conn: NatsConnection) => {
    up = true;
    const events = conn.status()[Symbol.asyncIterator]();
    // No status event follows the close: without this the loop would wait for one for ever.
    const ended = conn.closed().then(() => undefined);
    for (;;) {
      const next = await Promise.race([events.next(), ended]);
      if (next === undefined || next.done) return;
      if (next.value.type === Events.Disconnect) up = false;
      else if (next.value.type === Events.Reconnect) up = true;
    }
  };

  const connected = connection.then((conn) => {
    nc = conn;
    if (closed) void conn.close();
    else void followStatus(conn).catch(() => undefined);
    return conn;
  });
  const link = (): NatsConnection => {
    if (nc === undefined || closed) throw notConnected();
    return nc;
  };
  const jsm = (): Promise<JetStreamManager> => {
    const conn = link();
    if (!up) throw notConnected("event bus unavailable: the connection to NATS is lost and being restored");
    if (manager === undefined) {
      const made = conn.jetstreamManager();
      manager = made;
      // Asked again next time: a failure while NATS is away must not stick.
      made.catch(() => {
        if (manager === made) manager = undefined;
      });
    }
    return manager;
  };
  const message = (m: { seq: number; subject: string; data: Uint8Array; json<T>(): T }): StoredMessage => ({
    seq: m.seq,
    subject: m.subject,
    data: m.data,
    json: <T>() => m.json<T>(),
  });

  if (mode === "background") connected.catch(() => undefined);
  else if (mode === "once") {
    try {
      await connected;
      await jsm();
    } catch (err) {
      closed = true;
      if (nc && !nc.isClosed()) await nc.close().catch(() => undefined);
      throw unreachable(err);
    }
  } else {
    await connected;
    // Fails at start when the server has no JetStream, rather than on the first publish.
    await jsm();
  }

  const bus: Bus = {
    names,
    async ensureStreams() {
      const config = {
        name: names.eventsStream,
        subjects: [names.eventsSubjects],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      };
      const m = await jsm();
      let existing: number | undefined;
      try {
        existing = (await m.streams.info(names.eventsStream)).config.num_replicas;
      } catch (err) {
        if (!isStreamMissing(err)) throw err;
      }
      if (existing !== undefined) {
        await m.streams.update(names.eventsStream, { ...config, num_replicas: options.streamReplicas ?? existing });
        return;
      }
      const clustered = (link().info?.cluster ?? "") !== "";
      await m.streams.add({ ...config, num_replicas: options.streamReplicas ?? (clustered ? 3 : 1) }).catch(async (err: unknown) => {
        // Another replica of an app created it in between: bring it in line instead.
        if (!String((err as Error)?.message).includes("already in use")) throw err;
        await bus.ensureStreams();
      });
    },
    async streamReplicas() {
      const info = await (await jsm()).streams.info(names.eventsStream);
      return {
        replicas: info.config.num_replicas,
        leader: info.cluster?.leader,
        peers: (info.cluster?.replicas ?? []).map((r) => ({ name: r.name, current: r.current })),
      };
    },
    async deleteStreams() {
      await (await jsm()).streams.delete(names.eventsStream).catch((err: unknown) => {
        if (!isStreamMissing(err)) throw err;
      });
    },
    async eventsStreamState() {
      try {
        const { config, state } = await (await jsm()).streams.info(names.eventsStream);
        return { name: config.name, messages: state.messages, firstSeq: state.first_seq, lastSeq: state.last_seq };
      } catch (err) {
        if (isStreamMissing(err)) throw new NotFoundError(`stream not found: ${names.eventsStream}`, { code: "stream-not-found", cause: err });
        throw err;
      }
    },
    async storedEvent(seq) {
      return message(await (await jsm()).streams.getMessage(names.eventsStream, { seq }));
    },
    async storedEvents() {
      const state = await bus.eventsStreamState();
      const out: StoredMessage[] = [];
      if (state.messages === 0) return out;
      for (let seq = state.firstSeq; seq <= state.lastSeq; seq++) out.push(await bus.storedEvent(seq));
      return out;
    },
    async publishRawEvent(event, msgId) {
      publisher ??= createEventPublisher(link(), names, { timeoutMs: publishTimeout });
      return publisher.publish(rawEventMessageSchema.parse(event), msgId);
    },
    eventPublisher(publisherOptions = {}) {
      return createEventPublisher(link(), names, { timeoutMs: publisherOptions.timeoutMs ?? publishTimeout });
    },
    async publishBytes(subject, data) {
      const conn = link();
      conn.publish(subject, data);
      await conn.flush();
    },
    async ensureEventsConsumer(name, settings) {
      await ensureConsumer(await jsm(), names.eventsStream, name, settings);
    },
    async consumeEvents(name, consumeOptions) {
      return consume(link().jetstream({ timeout: publishTimeout }), names.eventsStream, name, consumeOptions);
    },
    async eventsConsumerState(name) {
      return consumerState(await jsm(), names.eventsStream, name);
    },
    async deleteEventsConsumer(name) {
      await (await jsm()).consumers.delete(names.eventsStream, name);
    },
    publishScoresChanged(change) {
      publishChange(link(), names.scoresSubject(change.campaign_id), change);
    },
    announceScoresChanged(change, logger) {
      try {
        publishChange(link(), names.scoresSubject(change.campaign_id), change);
        return true;
      } catch (err) {
        logger.warn(
          { err, campaign_id: change.campaign_id, reason: change.reason },
          "publishing a score change failed; readers catch up within their cache window",
        );
        return false;
      }
    },
    subscribeScoresChanged(handler, subscribeOptions = {}) {
      const subject = subscribeOptions.campaignId === undefined ? names.scoresSubjects : names.scoresSubject(subscribeOptions.campaignId);
      const subscription = subscribeChanges(connected, subject, handler, subscribeOptions);
      subscriptions.add(subscription);
      return {
        ready: subscription.ready,
        async close() {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },
    async ping() {
      if (closed || nc === undefined || nc.isClosed()) return false;
      try {
        await (await jsm()).getAccountInfo();
        return true;
      } catch {
        return false;
      }
    },
    async checkConnection() {
      try {
        await (await jsm()).getAccountInfo();
      } catch (err) {
        throw err instanceof RetryableError ? err : unreachable(err);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const subscription of subscriptions) await subscription.close();
      subscriptions.clear();
      await publisher?.close();
      if (nc && !nc.isClosed()) await nc.drain();
    },
  };
  return bus;
}
