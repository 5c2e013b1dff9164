/**
 * Every `extensions.code` the ingest endpoints answer with, and the one cause each stands for.
 * docs/api/ingest.md and docs/api/ingest.openapi.yaml list exactly these; a test keeps them in step.
 */
export const INGEST_ERROR_CODES = {
  "missing-api-key": "no `Authorization: Bearer <API_KEY>` header",
  "invalid-api-key": "the key is malformed, unknown or revoked (one answer for all three)",
  "campaign-archived": "the key belongs to an archived campaign, which accepts no events",
  "unsupported-media-type": "Content-Type is not application/json (text/csv for CSV), or Content-Encoding is not supported",
  "payload-too-large": "the body is larger than the endpoint's limit",
  "invalid-utf8": "the body (a JSON body or a CSV file) holds bytes that are not valid UTF-8",
  "malformed-json": "the body is not valid JSON",
  "invalid-body": "the body is empty, not a JSON object, or a batch whose `events` is not an array",
  "invalid-idempotency-key": "the Idempotency-Key header, or an event's `idempotency_key`, is empty, longer than 255 characters or not printable ASCII",
  "invalid-source": "the X-Pointwise-Source header has a value other than `indexer`",
  "rate-limited": "the API key used up its event budget; retry after the Retry-After header's seconds",
  "idempotency-key-reused": "the Idempotency-Key was used in the last 24 hours with a different body, endpoint or source",
  "idempotency-key-in-progress": "a request with the same Idempotency-Key is still being processed",
  "too-many-events": "a batch holds more than BATCH_MAX_EVENTS events (1000 by default)",
  "missing-field": "a required field is absent or null",
  "unknown-field": "a field that is not part of the body (including `__proto__`, `constructor`, `prototype`)",
  "validation-failed": "identity_type is not one of the allowed values (message `invalid identity_type`)",
  "invalid-account-id": "account_id is not a string or not valid for its identity_type",
  "invalid-amount": "amount is not a finite decimal number within the digit bounds",
  "negative-amount": "amount is negative",
  "invalid-reg-event-id": "reg_event_id is not a UUID",
  "unknown-event-type": "reg_event_id is not a registered, active event type of the key's campaign",
  "invalid-occurred-at": "occurred_at is not an RFC 3339 time in UTC (`Z`) with at most millisecond precision",
  "occurred-at-in-future": "occurred_at is further ahead of the service's clock than OCCURRED_AT_MAX_SKEW_MS",
  "occurred-at-before-campaign": "the event's time (occurred_at, or now without one) is before the campaign's starts_at",
  "occurred-at-after-campaign": "the event's time (occurred_at, or now without one) is at or after the campaign's ends_at",
  "occurred-at-too-old": "occurred_at is older than OCCURRED_AT_MAX_AGE_MS and the API key may not backfill",
  "invalid-mode": "the CSV `mode` query parameter is neither all-or-nothing nor accept-valid",
  "csv-invalid-header": "the CSV header row is missing or does not name each body field exactly once",
  "csv-invalid-row": "a CSV row has a different number of fields than the header",
  "csv-malformed": "the CSV text cannot be parsed (quoting error or a row longer than 64 KiB)",
  "too-many-rows": "the CSV file has more data rows than the limit",
  "csv-import-not-found": "no CSV import with that id in the key's campaign",
  "bus-unavailable": "the event bus did not confirm storage in time; nothing was accepted, retry later",
  "service-unavailable": "a database the request needs is unreachable; retry later",
  starting: "the service is still reaching PostgreSQL and NATS at start-up; retry after the Retry-After header's seconds",
  internal: "an unexpected failure; nothing was accepted",
} as const;

/** One stable ingest error code. */
export type IngestErrorCode = keyof typeof INGEST_ERROR_CODES;

/** Every ingest error code, in documentation order. */
export const INGEST_ERROR_CODE_LIST = Object.keys(INGEST_ERROR_CODES) as IngestErrorCode[];
