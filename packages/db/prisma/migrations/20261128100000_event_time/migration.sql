-- Event time: every raw event carries the time it happened (occurred_at) beside the time ingest
-- received it, and the rules evaluate it at occurred_at. Events logged before this migration
-- happened when they were received.
ALTER TABLE "event_log" ADD COLUMN "occurred_at" TIMESTAMPTZ(3);
-- The log is append-only by trigger; this one backfill of the new column is the only update it ever gets.
ALTER TABLE "event_log" DISABLE TRIGGER "event_log_no_update_delete";
UPDATE "event_log" SET "occurred_at" = "received_at";
ALTER TABLE "event_log" ENABLE TRIGGER "event_log_no_update_delete";
ALTER TABLE "event_log" ALTER COLUMN "occurred_at" SET NOT NULL;

-- The inbox keeps every field as text so staging never fails on content; null means "when received"
-- (a version-1 message, published before event time existed).
ALTER TABLE "event_inbox" ADD COLUMN "occurred_at" TEXT;

-- A key allowed to backfill may report events as far back as the campaign's start; an ordinary key
-- only within the ingest API's OCCURRED_AT_MAX_AGE_MS.
ALTER TABLE "api_key" ADD COLUMN "backfill" BOOLEAN NOT NULL DEFAULT false;
