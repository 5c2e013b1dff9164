// Express app of the ingest API: earn-event, batch and CSV routes with health, metrics and envelope errors.
import { createServiceMetrics } from "@pointwise/metrics";
import { createHttpApp, finishHttpApp } from "@pointwise/runtime";
import type { Express } from "express";
import { createContext, type IngestContext } from "./context";
import type { Deps } from "./deps";
import { envelopeErrors } from "./errors";
import { registerApiKeyRoute } from "./routes/api-key";
import { registerCsvRoutes } from "./routes/csv";
import { registerEventRoutes } from "./routes/events";

/** The ingest app and the context its routes share (tests read metrics and the pipeline from it). */
export interface IngestApp {
  app: Express;
  ctx: IngestContext;
}

/**
 * Builds the ingest-api express app: `POST /api/rest/earn-event`, `POST /api/rest/earn-events`,
 * `POST /api/rest/earn-events/csv`, `GET /api/rest/csv-imports/:id` and `GET /api/rest/api-key` answer 200 with a data/errors
 * envelope; `/healthz`, `/readyz` and `/metrics` beside them.
 */
export function buildIngestApp(deps: Deps): IngestApp {
  const ctx = createContext(deps);
  const app = createHttpApp({
    logger: deps.logger,
    // The ingest metrics and the shared HTTP ones in one registry, served on /metrics.
    ...(deps.env.METRICS ? { metrics: createServiceMetrics({ service: "ingest-api", registry: ctx.metrics.registry }) } : {}),
    readiness: [
      { name: "postgres", check: () => deps.db.ping() },
      { name: "nats", check: () => deps.bus.ping() },
      // Only the rate limit lives in Redis, and it is not enforced while Redis is away (docs/api/ingest.md).
      { name: "redis", check: () => deps.cache.ping(), optional: true },
    ],
  });
  registerEventRoutes(app, ctx);
  registerCsvRoutes(app, ctx);
  registerApiKeyRoute(app, ctx);
  app.use(envelopeErrors(ctx));
  return { app: finishHttpApp(app, deps.logger), ctx };
}

/** Builds the ingest-api express app (see buildIngestApp). */
export function createIngestApp(deps: Deps): Express {
  return buildIngestApp(deps).app;
}
