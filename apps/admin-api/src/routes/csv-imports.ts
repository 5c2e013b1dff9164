// Admin routes for CSV uploads of earn events: upload through ingest, then progress and row errors.
import { type Readable, Transform } from "node:stream";
import { NotFoundError, ValidationError } from "@pointwise/errors";
import { CSV_IMPORT_MODES, type CsvRowError, getCsvImport, importCsv } from "@pointwise/ingest-core";
import { parseWith } from "@pointwise/runtime";
import { Router } from "express";
import { z } from "zod";
import { recordAudit } from "../audit";
import type { Deps } from "../deps";
import { idempotencyKeyOf } from "../idempotency-key";
import { loadCampaign, loadWritableCampaign, uuidParam } from "../scope";
import { sessionOf } from "../session";

/** Invalid rows returned in the upload's answer; the import row keeps the first 100 for later. */
const ANSWER_ROW_ERRORS = 1000;

const uploadQuery = z.strictObject({
  mode: z.enum(CSV_IMPORT_MODES, { message: `must be ${CSV_IMPORT_MODES.join(" or ")}` }).optional(),
  file_name: z.string().trim().min(1).max(200, "must be at most 200 characters").optional(),
});

/**
 * `input` as it is, each chunk (and its end) passed on only once `ready` resolves; when it rejects,
 * the stream fails with that error. The request is piped, not handed to stream.pipeline, so it stays
 * open for the answer like the import expects.
 */
function afterward(input: Readable, ready: Promise<void>): Readable {
  // Awaited by the gate; this only keeps a failure before the first chunk from counting as unhandled.
  ready.catch(() => undefined);
  const gate = new Transform({
    transform(chunk, _encoding, callback) {
      ready.then(() => callback(null, chunk), callback);
    },
    flush(callback) {
      ready.then(() => callback(), callback);
    },
  });
  // The import listens for the gate's errors while it reads; this keeps one after that from crashing the process.
  gate.on("error", () => undefined);
  input.on("error", (err) => gate.destroy(err));
  return input.pipe(gate);
}

/** CSV uploads of earn events through the ingest pipeline, their progress and their row errors. */
export function csvImportRoutes(deps: Deps): Router {
  const router = Router();
  const { db } = deps;

  // The body is streamed straight into the import (never buffered): a file may have millions of rows.
  router.post("/api/campaigns/:id/csv-imports", async (req, res) => {
    const session = sessionOf(res.locals);
    const campaign = await loadWritableCampaign(deps, session, req.params.id);
    const query = parseWith(uploadQuery, req.query);
    if (!req.is("text/csv"))
      throw new ValidationError("Content-Type must be text/csv (the file's bytes as the request body)", { code: "unsupported-media-type" });
    const uploadKey = idempotencyKeyOf(req);
    const pipeline = await deps.ingest.get();
    // An import publishes its events in many batches that the scoring worker commits, so no transaction
    // can hold them and the entry; the entry is written ahead instead: it commits (with the import's id,
    // before any row is read) or the import fails, so no event of an upload is ever published unrecorded.
    let started: (entry: Promise<void>) => void = () => undefined;
    const recorded = new Promise<void>((resolve, reject) => {
      started = (entry) => entry.then(resolve, reject);
    });
    const result = await importCsv(pipeline, {
      campaignId: campaign.id,
      input: afterward(req, recorded),
      origin: "admin-api",
      ...(uploadKey === undefined ? {} : { uploadKey }),
      ...(query.mode ? { mode: query.mode } : {}),
      ...(query.file_name ? { fileName: query.file_name } : {}),
      onStart(importId) {
        started(
          getCsvImport(deps.db, campaign.id, importId).then((job) =>
            deps.db.transaction((tx) =>
              recordAudit(tx, session, { campaignId: campaign.id, action: "csv-import.events", target: `csv-import:${importId}`, after: job }),
            ),
          ),
        );
      },
    });
    try {
      const rows: CsvRowError[] = [];
      for await (const row of result.invalidRows()) {
        if (rows.length === ANSWER_ROW_ERRORS) break;
        rows.push(row);
      }
      deps.logger.info({ campaign_id: campaign.id, import_id: result.importId, operator_id: session.operatorId, status: result.status }, "csv import finished");
      const finished = await getCsvImport(deps.db, campaign.id, result.importId);
      res.json({
        import: finished,
        invalid_rows: rows,
        invalid_rows_truncated: result.rowsInvalid > rows.length,
      });
    } finally {
      await result.dispose();
    }
  });

  router.get("/api/campaigns/:id/csv-imports", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const { rows } = await db.query<{ id: string }>("SELECT id FROM csv_import WHERE campaign_id = $1 ORDER BY created_at DESC LIMIT 20", [campaign.id]);
    const imports = await Promise.all(rows.map((r) => getCsvImport(deps.db, campaign.id, r.id)));
    res.json({ csv_imports: imports.filter((i) => i !== null) });
  });

  router.get("/api/campaigns/:id/csv-imports/:importId", async (req, res) => {
    const campaign = await loadCampaign(deps, sessionOf(res.locals), req.params.id);
    const id = uuidParam(req.params.importId, "import_id");
    const found = await getCsvImport(deps.db, campaign.id, id);
    if (!found) throw new NotFoundError(`CSV import ${id} not found`, { code: "csv-import-not-found" });
    res.json(found);
  });

  return router;
}
