// CSV import of earn events in two streaming passes: validate and spool every row, then publish.
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { BaseError, RetryableError, ValidationError } from "@pointwise/errors";
import { EARN_EVENT_FIELDS, EARN_EVENT_OPTIONAL_FIELDS, type EarnEvent, type RawEventMessage } from "@pointwise/schemas";
import { CsvError, parse } from "csv-parse";
import { envelopeErrors, type Problem } from "../envelope";
import { eventIdForKey, newEventId } from "../event-id";
import type { EventTimeRights } from "../event-time";
import { type IngestPipeline, toMessage } from "../pipeline";
import { beatCsvJob, CSV_HEARTBEAT_MS, type CsvCounts, type CsvImportMode, type CsvImportOrigin, type CsvRowError, createCsvJob, updateCsvJob } from "./jobs";
import { LineSpool, makeSpoolDir } from "./spool";
import { utf8Check } from "./utf8";

/** Default largest CSV upload (bytes). */
export const DEFAULT_CSV_MAX_BYTES = 512 * 1024 * 1024;
/** Default most data rows in one file. */
export const DEFAULT_CSV_MAX_ROWS = 2_000_000;
/** Longest single row (characters); a longer one is a malformed file, not a row error. */
export const CSV_MAX_ROW_CHARS = 64 * 1024;
/** The first invalid rows kept on the job row for progress views. */
const SAMPLE_ERRORS = 100;
/** Rows validated together (one event-type query per chunk). */
const VALIDATE_CHUNK = 1000;
/** Events published together before their acknowledgements are awaited. */
const PUBLISH_CHUNK = 1000;
const PUBLISH_CHUNKS_IN_FLIGHT = 4;
const PROGRESS_EVERY_MS = 1000;
const LOG_EVERY_MS = 10_000;

/** What to import and how. */
export interface CsvImportOptions {
  campaignId: string;
  /**
   * The campaign's dates and whether the uploader may backfill (an API key's rights). Absent for an
   * operator's upload: the campaign's dates are read from the database and any time since its start is allowed.
   */
  rights?: EventTimeRights;
  /** The CSV bytes (an HTTP request, a file stream, ...). It is read once, as a stream. */
  input: Readable;
  mode?: CsvImportMode;
  origin: CsvImportOrigin;
  fileName?: string;
  maxBytes?: number;
  maxRows?: number;
  /**
   * The upload's Idempotency-Key: a row without an idempotency_key of its own is the event of this key, its line and
   * its content, so the same file sent again with the same key (after an import stopped part way) publishes the same
   * events, which the scoring worker logs once; a changed row is a new event. Without it every upload is new events.
   */
  uploadKey?: string;
  /** Where the temporary spool files go (default: the OS temp folder). */
  spoolDir?: string;
  /** How long publishing keeps retrying while the bus is away before the import fails (ms). */
  publishRetryMs?: number;
  /** Called once the job row exists, before any row is read (for example to send its id early). */
  onStart?: (importId: string) => void;
  /** How often the job row hears that the import is alive (default CSV_HEARTBEAT_MS). */
  heartbeatMs?: number;
}

/** A finished import. `invalidRows()` streams every bad row; call `dispose()` once done with it. */
export interface CsvImportResult extends CsvCounts {
  importId: string;
  mode: CsvImportMode;
  status: "done" | "rejected";
  invalidRows(): AsyncIterable<CsvRowError>;
  dispose(): Promise<void>;
}

/** A valid event as spooled between the passes: account_id, identity_type, amount, reg_event_id, received_at, occurred_at, idempotency_key, line. */
type SpoolRow = [string, RawEventMessage["identity_type"], string, string, string, string | null, string | null, number];

interface PendingRow {
  line: number;
  body?: Record<string, string>;
  problems?: Problem[];
}

function checkHeader(record: string[]): string[] {
  const names = record.map((n) => n.trim());
  const allowed = new Set<string>([...EARN_EVENT_FIELDS, ...EARN_EVENT_OPTIONAL_FIELDS]);
  const show = (n: string) => JSON.stringify(n.length > 64 ? `${n.slice(0, 64)}...` : n);
  const unknown = names.filter((n) => !allowed.has(n));
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  const missing = EARN_EVENT_FIELDS.filter((f) => !names.includes(f));
  const reasons = [
    ...(unknown.length ? [`unknown column ${unknown.slice(0, 5).map(show).join(", ")}`] : []),
    ...(repeated.length ? [`repeated column ${[...new Set(repeated)].map(show).join(", ")}`] : []),
    ...(missing.length ? [`missing column ${missing.join(", ")}`] : []),
  ];
  if (reasons.length > 0) {
    throw new ValidationError(
      `CSV header row must name account_id, identity_type, amount and reg_event_id once each (occurred_at and idempotency_key may follow): ${reasons.join("; ")}`,
      {
        code: "csv-invalid-header",
      },
    );
  }
  return names;
}

