// State the ingest routes share: pipeline, keys, rate limiter, metrics, answering and per-request outcomes.
import {
  createIngestPipeline,
  createKeyResolver,
  createRateLimiter,
  failure,
  type IngestPipeline,
  type KeyOwner,
  type KeyResolver,
  type Problem,
  type RateLimiter,
} from "@pointwise/ingest-core";
import type { EventSource } from "@pointwise/schemas";
import type { Response } from "express";
import type { Deps } from "./deps";
import { createMetrics, type IngestMetrics } from "./metrics";

/** What a request has established so far; kept on `res.locals` for its outcome line. */
export interface RequestState {
  route: string;
  started: bigint;
  owner?: KeyOwner;
  source?: EventSource;
  idempotencyKey?: string;
  /** Events the request carried (1 for the single endpoint). */
  events?: number;
  /** Set once the outcome was recorded, so a request is never logged twice. */
  recorded?: boolean;
}

/** How one request ended, for its log line and metrics. */
export interface Outcome {
  outcome: "accepted" | "partial" | "replayed" | "rejected";
  codes: string[];
  published?: number;
  refused?: number;
  /** Extra fields for the log line (counts of a CSV import, ...); never secrets or account ids. */
  extra?: Record<string, unknown>;
}

/** Everything the routes share: the core pipeline, keys, rate limiter, metrics and how to answer. */
export interface IngestContext {
  deps: Deps;
  keys: KeyResolver;
  pipeline: IngestPipeline;
  limiter: RateLimiter;
  metrics: IngestMetrics;
  /** Starts (or returns) the state of a request. */
  state(res: Response, route?: string): RequestState;
  /** Sends a 200 JSON answer (given as a value or as exact JSON text) and records its outcome. */
  send(res: Response, body: unknown, outcome: Outcome, headers?: Record<string, string>, json?: string): void;
  /** Sends a failure envelope and records it as rejected. */
  refuse(res: Response, problems: Problem[], headers?: Record<string, string>): void;
  /** Writes the one structured line per request outcome and counts it. No body, key or account id is logged. */
  record(res: Response, outcome: Outcome): void;
}

/** Builds the shared context from the app's dependencies. */
export function createContext(deps: Deps): IngestContext {
  const { env, logger } = deps;
  const metrics = createMetrics();
  const keys = createKeyResolver(deps.db, { ttlMs: env.LOOKUP_CACHE_MS, touchIntervalMs: env.KEY_TOUCH_INTERVAL_MS, logger });
  const pipeline = createIngestPipeline(
    { db: deps.db, bus: deps.bus, logger },
    // The lease outlives the slowest publish (every ack of a batch awaits at most the publish timeout).
    {
      lookupTtlMs: env.LOOKUP_CACHE_MS,
      publishTimeoutMs: env.PUBLISH_TIMEOUT_MS,
      idempotencyLeaseMs: 2 * env.PUBLISH_TIMEOUT_MS + 5000,
      idempotencyWaitMs: env.IDEMPOTENCY_WAIT_MS,
      eventTime: { maxSkewMs: env.OCCURRED_AT_MAX_SKEW_MS, maxAgeMs: env.OCCURRED_AT_MAX_AGE_MS },
    },
  );
  const limiter = createRateLimiter(deps.cache, { eventsPerSecond: env.RATE_LIMIT_EVENTS_PER_SECOND, burst: env.RATE_LIMIT_BURST, logger });

  const state = (res: Response, route = "unknown"): RequestState => {
    const locals = res.locals as { ingest?: RequestState };
    locals.ingest ??= { route, started: process.hrtime.bigint() };
    return locals.ingest;
  };

  const record = (res: Response, outcome: Outcome): void => {
    const s = state(res);
    if (s.recorded) return;
    s.recorded = true;
    const seconds = Number(process.hrtime.bigint() - s.started) / 1e9;
    const published = outcome.published ?? 0;
    metrics.requests.inc({ route: s.route, outcome: outcome.outcome });
    for (const code of outcome.codes) metrics.errors.inc({ route: s.route, code });
    if (published > 0 && s.source) metrics.published.inc({ source: s.source }, published);
    metrics.duration.observe({ route: s.route }, seconds);
    logger.info(
      {
        route: s.route,
        outcome: outcome.outcome,
        ...(outcome.codes.length ? { codes: outcome.codes } : {}),
        ...(s.owner ? { campaign_id: s.owner.campaignId, key_prefix: s.owner.prefix } : {}),
        ...(s.source ? { source: s.source } : {}),
        ...(s.events !== undefined ? { events: s.events } : {}),
        published,
        refused: outcome.refused ?? 0,
        idempotency: s.idempotencyKey !== undefined,
        ...outcome.extra,
        ms: Math.round(seconds * 10_000) / 10,
      },
      "ingest request",
    );
  };

  const send = (res: Response, body: unknown, outcome: Outcome, headers: Record<string, string> = {}, json = JSON.stringify(body)): void => {
    record(res, outcome);
    if (res.headersSent) {
      // A CSV import sends its headers early; the answer follows as the body.
      res.end(json);
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(200).type("application/json; charset=utf-8").send(json);
  };

  const refuse = (res: Response, problems: Problem[], headers?: Record<string, string>): void => {
    send(res, failure(...problems), { outcome: "rejected", codes: [...new Set(problems.map((p) => p.code))], refused: state(res).events ?? 0 }, headers);
  };

  return { deps, keys, pipeline, limiter, metrics, state, send, refuse, record };
}
