// Ingest routes for earn events: one event, or a batch answered with a result per item.
import { type IngestAnswer, type IngestOptions, type KeyOwner, parseBatchBody, requestFingerprint } from "@pointwise/ingest-core";
import type { EventSource } from "@pointwise/schemas";
import express, { type Express, type Request, type RequestHandler, type Response } from "express";
import type { IngestContext } from "../context";
import { authenticate, begin, parseJson, readEventHeaders } from "../guards";

/** Body bytes as a Buffer whatever the Content-Type (the type was checked before), limited in size. */
function rawBody(limit: number): RequestHandler {
  return express.raw({ type: () => true, limit });
}

function headerGuard(ctx: IngestContext, fallback: EventSource): RequestHandler {
  return (req, res, next) => {
    const problems = readEventHeaders(ctx, req, res, fallback, "application/json");
    if (problems.length > 0) return ctx.refuse(res, problems);
    next();
  };
}

/** Takes `cost` units of the key's rate limit, or answers rate-limited (with Retry-After) and returns false. */
export async function admitted(ctx: IngestContext, res: Response, cost: number): Promise<boolean> {
  const state = ctx.state(res);
  const owner = state.owner;
  if (owner === undefined) return false;
  const decision = await ctx.limiter.take(owner.keyId, cost);
  if (decision.allowed) return true;
  const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  ctx.refuse(res, [{ message: `rate limit of this API key exceeded; retry after ${seconds} s`, code: "rate-limited" }], { "Retry-After": String(seconds) });
  return false;
}

function ingestOptions(ctx: IngestContext, req: Request, res: Response, endpoint: string): IngestOptions {
  const state = ctx.state(res);
  const source = state.source ?? "api";
  const key = state.idempotencyKey;
  return {
    source,
    ...(key === undefined ? {} : { idempotency: { key, fingerprint: requestFingerprint(endpoint, source, req.body as Buffer) } }),
  };
}

function sendAnswer(ctx: IngestContext, res: Response, answer: IngestAnswer): void {
  ctx.send(
    res,
    answer.body,
    { outcome: answer.outcome, codes: answer.codes, published: answer.published, refused: answer.refused },
    answer.outcome === "replayed" ? { "Idempotent-Replayed": "true" } : {},
    answer.json,
  );
}

/** `POST /api/rest/earn-event` (one event) and `POST /api/rest/earn-events` (a batch, a result per item). */
export function registerEventRoutes(app: Express, ctx: IngestContext): void {
  const { env } = ctx.deps;

  app.post("/api/rest/earn-event", begin(ctx, "earn-event"), authenticate(ctx), headerGuard(ctx, "api"), rawBody(env.BODY_LIMIT_BYTES), async (req, res) => {
    const state = ctx.state(res);
    state.events = 1;
    const parsed = parseJson(req.body);
    if (!parsed.ok) return ctx.refuse(res, [parsed.problem]);
    if (!(await admitted(ctx, res, 1))) return;
    sendAnswer(ctx, res, await ctx.pipeline.ingestOne(state.owner as KeyOwner, parsed.value, ingestOptions(ctx, req, res, "earn-event")));
  });

  app.post(
    "/api/rest/earn-events",
    begin(ctx, "earn-events"),
    authenticate(ctx),
    headerGuard(ctx, "batch"),
    rawBody(env.BATCH_BODY_LIMIT_BYTES),
    async (req, res) => {
      const state = ctx.state(res);
      const parsed = parseJson(req.body);
      if (!parsed.ok) return ctx.refuse(res, [parsed.problem]);
      const batch = parseBatchBody(parsed.value, env.BATCH_MAX_EVENTS);
      if (!batch.ok) return ctx.refuse(res, batch.problems);
      state.events = batch.events.length;
      if (!(await admitted(ctx, res, batch.events.length))) return;
      sendAnswer(ctx, res, await ctx.pipeline.ingestBatch(state.owner as KeyOwner, batch.events, ingestOptions(ctx, req, res, "earn-events")));
    },
  );
}
