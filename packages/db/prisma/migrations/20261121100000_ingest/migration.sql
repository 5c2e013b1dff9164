-- Idempotency-Key records of the ingest API, one per campaign and key, kept 24 hours. The event
-- ids are chosen when the key is first claimed, so a retry publishes the very same events again
-- and the stream and the log drop the repeat.
CREATE TABLE "idempotency_key" (
    "campaign_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    -- NOT NULL is stricter than Prisma can say for a list; Prisma's model reads the same.
    "event_ids" UUID[] NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "lease_until" TIMESTAMPTZ(3),
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("campaign_id","key")
);

-- Like event_log, these carry campaign_id without a foreign key: campaigns are archived, never
-- deleted, and the id always comes from a resolved API key.

-- A CSV import of earn events and its progress, readable while it runs.
CREATE TABLE "csv_import" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "file_name" TEXT,
    "status" TEXT NOT NULL DEFAULT 'validating',
    "rows_read" BIGINT NOT NULL DEFAULT 0,
    "rows_valid" BIGINT NOT NULL DEFAULT 0,
    "rows_invalid" BIGINT NOT NULL DEFAULT 0,
    "rows_published" BIGINT NOT NULL DEFAULT 0,
    "sample_errors" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "csv_import_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "idempotency_key_created_at_idx" ON "idempotency_key"("created_at");

-- CreateIndex
CREATE INDEX "csv_import_campaign_id_created_at_idx" ON "csv_import"("campaign_id", "created_at");

