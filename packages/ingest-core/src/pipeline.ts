// The channel-independent ingest pipeline: validate earn events, honour Idempotency-Keys, publish to the bus.
import type { Bus, EventPublisher } from "@pointwise/bus";
import type { Database } from "@pointwise/db";
import type { Logger } from "@pointwise/logger";
import { type EarnEvent, type EventSource, type RawEventMessage, validateEarnEvent } from "@pointwise/schemas";
import { type EnvelopeError, envelopeErrors, type FailureBody, failure, type Problem, success } from "./envelope";
import { eventIdForKey, newEventId } from "./event-id";
import { checkEventTime, type EventTimeLimits, type EventTimeRights } from "./event-time";
import { createEventTypeLookup, type EventTypeLookup } from "./event-types";
import { createIdempotencyStore, type IdempotencyStore } from "./idempotency";

/** The result of checking one item: the normalised event, or every problem with it. */
export type ItemCheck = { ok: true; event: EarnEvent } | { ok: false; problems: Problem[] };

/** One item of a batch answer. */
export type BatchItemResult = { ok: true; event_id: string } | { ok: false; errors: EnvelopeError[] };

/** What to answer and what happened, for the caller's response, log line and metrics. */
export interface IngestAnswer {
  body: { data: unknown } | FailureBody;
  /** The answer as sent: JSON text of `body` (for a replay, the text first sent). */
  json: string;
  /** accepted: all valid items published; partial: some publishes failed; replayed: an earlier answer; rejected: nothing published. */
  outcome: "accepted" | "partial" | "replayed" | "rejected";
  /** Distinct error codes in the answer. */
  codes: string[];
  /** Events this request published (0 for a replay). */
  published: number;
  /** Items that were refused. */
  refused: number;
}

/** An Idempotency-Key and the fingerprint of the request it came with. */
export interface IdempotencyInput {
  key: string;
  fingerprint: string;
}

/** Where events go: the key's campaign, its dates and whether the key may backfill. */
export interface IngestTarget extends EventTimeRights {
  campaignId: string;
}

/** How an event entered, and the optional Idempotency-Key of the request. */
export interface IngestOptions {
  source: EventSource;
  idempotency?: IdempotencyInput;
}

/** What the pipeline needs. */
export interface PipelineDeps {
  db: Database;
  bus: Bus;
  logger: Logger;
}

/** Settings of the pipeline. */
export interface PipelineOptions {
  /** How long an event type's registration is trusted before it is looked up again (ms). */
  lookupTtlMs?: number;
  /** How long a claimed Idempotency-Key protects a request in flight (ms). */
  idempotencyLeaseMs?: number;
  /** How long a request waits for another with the same Idempotency-Key (ms). */
  idempotencyWaitMs?: number;
  /** How long a publish waits for JetStream's acknowledgement (ms). */
  publishTimeoutMs?: number;
  /** Bounds of occurred_at (default: 5 minutes of clock skew, a day into the past for a key that may not backfill). */
  eventTime?: EventTimeLimits;
}

/** The default bounds of occurred_at: OCCURRED_AT_MAX_SKEW_MS and OCCURRED_AT_MAX_AGE_MS of ingest-api. */
export const DEFAULT_EVENT_TIME_LIMITS: EventTimeLimits = { maxSkewMs: 5 * 60_000, maxAgeMs: 86_400_000 };

/** The channel-independent ingest pipeline: validation, idempotency and durable publishing. */
export interface IngestPipeline {
  deps: PipelineDeps;
  eventTypes: EventTypeLookup;
  idempotency: IdempotencyStore;
  publisher: EventPublisher;
  /**
   * Validates items, checks their event types against the campaign and their time against the
   * target's dates and rights at `receivedAt` (ms, default now); one result per item, same order.
   */
  validateItems(target: IngestTarget, items: readonly unknown[], receivedAt?: number): Promise<ItemCheck[]>;
  /** Publishes messages concurrently and waits for every acknowledgement; one error (or null) per message. */
  publishAll(messages: readonly RawEventMessage[]): Promise<(Error | null)[]>;
  /** `POST /api/rest/earn-event`: one event. */
  ingestOne(target: IngestTarget, body: unknown, options: IngestOptions): Promise<IngestAnswer>;
  /** `POST /api/rest/earn-events`: up to 1,000 events, a result per item. */
  ingestBatch(target: IngestTarget, items: readonly unknown[], options: IngestOptions): Promise<IngestAnswer>;
  /** Waits for publishes in flight, then stops the publisher. */
  close(): Promise<void>;
}