function byteLimit(maxBytes: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(new ValidationError(`CSV file is larger than ${maxBytes} bytes`, { code: "payload-too-large" }));
      else callback(null, chunk);
    },
  });
}

/** Row counts as log fields. */
function countFields(counts: CsvCounts): Record<string, number> {
  return { rows_read: counts.rowsRead, rows_valid: counts.rowsValid, rows_invalid: counts.rowsInvalid, rows_published: counts.rowsPublished };
}

function asImportError(err: unknown): BaseError {
  if (err instanceof BaseError) return err;
  if (err instanceof CsvError) {
    const rule = err.code === "CSV_MAX_RECORD_SIZE" ? `a row is longer than ${CSV_MAX_ROW_CHARS} characters` : err.message;
    return new ValidationError(`CSV is malformed at line ${err.lines ?? "?"}: ${rule}`, { code: "csv-malformed" });
  }
  return new ValidationError("the CSV upload could not be read to its end", { code: "invalid-body", cause: err });
}

/**
 * Imports a CSV file of earn events in two streaming passes, so a file of millions of rows is never
 * held in memory: pass 1 validates every row (header row first: the body field names) and spools valid
 * events and bad rows to temporary files; pass 2, unless all-or-nothing found a bad row, publishes the
 * valid events in pipelined chunks. Progress is kept on a `csv_import` row and logged.
 * Throws a BaseError (payload-too-large, too-many-rows, invalid-utf8, csv-invalid-header, csv-malformed, bus-unavailable)
 * when the import as a whole fails; the job row then says `failed`.
 */
