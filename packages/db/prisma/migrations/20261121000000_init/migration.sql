
-- CreateTable
CREATE TABLE "project" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "project_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign" (
    "id" TEXT NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "currencies" JSONB NOT NULL,
    "primary_currency" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3),
    "ends_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),
    "bad_words" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_type" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "event_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_version" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "document" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activated_at" TIMESTAMPTZ(3),

    CONSTRAINT "rule_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_user" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "display_name" TEXT,
    "secret_seed" TEXT NOT NULL DEFAULT (replace((gen_random_uuid())::text, '-'::text, ''::text) || replace((gen_random_uuid())::text, '-'::text, ''::text)),
    "referrer_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "identity" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "identity_type" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "handle" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_log" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "reg_event_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "identity_type" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount" DECIMAL(48,18) NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'api',
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "logged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_log_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "ledger_entry" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "rule_version" INTEGER NOT NULL,
    "rule_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "points" DECIMAL NOT NULL,
    "capped_points" DECIMAL NOT NULL DEFAULT 0,
    "lineage" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "score" (
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "score" DECIMAL NOT NULL DEFAULT 0,
    "referral_score" DECIMAL NOT NULL DEFAULT 0,
    "total" DECIMAL NOT NULL DEFAULT 0,
    "lifetime" DECIMAL NOT NULL DEFAULT 0,
    "tier" TEXT,
    "reached_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "score_pkey" PRIMARY KEY ("campaign_id","user_id","currency")
);

-- CreateTable
CREATE TABLE "dead_letter" (
    "id" BIGSERIAL NOT NULL,
    "stream" TEXT NOT NULL,
    "stream_seq" BIGINT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "error" TEXT NOT NULL,
    "deliveries" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dead_letter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recompute_job" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "rule_version" INTEGER NOT NULL,
    "reason" TEXT NOT NULL DEFAULT 'rule-activation',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "events_total" BIGINT NOT NULL DEFAULT 0,
    "events_done" BIGINT NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "recompute_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_email_key" ON "operator"("email");

-- CreateIndex
CREATE INDEX "campaign_project_id_idx" ON "campaign"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_prefix_key" ON "api_key"("prefix");

-- CreateIndex
CREATE INDEX "api_key_campaign_id_idx" ON "api_key"("campaign_id");

-- CreateIndex
CREATE UNIQUE INDEX "event_type_campaign_id_name_key" ON "event_type"("campaign_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "rule_version_campaign_id_version_key" ON "rule_version"("campaign_id", "version");

-- CreateIndex
CREATE INDEX "app_user_campaign_id_idx" ON "app_user"("campaign_id");

-- CreateIndex
CREATE INDEX "identity_user_id_idx" ON "identity"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "identity_campaign_id_identity_type_account_id_key" ON "identity"("campaign_id", "identity_type", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "event_log_id_key" ON "event_log"("id");

-- CreateIndex
CREATE INDEX "event_log_campaign_id_user_id_seq_idx" ON "event_log"("campaign_id", "user_id", "seq");

-- CreateIndex
CREATE INDEX "ledger_entry_campaign_id_user_id_idx" ON "ledger_entry"("campaign_id", "user_id");

-- CreateIndex
CREATE INDEX "ledger_entry_event_id_idx" ON "ledger_entry"("event_id");

-- CreateIndex
CREATE INDEX "score_campaign_id_currency_total_reached_at_idx" ON "score"("campaign_id", "currency", "total" DESC, "reached_at");

-- CreateIndex
CREATE UNIQUE INDEX "dead_letter_stream_stream_seq_key" ON "dead_letter"("stream", "stream_seq");

-- CreateIndex
CREATE INDEX "recompute_job_campaign_id_created_at_idx" ON "recompute_job"("campaign_id", "created_at");

-- AddForeignKey
ALTER TABLE "operator" ADD CONSTRAINT "operator_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_type" ADD CONSTRAINT "event_type_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_version" ADD CONSTRAINT "rule_version_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- The raw event log is append-only: no UPDATE, DELETE or TRUNCATE, whoever connects.
CREATE FUNCTION "event_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'event_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "event_log_no_update_delete" BEFORE UPDATE OR DELETE ON "event_log"
  FOR EACH ROW EXECUTE FUNCTION "event_log_append_only"();

CREATE TRIGGER "event_log_no_truncate" BEFORE TRUNCATE ON "event_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "event_log_append_only"();