const BUS_UNAVAILABLE: Problem = { message: "event bus unavailable; the event was not accepted, retry later", code: "bus-unavailable" };

/**
 * The bus message (version 2) of a validated event. An event with an `idempotency_key` gets the id
 * derived from it instead of `eventId`; one without `occurred_at` happened when it was received.
 */
export function toMessage(campaignId: string, event: EarnEvent, eventId: string, receivedAt: string, source: EventSource): RawEventMessage {
  return {
    v: 2,
    event_id: eventIdOf(campaignId, event, eventId),
    campaign_id: campaignId,
    account_id: event.account_id,
    identity_type: event.identity_type,
    amount: event.amount,
    reg_event_id: event.reg_event_id,
    received_at: receivedAt,
    occurred_at: event.occurred_at ?? receivedAt,
    source,
  };
}

/** The id an event is logged under: derived from its idempotency_key when it has one, else the id handed out. */
export function eventIdOf(campaignId: string, event: EarnEvent, eventId: string): string {
  return event.idempotency_key === undefined ? eventId : eventIdForKey(campaignId, event.idempotency_key);
}

function codesOf(problems: readonly Problem[]): string[] {
  return [...new Set(problems.map((p) => p.code))];
}

function rejected(problems: Problem[], refused = 1): IngestAnswer {
  return answer(failure(...problems), { outcome: "rejected", codes: codesOf(problems), published: 0, refused });
}

function answer(body: IngestAnswer["body"], rest: Omit<IngestAnswer, "body" | "json">): IngestAnswer {
  return { body, json: JSON.stringify(body), ...rest };
}

/** The answer to a batch none of whose items can be published: each item's problems. */
function noneValid(checks: readonly ItemCheck[]): IngestAnswer {
  const problems = checks.flatMap((c) => (c.ok ? [] : c.problems));
  const results: BatchItemResult[] = checks.map((c) => ({ ok: false, errors: envelopeErrors(c.ok ? [] : c.problems) }));
  return answer(success({ results }), {
    outcome: problems.length > 0 ? "rejected" : "accepted",
    codes: codesOf(problems),
    published: 0,
    refused: checks.length,
  });
}

/**
 * What becomes of a request's Idempotency-Key after its work: `complete` stores the answer for retries,
 * `release` keeps the claim's event ids for the retry of the same request (nothing or not all was published),
 * `forget` frees the key (the request was refused for what it says, so a corrected one may use it; see Claim.forget).
 */
type KeyedAnswer = IngestAnswer & { keyFate: "complete" | "release" | "forget" };

