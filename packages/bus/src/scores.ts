// "Scores changed" messages on core NATS: the worker announces, readers drop what they cached.
import { RetryableError } from "@pointwise/errors";
import { type ScoresChanged, scoresChangedSchema } from "@pointwise/schemas";
import type { NatsConnection, Subscription } from "nats";

/** What to do with each "scores changed" message; an error thrown here goes to `onError`. */
export type ScoresChangedHandler = (change: ScoresChanged) => void | Promise<void>;

/** Options of a "scores changed" subscription. */
export interface ScoresSubscribeOptions {
  /** Only this campaign's messages (every campaign's by default). */
  campaignId?: string;
  /** Told about a message that is not a valid "scores changed" message, or that the handler failed on; the subscription goes on. */
  onError?(err: unknown, subject: string): void;
}

/** A running "scores changed" subscription. */
export interface ScoresSubscription {
  /** Resolves once the server has the subscription (after the connection came up); rejects if it never can. */
  ready: Promise<void>;
  /** Stops it; messages already received are still handled. */
  close(): Promise<void>;
}

/** Publishes a "scores changed" message (best effort: core NATS, nothing stored, no acknowledgement). */
export function publishScoresChanged(nc: NatsConnection, subject: string, change: ScoresChanged): void {
  try {
    nc.publish(subject, JSON.stringify(change));
  } catch (err) {
    throw new RetryableError("bus-unavailable", "event bus unavailable; the score change was not announced", { cause: err });
  }
}

/** Subscribes on `subject` once `connection` resolves, handling messages one at a time in arrival order. */
export function subscribeScoresChanged(
  connection: Promise<NatsConnection>,
  subject: string,
  handler: ScoresChangedHandler,
  options: ScoresSubscribeOptions,
): ScoresSubscription {
  const decoder = new TextDecoder();
  let sub: Subscription | undefined;
  let closed = false;

  const ready = connection.then(async (nc) => {
    if (closed) return;
    const live = nc.subscribe(subject);
    sub = live;
    void (async () => {
      for await (const msg of live) {
        try {
          await handler(scoresChangedSchema.parse(JSON.parse(decoder.decode(msg.data))));
        } catch (err) {
          options.onError?.(err, msg.subject);
        }
      }
    })();
    await nc.flush();
  });
  // A caller that never looks at `ready` must not see an unhandled rejection.
  ready.catch(() => undefined);

  return {
    ready,
    async close() {
      closed = true;
      if (sub && !sub.isClosed()) await sub.drain().catch(() => undefined);
    },
  };
}
