// The Pointwise API sink: sends rows as earn events from a state-store outbox with stable idempotency keys.
import { createHash } from "node:crypto";
import { BaseError, RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import type { EarnMapping } from "../config/schema";
import type { OutputRow } from "../rows";
import type { SinkOutbox } from "../state/outbox";
import { invalidApiKey } from "../symptoms";
import { retryAfterMs, retryTransient } from "../util/retry";
import { type EarnEvent, toEarnEvent } from "./earn";
import { GATEWAY_TRANSIENT, gatewayFailure } from "./pointwise-key";
import type { Sink } from "./sink";

/** Settings of the Pointwise API sink. */
export interface PointwiseSinkOptions {
  id: string;
  baseUrl: string;
  apiKey: string;
  /** Most events per request; the run sends fewer once the ingest API refuses a chunk as too large. */
  batchSize: number;
  events: Readonly<Record<string, EarnMapping>>;
  /** Where mapped events wait until they are sent (in the state store, so a restart resumes them). */
  outbox: SinkOutbox;
  /** Makes idempotency keys unique per indexer and config. */
  scope: string;
  logger: Logger;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Attempts for one request before the run stops (the batch is resent with the same key on restart). */
  maxAttempts?: number;
  /** Called for every failed attempt, retried or not (the indexer's sink-errors metric counts them). */
  onError?: () => void;
  signal?: AbortSignal;
}

interface ApiError {
  message?: string;
  extensions?: { code?: string };
}
interface ApiBody {
  data?: { results?: ({ ok: true; event_id?: string } | { ok: false; errors?: ApiError[] })[] } | null;
  errors?: ApiError[];
}

// Transient answers of the ingest API: the same chunk is sent again with the same Idempotency-Key. `internal` accepted
// nothing (the API releases the key's claim and keeps its event ids), so resending it is as safe as the others.
const RETRY_CODES = new Set(["rate-limited", "bus-unavailable", "idempotency-key-in-progress", "service-unavailable", "starting", "internal"]);
const AUTH_CODES = new Set(["invalid-api-key", "missing-api-key"]);
// The chunk was too large for the ingest API's limits (BATCH_MAX_EVENTS, BATCH_BODY_LIMIT_BYTES), which it checks
// before the Idempotency-Key: nothing was recorded, and smaller chunks can pass where resending it never would.
const TOO_LARGE_CODES = new Set(["too-many-events", "payload-too-large"]);

/** What one answer of the ingest API means for the chunk: sent, too large to pass, or worth another attempt. */
type Verdict = { kind: "sent" } | { kind: "too-large"; code: string } | { kind: "retry"; failure: string };

/** The error of a sink stopped by its signal between attempts; the unacknowledged chunk is sent again on restart. */
const interrupted = () => new RetryableError("pointwise-api-interrupted", "stopped while sending earn events; the batch is resent on restart");

/** The Idempotency-Key of the outbox chunk [from, to]: the same chunk always gets the same key. */
export function idempotencyKey(scope: string, sinkId: string, from: number, to: number): string {
  return createHash("sha256").update(`${scope}|${sinkId}|${from}|${to}`).digest("hex");
}

/**
 * Sends rows as earn events to the Pointwise ingest API (`POST {baseUrl}/api/rest/earn-events`).
 * Mapped events go into an outbox in the state store numbered by sequence; the cursor committed with the
 * checkpoint is the last sequence. Only committed events are sent, in chunks of at most `batchSize`; a chunk's
 * bounds are recorded before it is sent, so after a restart exactly the same chunk is resent with the same
 * Idempotency-Key and the service records nothing new. A chunk the API refuses as too large is sent in halves, and
 * later chunks of the run keep the smaller size.
 */
export class PointwiseSink implements Sink {
  readonly id: string;
  #seq = 0;
  /** Most sequence numbers in a new chunk: `batchSize`, until the ingest API refuses a chunk as too large. */
  #chunkSize: number;

  constructor(private readonly options: PointwiseSinkOptions) {
    this.id = options.id;
    this.#chunkSize = options.batchSize;
  }

  async recover(cursor: string | undefined): Promise<void> {
    this.#seq = cursor === undefined ? 0 : Number(cursor);
    // Events staged for a batch whose checkpoint never committed will be produced again.
    const removed = await this.options.outbox.dropAfter(this.#seq);
    if (removed > 0) this.options.logger.warn({ sink: this.id, removed }, "pointwise sink dropped uncommitted outbox events");
    await this.#deliver(this.#seq);
  }

  async write(rows: readonly OutputRow[]): Promise<string> {
    const members: { seq: number; value: string }[] = [];
    for (const row of rows) {
      const event = toEarnEvent(row, this.options.events);
      if (event === undefined) continue;
      this.#seq++;
      members.push({ seq: this.#seq, value: JSON.stringify({ seq: this.#seq, event }) });
    }
    await this.options.outbox.append(members);
    return String(this.#seq);
  }

  async committed(cursor: string | undefined): Promise<void> {
    await this.#deliver(cursor === undefined ? 0 : Number(cursor));
  }

  async close(): Promise<void> {}

  /**
   * Sends every outbox event up to sequence `upto`, resuming a recorded in-flight chunk first. A chunk refused as
   * too large is replaced by its first half, recorded as the chunk in flight, and the rest follows in chunks of that
   * size: every chunk sent is recorded before it is sent and keyed by its own bounds, so a restart resends exactly
   * the one that may have been recorded by the service, under the same key.
   */
  async #deliver(upto: number): Promise<void> {
    const { outbox } = this.options;
    for (;;) {
      const { sent, inflight } = await outbox.progress();
      let from: number;
      let to: number;
      if (inflight !== undefined) {
        ({ from, to } = inflight);
      } else {
        from = sent + 1;
        to = Math.min(upto, sent + this.#chunkSize);
        if (from > to) return;
        await outbox.beginChunk(from, to);
      }
      const entries = await outbox.read(from, to);
      const events = entries.map((e) => (JSON.parse(e) as { event: EarnEvent }).event);
      if (events.length > 0) {
        const refused = await this.#post(events, idempotencyKey(this.options.scope, this.id, from, to), from, to);
        if (refused !== undefined) {
          await this.#split(from, to, events.length, refused);
          continue;
        }
      }
      await outbox.finishChunk(to);
    }
  }

  /** Replaces the refused chunk [from, to] in flight by its first half and sizes the rest of the run's chunks to match. */
  async #split(from: number, to: number, events: number, code: string): Promise<void> {
    if (events <= 1) {
      throw new BaseError(
        "earn-event-too-large",
        `Pointwise API refused a single earn event (sequence ${from}) as too large (${code}); check the ingest API's BATCH_MAX_EVENTS and BATCH_BODY_LIMIT_BYTES`,
        { details: { code, from, to } },
      );
    }
    // Halves by sequence numbers, so a chunk always shrinks; the answer names no limit a client may rely on.
    const size = Math.ceil((to - from + 1) / 2);
    this.#chunkSize = Math.min(this.#chunkSize, size);
    this.options.logger.warn(
      { sink: this.id, from, to, events, code, chunkSize: this.#chunkSize },
      "earn events chunk too large for the Pointwise API, sending smaller chunks",
    );
    await this.options.outbox.beginChunk(from, from + this.#chunkSize - 1);
  }

  /** Sends one chunk until it is accepted; returns the error code when the API refuses it as too large, undefined when sent. */
  async #post(events: EarnEvent[], key: string, from: number, to: number): Promise<string | undefined> {
    const { baseUrl, apiKey, logger, signal } = this.options;
    const url = `${baseUrl.replace(/\/$/, "")}/api/rest/earn-events`;
    const maxAttempts = this.options.maxAttempts ?? 10;
    return retryTransient<string | undefined>(
      {
        maxAttempts,
        baseMs: this.options.retryBaseMs ?? 500,
        maxMs: this.options.retryMaxMs ?? 30_000,
        stop: { signal, error: interrupted },
        exhausted: (failure) => new RetryableError("pointwise-api-unavailable", `Pointwise API failed ${maxAttempts} times: ${failure}`),
        onFailure: () => this.options.onError?.(),
        onRetry: ({ attempt, failure, delayMs }) =>
          logger.warn({ sink: this.id, attempt, failure, delayMs }, "earn events not accepted yet, retrying with the same Idempotency-Key"),
      },
      async () => {
        const res = await fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "idempotency-key": key, "x-pointwise-source": "indexer" },
          body: JSON.stringify({ events }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json().catch(() => undefined)) as ApiBody | undefined;
        const verdict = this.#handle(body, events, res.status);
        if (verdict.kind === "sent") {
          logger.info({ sink: this.id, from, to, events: events.length }, "earn events sent");
          return { done: true, value: undefined };
        }
        if (verdict.kind === "too-large") {
          this.options.onError?.();
          return { done: true, value: verdict.code };
        }
        // The ingest API asks for a wait with rate-limited and starting, as a gateway may with 429 or 503.
        return { done: false, failure: verdict.failure, retryAfterMs: retryAfterMs(res.headers.get("retry-after")) };
      },
    );
  }

  /** Judges an answer: sent (items logged and dropped as needed), too large, or why it must be retried; throws when it cannot succeed. */
  #handle(body: ApiBody | undefined, events: EarnEvent[], status: number): Verdict {
    // A proxy in front of the API (nginx's client_max_body_size, say) refuses a large body with 413 and a page of its
    // own: the same refusal for its size, which resending never gets past.
    if (status === 413) return { kind: "too-large", code: "payload-too-large" };
    if (body === undefined || typeof body !== "object") return { kind: "retry", failure: `HTTP ${status} without a JSON body` };
    const error = body.errors?.[0];
    if (body.data === null || body.data === undefined || error !== undefined) {
      // A gateway's JSON page ({"message": "Too Many Requests"}) carries no code of the API: retried like its HTML page.
      if (error?.extensions?.code === undefined && GATEWAY_TRANSIENT.has(status)) return { kind: "retry", failure: gatewayFailure(status) };
      const code = error?.extensions?.code ?? "unknown";
      if (AUTH_CODES.has(code)) throw invalidApiKey({ details: { code } });
      if (RETRY_CODES.has(code)) return { kind: "retry", failure: code };
      if (TOO_LARGE_CODES.has(code)) return { kind: "too-large", code };
      throw new BaseError("earn-batch-rejected", `Pointwise API rejected the batch: ${code}: ${error?.message ?? "no message"}`, { details: { code } });
    }
    const results = body.data.results ?? [];
    if (results.length !== events.length) return { kind: "retry", failure: `expected ${events.length} results, got ${results.length}` };
    results.forEach((result, i) => {
      if (result.ok) return;
      const first = result.errors?.[0];
      this.options.logger.warn(
        { sink: this.id, event: events[i], code: first?.extensions?.code, reason: first?.message },
        "earn event dropped by the Pointwise API",
      );
    });
    return { kind: "sent" };
  }
}
