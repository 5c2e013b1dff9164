// The csv_import job row: import modes and statuses, row counts, progress and the first invalid rows.
import type { Database } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import type { EnvelopeError } from "../envelope";

/** Runs a job-row query; a database failure becomes `service-unavailable` (retrying can help). */
async function jobQuery<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new RetryableError("service-unavailable", "CSV import records cannot be read or written right now; retry later", { cause: err });
  }
}

/** How an import treats invalid rows: publish nothing (default) or publish the valid ones. */
export const CSV_IMPORT_MODES = ["all-or-nothing", "accept-valid"] as const;
/** One import mode. */
export type CsvImportMode = (typeof CSV_IMPORT_MODES)[number];

/** validating (pass 1) -> publishing (pass 2) -> done; rejected when all-or-nothing found bad rows; failed on a fatal error. */
export type CsvImportStatus = "validating" | "publishing" | "done" | "rejected" | "failed";

/** Which service ran the import. */
export type CsvImportOrigin = "ingest-api" | "admin-api";

/** One invalid row of a CSV file: its line number (the header is line 1) and why it was refused. */
export interface CsvRowError {
  line: number;
  errors: EnvelopeError[];
}

/** Row counts of an import. */
export interface CsvCounts {
  rowsRead: number;
  rowsValid: number;
  rowsInvalid: number;
  rowsPublished: number;
}

/** An import as admin-api and the progress endpoint show it (snake_case, as on the wire). */
export interface CsvImportProgress {
  import_id: string;
  campaign_id: string;
  mode: CsvImportMode;
  origin: CsvImportOrigin;
  file_name: string | null;
  status: CsvImportStatus;
  rows_read: number;
  rows_valid: number;
  rows_invalid: number;
  rows_published: number;
  /** The first invalid rows (at most 100). */
  sample_errors: CsvRowError[];
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Creates the job row of a new import and returns its id. */
export async function createCsvJob(
  db: Database,
  input: { campaignId: string; mode: CsvImportMode; origin: CsvImportOrigin; fileName?: string },
): Promise<string> {
  const { rows } = await jobQuery(() =>
    db.query<{ id: string }>("INSERT INTO csv_import(campaign_id, mode, origin, file_name) VALUES ($1, $2, $3, $4) RETURNING id", [
      input.campaignId,
      input.mode,
      input.origin,
      input.fileName ?? null,
    ]),
  );
  return (rows[0] as { id: string }).id;
}

/** The error text of an import marked interrupted by failInterruptedCsvImports starts with this code. */
const INTERRUPTED = "import-interrupted";
/** SQL: the row's error, unless it is the mark of an interruption, which the running import takes back. */
const ERROR_UNLESS_INTERRUPTED = `CASE WHEN error LIKE '${INTERRUPTED}:%' THEN NULL ELSE error END`;

/**
 * Records the progress of a running import and its status: the phase it is in, or its outcome
 * (with `finished`, and for a failure its error and sample of bad rows). A row marked
 * interrupted while its import was in fact alive (no beat got through for 2 minutes: the
 * database away) is taken back: the import's own state replaces the mark.
 */
export async function updateCsvJob(
  db: Database,
  id: string,
  counts: CsvCounts,
  change: { status: CsvImportStatus; error?: string; sampleErrors?: CsvRowError[]; finished?: boolean },
): Promise<void> {
  await jobQuery(() =>
    db.query(
      `UPDATE csv_import SET rows_read = $2, rows_valid = $3, rows_invalid = $4, rows_published = $5,
            status = $6, error = coalesce($7::text, ${ERROR_UNLESS_INTERRUPTED}),
            sample_errors = coalesce($8::jsonb, sample_errors),
            updated_at = now(), finished_at = CASE WHEN $9 THEN now() ELSE NULL END
      WHERE id = $1`,
      [
        id,
        counts.rowsRead,
        counts.rowsValid,
        counts.rowsInvalid,
        counts.rowsPublished,
        change.status,
        change.error ?? null,
        change.sampleErrors ? JSON.stringify(change.sampleErrors) : null,
        change.finished === true,
      ],
    ),
  );
}

/** How often a running import tells its row it is alive (and how far it got), whether or not rows arrive (ms). */
export const CSV_HEARTBEAT_MS = 10_000;
/** An import not heard from for this long stopped with its process: it is marked failed (ms). */
export const CSV_INTERRUPTED_AFTER_MS = 120_000;

/**
 * Records how far a running import in `phase` got and that it is alive; it takes back a row marked
 * interrupted meanwhile, and leaves a finished row as it is, so a late beat never overwrites the outcome.
 */
export async function beatCsvJob(db: Database, id: string, counts: CsvCounts, phase: "validating" | "publishing"): Promise<void> {
  await jobQuery(() =>
    db.query(
      `UPDATE csv_import SET rows_read = $2, rows_valid = $3, rows_invalid = $4, rows_published = $5, status = $6,
              error = ${ERROR_UNLESS_INTERRUPTED}, finished_at = NULL, updated_at = now()
        WHERE id = $1 AND (status IN ('validating', 'publishing') OR (status = 'failed' AND error LIKE '${INTERRUPTED}:%'))`,
      [id, counts.rowsRead, counts.rowsValid, counts.rowsInvalid, counts.rowsPublished, phase],
    ),
  );
}

/**
 * Marks imports still `validating` or `publishing` that no process has beaten for `afterMs` as
 * `failed` with `import-interrupted`: the service running them stopped (killed, crashed, scaled away)
 * before they finished. Returns the ids marked.
 */
export async function failInterruptedCsvImports(db: Database, afterMs = CSV_INTERRUPTED_AFTER_MS): Promise<string[]> {
  const { rows } = await jobQuery(() =>
    db.query<{ id: string }>(
      `UPDATE csv_import
          SET status = 'failed', finished_at = now(), updated_at = now(),
              error = '${INTERRUPTED}: the service running this import stopped before it finished, with ' || rows_published ||
                      ' rows published; send the file again with the same Idempotency-Key to publish the rest (rows already published count once)'
        WHERE status IN ('validating', 'publishing') AND updated_at < now() - make_interval(secs => $1)
        RETURNING id`,
      [afterMs / 1000],
    ),
  );
  return rows.map((r) => r.id);
}

interface JobRow {
  id: string;
  campaign_id: string;
  mode: CsvImportMode;
  origin: CsvImportOrigin;
  file_name: string | null;
  status: CsvImportStatus;
  rows_read: string;
  rows_valid: string;
  rows_invalid: string;
  rows_published: string;
  sample_errors: CsvRowError[];
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads an import of a campaign (null when there is none with that id in that campaign). */
export async function getCsvImport(db: Database, campaignId: string, importId: string): Promise<CsvImportProgress | null> {
  if (!UUID.test(importId)) return null;
  const { rows } = await jobQuery(() => db.query<JobRow>("SELECT * FROM csv_import WHERE id = $1 AND campaign_id = $2", [importId, campaignId]));
  const row = rows[0];
  if (row === undefined) return null;
  return {
    import_id: row.id,
    campaign_id: row.campaign_id,
    mode: row.mode,
    origin: row.origin,
    file_name: row.file_name,
    status: row.status,
    rows_read: Number(row.rows_read),
    rows_valid: Number(row.rows_valid),
    rows_invalid: Number(row.rows_invalid),
    rows_published: Number(row.rows_published),
    sample_errors: row.sample_errors,
    error: row.error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