/** Creates the pipeline over a database and a bus. */
export function createIngestPipeline(deps: PipelineDeps, options: PipelineOptions = {}): IngestPipeline {
  const eventTypes = createEventTypeLookup(deps.db, options.lookupTtlMs ?? 5000);
  const leaseMs = options.idempotencyLeaseMs ?? 15_000;
  const idempotency = createIdempotencyStore(deps.db, { leaseMs, waitMs: options.idempotencyWaitMs ?? leaseMs });
  const publisher = deps.bus.eventPublisher({ timeoutMs: options.publishTimeoutMs ?? 3000 });

  const limits = options.eventTime ?? DEFAULT_EVENT_TIME_LIMITS;

  /** The checks that depend on the request alone (fields, formats): the same on every retry, so they come before its key. */
  function checkShapes(items: readonly unknown[]): ItemCheck[] {
    return items.map((item) => {
      const result = validateEarnEvent(item);
      return result.ok ? { ok: true, event: result.event } : { ok: false, problems: result.problems.map(({ message, code }) => ({ message, code })) };
    });
  }

  /**
   * The checks that depend on when and where, of items whose shape passed: event time against `receivedAt`, and
   * event types registered and not yet retired at `receivedAt`.
   */
  async function checkInTime(target: IngestTarget, shapes: readonly ItemCheck[], receivedAt: number): Promise<ItemCheck[]> {
    const checks = shapes.map((c): ItemCheck => {
      if (!c.ok) return c;
      const at = c.event.occurred_at;
      const late = checkEventTime(at === undefined ? undefined : Date.parse(at), receivedAt, target, limits);
      return late === null ? c : { ok: false, problems: [late] };
    });
    const ids = checks.flatMap((c) => (c.ok ? [c.event.reg_event_id] : []));
    if (ids.length === 0) return checks;
    const active = await eventTypes.active(target.campaignId, ids, receivedAt);
    return checks.map((c) =>
      c.ok && !active.has(c.event.reg_event_id)
        ? { ok: false, problems: [{ message: "reg_event_id is not a registered event type of this campaign", code: "unknown-event-type" }] }
        : c,
    );
  }

  async function validateItems(target: IngestTarget, items: readonly unknown[], receivedAt = Date.now()): Promise<ItemCheck[]> {
    return checkInTime(target, checkShapes(items), receivedAt);
  }

  async function publishAll(messages: readonly RawEventMessage[]): Promise<(Error | null)[]> {
    // Every publish is sent before any acknowledgement is awaited, so a batch costs about one round trip.
    const settled = await Promise.allSettled(messages.map((m) => publisher.publish(m)));
    return settled.map((s) => (s.status === "fulfilled" ? null : (s.reason as Error)));
  }

  /** Runs `work` under the request's Idempotency-Key (if any), storing, releasing or forgetting the claim by its outcome. */
  async function underKey(
    target: IngestTarget,
    count: number,
    input: IdempotencyInput | undefined,
    work: (eventIds: string[], receivedAt: string, target: IngestTarget) => Promise<KeyedAnswer>,
  ): Promise<IngestAnswer> {
    if (input === undefined) {
      const now = Date.now();
      return work(
        Array.from({ length: count }, () => newEventId(now)),
        new Date(now).toISOString(),
        target,
      );
    }
    const { campaignId, backfill, startsAt, endsAt } = target;
    const claim = await idempotency.claim(campaignId, input.key, input.fingerprint, count, { backfill, startsAt, endsAt });
    switch (claim.kind) {
      case "replay":
        return { body: JSON.parse(claim.response) as IngestAnswer["body"], json: claim.response, outcome: "replayed", codes: [], published: 0, refused: 0 };
      case "reused":
        return rejected([{ message: "Idempotency-Key was already used with a different request in the last 24 hours", code: "idempotency-key-reused" }]);
      case "in-progress":
        return rejected([{ message: "a request with this Idempotency-Key is still in progress; retry later", code: "idempotency-key-in-progress" }]);
      case "owner":
        break;
    }
    let result: KeyedAnswer;
    try {
      result = await work(claim.eventIds, claim.receivedAt, { campaignId, ...claim.rights });
    } catch (err) {
      await claim.release().catch(() => undefined);
      throw err;
    }
    if (result.keyFate === "release") {
      await claim.release().catch((err: unknown) => deps.logger.warn({ err }, "could not release an Idempotency-Key"));
      return result;
    }
    if (result.keyFate === "forget") {
      // Unlike a release, a forget that fails is answered: the refusal would tell the client to fix the body and
      // send it again with the key, which stays claimed; service-unavailable (retry) is what it can act on.
      await claim.forget();
      return result;
    }
    // The events are in the stream whatever happens here: a failed write only means a retry
    // republishes the same event ids once the lease ends, and the repeats are dropped downstream.
    await claim.complete(result.json).catch((err: unknown) => deps.logger.warn({ err }, "could not store an Idempotency-Key answer"));
    return result;
  }

  return {
    deps,
    eventTypes,
    idempotency,
    publisher,
    validateItems,
    publishAll,
    close: () => publisher.close(),
    // Both channels check the request under its key, at the time the key was first claimed and by the campaign's
    // dates and the key's rights of that time: a retry of a request that was answered gets that answer back even when
    // it would now be refused (the campaign ended since, or occurred_at fell out of the window), and a retry that takes
    // over an abandoned claim is judged as it was.
    async ingestOne(target, body, options) {
      const campaignId = target.campaignId;
      const [shape] = checkShapes([body]);
      if (shape === undefined || !shape.ok) return rejected(shape?.problems ?? []);
      return underKey(target, 1, options.idempotency, async ([eventId], receivedAt, judgedBy) => {
        const [check] = await checkInTime(judgedBy, [shape], Date.parse(receivedAt));
        if (check === undefined || !check.ok) return { ...rejected(check?.problems ?? []), keyFate: "forget" };
        const { event } = check;
        const message = toMessage(campaignId, event, eventId as string, receivedAt, options.source);
        const id = message.event_id;
        const [error] = await publishAll([message]);
        if (error) {
          deps.logger.warn({ err: error.cause ?? error, campaign_id: campaignId }, "publish failed");
          return { ...rejected([BUS_UNAVAILABLE]), keyFate: "release" };
        }
        return {
          ...answer(success({ event_id: id, received_at: receivedAt }), { outcome: "accepted", codes: [], published: 1, refused: 0 }),
          keyFate: "complete",
        };
      });
    },
    async ingestBatch(target, items, options) {
      const campaignId = target.campaignId;
      const shapes = checkShapes(items);
      // Nothing to publish, so nothing to remember: the same batch can be resent once it is fixed.
      if (!shapes.some((c) => c.ok)) return noneValid(shapes);
      return underKey(target, items.length, options.idempotency, async (eventIds, receivedAt, judgedBy) => {
        const checks = await checkInTime(judgedBy, shapes, Date.parse(receivedAt));
        const valid = checks.flatMap((c, i) => (c.ok ? [i] : []));
        const problems = checks.flatMap((c) => (c.ok ? [] : c.problems));
        const refusedItems = checks.length - valid.length;
        if (valid.length === 0) return { ...noneValid(checks), keyFate: "forget" };
        const messages = valid.map((i) => toMessage(campaignId, (checks[i] as { event: EarnEvent }).event, eventIds[i] as string, receivedAt, options.source));
        const errors = await publishAll(messages);
        const failed = errors.filter((e) => e !== null).length;
        if (failed > 0) {
          deps.logger.warn({ err: errors.find((e) => e !== null), campaign_id: campaignId, failed, of: messages.length }, "publish failed");
        }
        // A retry under the same key republishes the same ids, so the whole batch is refused and retried;
        // without a key only the failed items are marked, since resending the rest would duplicate them.
        if (failed === messages.length || (failed > 0 && options.idempotency !== undefined)) {
          return { ...rejected([BUS_UNAVAILABLE], items.length), keyFate: "release" };
        }
        const failedAt = new Set(valid.filter((_, k) => errors[k] !== null));
        const results: BatchItemResult[] = checks.map((c, i) => {
          if (!c.ok) return { ok: false, errors: envelopeErrors(c.problems) };
          if (failedAt.has(i)) return { ok: false, errors: envelopeErrors([BUS_UNAVAILABLE]) };
          return { ok: true, event_id: eventIdOf(campaignId, c.event, eventIds[i] as string) };
        });
        const allProblems = failed > 0 ? [...problems, BUS_UNAVAILABLE] : problems;
        return {
          ...answer(success({ results }), {
            outcome: failed > 0 ? "partial" : "accepted",
            codes: codesOf(allProblems),
            published: messages.length - failed,
            refused: refusedItems + failed,
          }),
          keyFate: failed === 0 ? "complete" : "release",
        };
      });
    },
  };
}
