// Ingest routes for streamed CSV imports of earn events and for polling an import's progress.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BaseError } from "@pointwise/errors";
import {
  CSV_IMPORT_MODES,
  type CsvImportMode,
  type CsvImportResult,
  csvImportAnswer,
  getCsvImport,
  importCsv,
  type KeyOwner,
  success,
} from "@pointwise/ingest-core";
import type { Express, Response } from "express";
import type { IngestContext } from "../context";
import { authenticate, begin, readEventHeaders } from "../guards";

/** Header that carries the id of a CSV import as soon as it starts, before the answer body. */
export const IMPORT_ID_HEADER = "X-Pointwise-Import-Id";

function modeOf(value: unknown): CsvImportMode | undefined {
  if (value === undefined) return "all-or-nothing";
  return (CSV_IMPORT_MODES as readonly unknown[]).includes(value) ? (value as CsvImportMode) : undefined;
}

/** Stops reading an upload we no longer want: the connection closes after the answer instead of draining the rest. */
function closeAfterAnswer(res: Response): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
}

/** `POST /api/rest/earn-events/csv` (streamed CSV import) and `GET /api/rest/csv-imports/:id` (its progress). */
export function registerCsvRoutes(app: Express, ctx: IngestContext): void {
  const { env, logger } = ctx.deps;

  app.post("/api/rest/earn-events/csv", begin(ctx, "earn-events-csv"), authenticate(ctx), async (req, res) => {
    const state = ctx.state(res);
    const mode = modeOf(req.query.mode);
    if (mode === undefined) {
      closeAfterAnswer(res);
      return ctx.refuse(res, [{ message: `mode must be one of ${CSV_IMPORT_MODES.join(", ")}`, code: "invalid-mode" }]);
    }
    const headerProblems = readEventHeaders(ctx, req, res, "csv", "text/csv");
    const encoding = req.get("content-encoding");
    if (headerProblems.length === 0 && encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
      headerProblems.push({ message: "Content-Encoding is not supported on CSV uploads; send the file uncompressed", code: "unsupported-media-type" });
    }
    if (headerProblems.length > 0) {
      closeAfterAnswer(res);
      return ctx.refuse(res, headerProblems);
    }
    const declared = Number(req.get("content-length") ?? Number.NaN);
    if (declared > env.CSV_MAX_BYTES) {
      closeAfterAnswer(res);
      return ctx.refuse(res, [{ message: `CSV file is larger than ${env.CSV_MAX_BYTES} bytes`, code: "payload-too-large" }]);
    }
    const owner = state.owner as KeyOwner;
    // One upload costs one token: its rows are bounded by CSV_MAX_ROWS, not by the per-event budget.
    const decision = await ctx.limiter.take(owner.keyId, 1);
    if (!decision.allowed) {
      closeAfterAnswer(res);
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      return ctx.refuse(res, [{ message: `rate limit of this API key exceeded; retry after ${seconds} s`, code: "rate-limited" }], {
        "Retry-After": String(seconds),
      });
    }

    let result: CsvImportResult;
    try {
      result = await importCsv(ctx.pipeline, {
        campaignId: owner.campaignId,
        rights: { backfill: owner.backfill, startsAt: owner.startsAt, endsAt: owner.endsAt },
        input: req,
        mode,
        origin: "ingest-api",
        maxBytes: env.CSV_MAX_BYTES,
        maxRows: env.CSV_MAX_ROWS,
        publishRetryMs: env.CSV_PUBLISH_RETRY_MS,
        ...(state.idempotencyKey === undefined ? {} : { uploadKey: state.idempotencyKey }),
        ...(env.CSV_SPOOL_DIR ? { spoolDir: env.CSV_SPOOL_DIR } : {}),
        onStart(importId) {
          // Sent before the file is read, so a client can follow GET /api/rest/csv-imports/:id while it runs.
          res.setHeader(IMPORT_ID_HEADER, importId);
          res.setHeader("Content-Type", "application/json; charset=utf-8");
          res.flushHeaders();
        },
      });
    } catch (err) {
      if (!(err instanceof BaseError)) throw err;
      if (!req.complete) closeAfterAnswer(res);
      return ctx.refuse(res, [{ message: err.message, code: err.code }]);
    }
    ctx.record(res, {
      outcome: result.status === "done" ? (result.rowsInvalid > 0 ? "partial" : "accepted") : "rejected",
      codes: [],
      published: result.rowsPublished,
      refused: result.rowsInvalid,
      extra: { import_id: result.importId, mode, status: result.status, rows_read: result.rowsRead, rows_valid: result.rowsValid },
    });
    try {
      await pipeline(Readable.from(csvImportAnswer(result)), res);
    } catch (err) {
      logger.warn({ err, import_id: result.importId }, "csv import answer not delivered");
    } finally {
      await result.dispose();
    }
  });

  app.get("/api/rest/csv-imports/:id", begin(ctx, "csv-import"), authenticate(ctx), async (req, res) => {
    const owner = ctx.state(res).owner as { campaignId: string };
    const progress = await getCsvImport(ctx.deps.db, owner.campaignId, String(req.params.id));
    if (progress === null) return ctx.refuse(res, [{ message: "no CSV import with this id in the campaign of this API key", code: "csv-import-not-found" }]);
    ctx.send(res, success(progress), { outcome: "accepted", codes: [] });
  });
}
