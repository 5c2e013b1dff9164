// Error mapping for ingest routes: every failure still answers 200 with a data/errors envelope.
import { BaseError } from "@pointwise/errors";
import { isMalformedPathParam } from "@pointwise/runtime";
import type { ErrorRequestHandler } from "express";
import type { IngestContext } from "./context";

/**
 * Whatever goes wrong on an ingest route still answers 200 with the envelope: body-parser's errors
 * become their stable codes, typed errors keep theirs, anything else is `internal` (and logged).
 */
export function envelopeErrors(ctx: IngestContext): ErrorRequestHandler {
  const { logger, env } = ctx.deps;
  return (err, req, res, next) => {
    if (!req.path.startsWith("/api/rest/")) return next(err);
    // The import id of GET /api/rest/csv-imports/:id, the only path parameter here, is decoded while the route is
    // matched, before the key is checked: an id that is not valid percent-encoding is no import's.
    if (isMalformedPathParam(err))
      return ctx.refuse(res, [{ message: "no CSV import with this id in the campaign of this API key", code: "csv-import-not-found" }]);
    const type = typeof err?.type === "string" ? (err.type as string) : undefined;
    if (type === "entity.too.large") {
      const limit = ctx.state(res).route === "earn-events" ? env.BATCH_BODY_LIMIT_BYTES : env.BODY_LIMIT_BYTES;
      if (!res.headersSent) res.setHeader("Connection", "close");
      return ctx.refuse(res, [{ message: `body is larger than ${limit} bytes`, code: "payload-too-large" }]);
    }
    if (type === "encoding.unsupported" || type === "charset.unsupported") {
      return ctx.refuse(res, [{ message: "Content-Encoding must be gzip, deflate, br or identity", code: "unsupported-media-type" }]);
    }
    if (type !== undefined || (typeof err?.status === "number" && err.status >= 400 && err.status < 500)) {
      // Aborted uploads, a Content-Length that does not match the body, a corrupt gzip stream, ...
      return ctx.refuse(res, [{ message: "body could not be read", code: "invalid-body" }]);
    }
    if (err instanceof BaseError) {
      if (err.retryable) logger.warn({ err: err.cause ?? err, code: err.code }, "ingest request not accepted");
      return ctx.refuse(res, [{ message: err.message, code: err.code }]);
    }
    logger.error({ err }, "ingest request failed");
    ctx.refuse(res, [{ message: "internal error; nothing was accepted", code: "internal" }]);
  };
}
