// Entry point of @pointwise/ingest-core: the ingest pipeline shared by ingest-api and admin-api uploads.
export { type BatchBodyResult, MAX_BATCH_EVENTS, parseBatchBody } from "./batch-body";
export { INGEST_ERROR_CODE_LIST, INGEST_ERROR_CODES, type IngestErrorCode } from "./codes";
export { csvImportAnswer } from "./csv/answer";
export { CSV_MAX_ROW_CHARS, type CsvImportOptions, type CsvImportResult, DEFAULT_CSV_MAX_BYTES, DEFAULT_CSV_MAX_ROWS, importCsv } from "./csv/import";
export {
  CSV_IMPORT_MODES,
  type CsvCounts,
  type CsvImportMode,
  type CsvImportOrigin,
  type CsvImportProgress,
  type CsvImportStatus,
  type CsvRowError,
  failInterruptedCsvImports,
  getCsvImport,
} from "./csv/jobs";
export { type EnvelopeError, envelopeErrors, type FailureBody, failure, type Problem, success } from "./envelope";
export { eventIdForKey, newEventId } from "./event-id";
export { checkEventTime, type EventTimeLimits, type EventTimeRights } from "./event-time";
export { createEventTypeLookup, type EventTypeLookup } from "./event-types";
export {
  type Claim,
  createIdempotencyStore,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyOptions,
  type IdempotencyStore,
  requestFingerprint,
} from "./idempotency";
export { createKeyResolver, type KeyOwner, type KeyResolver, type KeyResolverOptions } from "./keys";
export {
  type BatchItemResult,
  createIngestPipeline,
  DEFAULT_EVENT_TIME_LIMITS,
  eventIdOf,
  type IdempotencyInput,
  type IngestAnswer,
  type IngestOptions,
  type IngestPipeline,
  type IngestTarget,
  type ItemCheck,
  type PipelineDeps,
  type PipelineOptions,
  toMessage,
} from "./pipeline";
export { createRateLimiter, type RateDecision, type RateLimiter, type RateLimitOptions } from "./rate-limit";
export { TtlCache } from "./ttl-cache";