export async function importCsv(pipeline: IngestPipeline, options: CsvImportOptions): Promise<CsvImportResult> {
  const { db, logger } = pipeline.deps;
  const mode = options.mode ?? "all-or-nothing";
  const maxRows = options.maxRows ?? DEFAULT_CSV_MAX_ROWS;
  const importId = await createCsvJob(db, {
    campaignId: options.campaignId,
    mode,
    origin: options.origin,
    ...(options.fileName ? { fileName: options.fileName } : {}),
  });
  const log = logger.child({ import_id: importId, campaign_id: options.campaignId, mode, origin: options.origin });
  options.onStart?.(importId);

  const counts: CsvCounts = { rowsRead: 0, rowsValid: 0, rowsInvalid: 0, rowsPublished: 0 };
  const sample: CsvRowError[] = [];
  const spoolDir = await makeSpoolDir(options.spoolDir);
  const validSpool = new LineSpool(path.join(spoolDir.dir, "valid.ndjson"));
  const invalidSpool = new LineSpool(path.join(spoolDir.dir, "invalid.ndjson"));
  // What the job row says while the import runs; each write says it again (see updateCsvJob).
  let phase: "validating" | "publishing" = "validating";
  let lastProgress = Date.now();
  let lastLog = Date.now();
  const started = Date.now();
  let known: Promise<EventTimeRights> | undefined;

  // While rows stall (a slow upload, the bus away) the row still hears from the import, so one whose
  // process stopped can be told apart (failInterruptedCsvImports) from one that is only waiting.
  // While they flow, each progress write (every PROGRESS_EVERY_MS) restarts the interval, so the beat only
  // writes once the row has not heard from the import for a whole interval.
  const heartbeat = setInterval(() => {
    beatCsvJob(db, importId, counts, phase).catch((err: unknown) => log.warn({ err }, "could not record that the csv import is alive"));
  }, options.heartbeatMs ?? CSV_HEARTBEAT_MS);
  heartbeat.unref();

  /** The uploader's rights: as given, or for an operator's upload the campaign's dates with backfill allowed. */
  function rights(): Promise<EventTimeRights> {
    if (options.rights) return Promise.resolve(options.rights);
    known ??= db
      .query<{ starts_at: Date | null; ends_at: Date | null }>("SELECT starts_at, ends_at FROM campaign WHERE id = $1", [options.campaignId])
      .then(({ rows }) => ({ backfill: true, startsAt: rows[0]?.starts_at?.getTime() ?? null, endsAt: rows[0]?.ends_at?.getTime() ?? null }));
    return known;
  }

  async function progress(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    await updateCsvJob(db, importId, counts, { status: phase });
    // The row has just heard from the import: the next beat is due a whole interval from now.
    heartbeat.refresh();
    if (now - lastLog >= LOG_EVERY_MS) {
      lastLog = now;
      log.info(countFields(counts), "csv import progress");
    }
  }

  async function flush(pending: PendingRow[]): Promise<void> {
    const bodies = pending.flatMap((r) => (r.body ? [r.body] : []));
    const now = Date.now();
    const checks = await pipeline.validateItems({ campaignId: options.campaignId, ...(await rights()) }, bodies, now);
    const receivedAt = new Date(now).toISOString();
    let valid = "";
    let invalid = "";
    let k = 0;
    for (const row of pending) {
      const check = row.body ? checks[k++] : undefined;
      if (check?.ok) {
        const e = check.event;
        const spooled: SpoolRow = [
          e.account_id,
          e.identity_type,
          e.amount,
          e.reg_event_id,
          receivedAt,
          e.occurred_at ?? null,
          e.idempotency_key ?? null,
          row.line,
        ];
        valid += `${JSON.stringify(spooled)}\n`;
        counts.rowsValid++;
        continue;
      }
      const rowError: CsvRowError = { line: row.line, errors: envelopeErrors(check ? check.problems : (row.problems ?? [])) };
      if (sample.length < SAMPLE_ERRORS) sample.push(rowError);
      invalid += `${JSON.stringify(rowError)}\n`;
      counts.rowsInvalid++;
    }
    await validSpool.write(valid);
    await invalidSpool.write(invalid);
  }

  async function validatePass(): Promise<void> {
    const limit = byteLimit(options.maxBytes ?? DEFAULT_CSV_MAX_BYTES);
    const parser = parse({ bom: true, info: true, trim: true, skip_empty_lines: true, relax_column_count: true, max_record_size: CSV_MAX_ROW_CHARS });
    // The input is piped, not handed to stream.pipeline: an HTTP request must stay open for the answer
    // even when the import stops reading it early.
    // csv-parse would decode bytes that are not UTF-8 as U+FFFD without a word; they fail the file instead.
    const utf8 = utf8Check();
    const onInputError = (err: Error) => limit.destroy(err);
    // A stream that failed before this pass began listening (its 'error' already emitted, as when the caller's gate
    // refuses the upload while the job is being set up) never ends: fail with its error instead of waiting on it.
    if (options.input.errored) throw options.input.errored;
    options.input.on("error", onInputError);
    options.input.pipe(limit).pipe(utf8).pipe(parser);
    limit.on("error", (err) => utf8.destroy(err));
    utf8.on("error", (err) => parser.destroy(err));
    let header: string[] | undefined;
    let pending: PendingRow[] = [];
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (header === undefined) {
          header = checkHeader(record);
          continue;
        }
        counts.rowsRead++;
        if (counts.rowsRead > maxRows) throw new ValidationError(`CSV file has more than ${maxRows} data rows`, { code: "too-many-rows" });
        if (record.length !== header.length) {
          const message = `row has ${record.length} fields, the header has ${header.length}`;
          pending.push({ line: info.lines, problems: [{ message, code: "csv-invalid-row" }] });
        } else {
          const body: Record<string, string> = {};
          // An empty cell is a missing value, so it is reported as missing-field like an absent JSON key.
          header.forEach((name, i) => {
            const value = record[i];
            if (value !== undefined && value !== "") body[name] = value;
          });
          pending.push({ line: info.lines, body });
        }
        if (pending.length >= VALIDATE_CHUNK) {
          await flush(pending);
          pending = [];
          await progress();
        }
      }
      await flush(pending);
    } finally {
      options.input.off("error", onInputError);
      options.input.unpipe(limit);
      parser.destroy();
    }
    if (header === undefined) throw new ValidationError("CSV file is empty: a header row naming the body fields is required", { code: "csv-invalid-header" });
  }

  async function publishChunk(messages: RawEventMessage[]): Promise<void> {
    const deadline = Date.now() + (options.publishRetryMs ?? 30_000);
    let pending = messages;
    let delay = 200;
    for (;;) {
      const errors = await pipeline.publishAll(pending);
      const failed = pending.filter((_, i) => errors[i] !== null);
      counts.rowsPublished += pending.length - failed.length;
      if (failed.length === 0) return;
      if (Date.now() >= deadline) {
        throw new RetryableError(
          "bus-unavailable",
          `event bus unavailable; ${counts.rowsPublished} of ${counts.rowsValid} rows were published before the import stopped (import ${importId})`,
          { cause: errors.find((e) => e !== null), details: { import_id: importId, rows_published: counts.rowsPublished } },
        );
      }
      log.warn({ failed: failed.length, retry_in_ms: delay }, "csv import publish failed, retrying with the same event ids");
      await sleep(delay);
      delay = Math.min(delay * 2, 5000);
      // The same event ids again: a repeat the stream did store is dropped by its duplicate window and by the log.
      pending = failed;
    }
  }

  async function publishPass(): Promise<void> {
    // A few chunks in flight keep the stream busy while acknowledgements of earlier ones come back.
    const inflight: Promise<void>[] = [];
    const launch = (chunk: RawEventMessage[]) => {
      const done = publishChunk(chunk);
      done.catch(() => undefined); // awaited below; this only keeps a failure from counting as unhandled meanwhile
      inflight.push(done);
    };
    let chunk: RawEventMessage[] = [];
    try {
      for await (const line of validSpool.lines()) {
        const [accountId, identityType, amount, regEventId, receivedAt, occurredAt, key, fileLine] = JSON.parse(line) as SpoolRow;
        const event: EarnEvent = { account_id: accountId, identity_type: identityType, amount, reg_event_id: regEventId };
        if (occurredAt !== null) event.occurred_at = occurredAt;
        if (key !== null) event.idempotency_key = key;
        // A row's own key names its event; else the upload's key, the row's line and the row itself do (a NUL, which no
        // key holds, keeps the two apart), so only the same row sent again is the same event: a file edited and sent
        // with the same key publishes its changed rows as new events instead of losing them; else the event is new.
        const id =
          key === null && options.uploadKey !== undefined
            ? eventIdForKey(options.campaignId, `csv-upload\u0000${options.uploadKey}\u0000${fileLine}\u0000${JSON.stringify(event)}`)
            : newEventId();
        chunk.push(toMessage(options.campaignId, event, id, receivedAt, "csv"));
        if (chunk.length >= PUBLISH_CHUNK) {
          launch(chunk);
          chunk = [];
          if (inflight.length >= PUBLISH_CHUNKS_IN_FLIGHT) await inflight.shift();
          await progress();
        }
      }
      if (chunk.length > 0) launch(chunk);
      for (const done of inflight) await done;
    } catch (err) {
      // Let the other chunks finish (or give up) before the job is marked failed with its final count.
      await Promise.allSettled(inflight);
      throw err;
    }
  }

  try {
    log.info("csv import started");
    await validatePass();
    await validSpool.close();
    await invalidSpool.close();
    const rejectAll = mode === "all-or-nothing" && counts.rowsInvalid > 0;
    if (!rejectAll && counts.rowsValid > 0) {
      phase = "publishing";
      await updateCsvJob(db, importId, counts, { status: phase, sampleErrors: sample });
      log.info(countFields(counts), "csv import validated, publishing");
      await publishPass();
    }
    const status = rejectAll ? "rejected" : "done";
    await updateCsvJob(db, importId, counts, { status, sampleErrors: sample, finished: true });
    log.info({ ...countFields(counts), status, ms: Date.now() - started }, "csv import finished");
    return {
      importId,
      mode,
      status,
      ...counts,
      async *invalidRows() {
        for await (const line of invalidSpool.lines()) yield JSON.parse(line) as CsvRowError;
      },
      dispose: () => spoolDir.remove(),
    };
  } catch (err) {
    const failure = asImportError(err);
    await validSpool.close().catch(() => undefined);
    await invalidSpool.close().catch(() => undefined);
    await spoolDir.remove().catch(() => undefined);
    await updateCsvJob(db, importId, counts, { status: "failed", error: `${failure.code}: ${failure.message}`, sampleErrors: sample, finished: true }).catch(
      (e: unknown) => log.warn({ err: e }, "could not record the failed csv import"),
    );
    log.warn({ ...countFields(counts), code: failure.code, reason: failure.message }, "csv import failed");
    throw failure;
  } finally {
    clearInterval(heartbeat);
  }
}
