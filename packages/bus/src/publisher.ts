// The lean JetStream publisher of raw events: one reply inbox, acknowledgements matched by token.
import { RetryableError } from "@pointwise/errors";
import type { RawEventMessage } from "@pointwise/schemas";
import { createInbox, headers, type Msg, type NatsConnection, type Subscription } from "nats";
import type { BusNames } from "./names";

/** A JetStream acknowledgement: where the message was stored, and whether it was a repeat of a known id. */
export interface PubAck {
  seq: number;
  duplicate: boolean;
}

/** Publishes raw events to JetStream and resolves once each is stored. */
export interface EventPublisher {
  /** Publishes one message with `Nats-Msg-Id` = `msgId` (its event id by default); rejects with RetryableError `bus-unavailable`. */
  publish(message: RawEventMessage, msgId?: string): Promise<PubAck>;
  /** Waits (up to the publish timeout) for acknowledgements in flight, then fails what is left and stops. */
  close(): Promise<void>;
}

interface Pending {
  resolve(ack: PubAck): void;
  reject(err: Error): void;
  deadline: number;
}

function unavailable(reason: string, cause?: unknown): RetryableError {
  return new RetryableError("bus-unavailable", "event bus unavailable; the event was not accepted, retry later", {
    cause: cause ?? new Error(reason),
    details: { reason },
  });
}

/**
 * A lean JetStream publisher for the ingest hot path. `js.publish` costs a request object, a timer and
 * a header round of its own per message; this sends plain publishes with a reply subject under one
 * wildcard inbox, matches acknowledgements by token, and expires them with one timer. Thousands of
 * publishes of a batch are written before any acknowledgement is awaited.
 * While the connection is down it refuses at once instead of buffering: a buffered message could be
 * stored minutes after its client was told it was not accepted.
 */
export function createEventPublisher(nc: NatsConnection, names: BusNames, options: { timeoutMs: number }): EventPublisher {
  const prefix = createInbox();
  const pending = new Map<string, Pending>();
  const encoder = new TextEncoder();
  let next = 0;
  let connected = !nc.isClosed();

  const fail = (token: string, err: Error) => {
    const p = pending.get(token);
    if (p === undefined) return;
    pending.delete(token);
    p.reject(err);
  };

  const sub: Subscription = nc.subscribe(`${prefix}.*`, {
    callback: (err, msg: Msg) => {
      if (err) return;
      const token = msg.subject.slice(prefix.length + 1);
      const p = pending.get(token);
      if (p === undefined) return; // answered after its timeout: the client was already told
      pending.delete(token);
      if (msg.headers?.hasError) return p.reject(unavailable(`JetStream answered ${msg.headers.code} ${msg.headers.description}`));
      try {
        const ack = JSON.parse(new TextDecoder().decode(msg.data)) as { stream?: string; seq?: number; duplicate?: boolean; error?: { description?: string } };
        if (ack.error || typeof ack.seq !== "number" || !ack.stream) return p.reject(unavailable(`JetStream refused: ${ack.error?.description ?? "no ack"}`));
        p.resolve({ seq: ack.seq, duplicate: ack.duplicate === true });
      } catch (parseErr) {
        p.reject(unavailable("JetStream ack unreadable", parseErr));
      }
    },
  });

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [token, p] of pending) if (p.deadline <= now) fail(token, unavailable(`no JetStream ack within ${options.timeoutMs} ms`));
    },
    Math.min(100, options.timeoutMs),
  );
  sweeper.unref();

  void (async () => {
    for await (const status of nc.status()) {
      // Only a disconnect means the link is gone; an "error" status (for example a permissions
      // violation) arrives on a live connection and must not stop publishing.
      if (status.type === "disconnect") {
        connected = false;
        for (const token of [...pending.keys()]) fail(token, unavailable("NATS connection lost"));
      } else if (status.type === "reconnect") {
        connected = true;
      }
    }
  })().catch(() => undefined);

  return {
    publish(message, msgId = message.event_id) {
      if (!connected || nc.isClosed()) return Promise.reject(unavailable("NATS not connected"));
      const token = (next++).toString(36);
      return new Promise<PubAck>((resolve, reject) => {
        pending.set(token, { resolve, reject, deadline: Date.now() + options.timeoutMs });
        const h = headers();
        h.set("Nats-Msg-Id", msgId);
        try {
          nc.publish(names.eventSubject(message.campaign_id), encoder.encode(JSON.stringify(message)), { reply: `${prefix}.${token}`, headers: h });
        } catch (err) {
          fail(token, unavailable("publish failed", err));
        }
      });
    },
    async close() {
      const deadline = Date.now() + options.timeoutMs;
      while (pending.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(sweeper);
      sub.unsubscribe();
      for (const token of [...pending.keys()]) fail(token, unavailable("publisher closed"));
    },
  };
}
