import { BaseError } from "@pointwise/errors";
import { createHttpApp, finishHttpApp } from "@pointwise/runtime";
import { validateEarnEvent } from "@pointwise/schemas";
import express, { type ErrorRequestHandler, type Express } from "express";
import type { Deps } from "./deps";
import { failure, success } from "./envelope";
import { newEventId } from "./event-id";
import { createLookups } from "./lookups";

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Builds the ingest-api express app: `POST /api/rest/earn-event` answers 200 with a data/errors envelope. */
export function createIngestApp(deps: Deps): Express {
  const { logger, bus } = deps;
  const lookups = createLookups(deps.db, deps.env.LOOKUP_CACHE_MS);
  const app = createHttpApp({
    logger,
    readiness: [
      { name: "postgres", check: () => deps.db.ping() },
      { name: "nats", check: () => bus.ping() },
      { name: "redis", check: () => deps.cache.ping() },
    ],
  });

  app.post("/api/rest/earn-event", express.json({ limit: deps.env.BODY_LIMIT_BYTES, strict: false, type: () => true }), async (req, res) => {
    const key = bearer(req.get("authorization"));
    if (!key) {
      res.json(failure({ message: "missing API key: send Authorization: Bearer <API_KEY>", code: "missing-api-key" }));
      return;
    }
    const owner = await lookups.resolveKey(key);
    if (!owner) {
      res.json(failure({ message: "invalid API key", code: "invalid-api-key" }));
      return;
    }
    const result = validateEarnEvent(req.body);
    if (!result.ok) {
      res.json(failure(...result.problems));
      return;
    }
    const { event } = result;
    if (!(await lookups.eventTypeActive(owner.campaignId, event.reg_event_id))) {
      res.json(failure({ message: "reg_event_id is not a registered event type of this campaign", code: "unknown-event-type" }));
      return;
    }
    const eventId = newEventId();
    const receivedAt = new Date().toISOString();
    await bus.publishRawEvent(
      { v: 1, event_id: eventId, campaign_id: owner.campaignId, ...event, received_at: receivedAt, source: "api" },
      eventId,
    );
    res.json(success({ event_id: eventId, received_at: receivedAt }));
  });

  // Everything that goes wrong on the ingest routes still answers 200 with the envelope.
  const envelopeErrors: ErrorRequestHandler = (err, req, res, next) => {
    if (!req.path.startsWith("/api/rest/")) return next(err);
    if (err?.type === "entity.too.large") return void res.json(failure({ message: `body is larger than ${deps.env.BODY_LIMIT_BYTES} bytes`, code: "payload-too-large" }));
    if (err?.type === "entity.parse.failed") return void res.json(failure({ message: "body is not valid JSON", code: "malformed-json" }));
    if (err instanceof BaseError) {
      if (err.retryable) logger.warn({ err: err.cause ?? err, code: err.code }, "earn-event not accepted");
      return void res.json(failure({ message: err.message, code: err.code }));
    }
    logger.error({ err }, "earn-event failed");
    res.json(failure({ message: "internal error; the event was not accepted", code: "internal" }));
  };
  app.use(envelopeErrors);
  return finishHttpApp(app, logger);
}
