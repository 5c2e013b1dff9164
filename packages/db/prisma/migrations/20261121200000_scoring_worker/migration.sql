-- The scoring worker: an inbox that puts bus messages back into stream order, engine state per
-- user and per campaign, shadow tables a recompute fills before it switches, and app-role grants.

-- The referee's referrer as it stood when the event was logged. It is part of the immutable event,
-- so a replay of the log credits exactly the referrer the live run credited.
ALTER TABLE "event_log" ADD COLUMN "referrer_id" UUID;

-- The engine's key of an award (`<eventId>/<ruleId>/base`, ...). Unique per campaign and rule
-- version, so writing the same award twice is a no-op. NULL for rows written before this column.
ALTER TABLE "ledger_entry" ADD COLUMN "entry_key" TEXT;
CREATE UNIQUE INDEX "ledger_entry_campaign_id_rule_version_entry_key_key" ON "ledger_entry"("campaign_id", "rule_version", "entry_key");

-- A recompute job is claimed with a lease and checkpoints how far its shadow rows reach, so a
-- replica that dies mid-job leaves work another replica resumes instead of restarting.
ALTER TABLE "recompute_job" ADD COLUMN "applied_seq" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "recompute_job" ADD COLUMN "claimed_by" UUID;
ALTER TABLE "recompute_job" ADD COLUMN "lease_until" TIMESTAMPTZ(3);
CREATE INDEX "recompute_job_status_created_at_idx" ON "recompute_job"("status", "created_at");

-- Raw events taken off the bus and acknowledged, waiting to be applied in stream order. Fields are
-- kept as text so that staging never fails on content; the log insert checks them.
CREATE TABLE "event_inbox" (
    "stream" TEXT NOT NULL,
    "stream_seq" BIGINT NOT NULL,
    "subject" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "reg_event_id" UUID NOT NULL,
    "identity_type" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "received_at" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "staged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_inbox_pkey" PRIMARY KEY ("stream", "stream_seq")
);
CREATE INDEX "event_inbox_stream_campaign_id_stream_seq_idx" ON "event_inbox"("stream", "campaign_id", "stream_seq");

-- The engine's memory of one user under the active rule version (docs/rules.md, UserState).
CREATE TABLE "user_state" (
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "rule_version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_state_pkey" PRIMARY KEY ("campaign_id", "user_id")
);

-- Campaign-wide engine state (budgets); only rule versions with a budget have a row.
CREATE TABLE "campaign_state" (
    "campaign_id" TEXT NOT NULL,
    "rule_version" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_state_pkey" PRIMARY KEY ("campaign_id")
);

-- Shadow rows of a running recompute job: what score, user_state, campaign_state and the ledger
-- will hold once the job switches. Nothing reads them but the job.
CREATE TABLE "recompute_score" (
    "job_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "score" DECIMAL NOT NULL DEFAULT 0,
    "referral_score" DECIMAL NOT NULL DEFAULT 0,
    "total" DECIMAL NOT NULL DEFAULT 0,
    "lifetime" DECIMAL NOT NULL DEFAULT 0,
    "tier" TEXT,
    "reached_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recompute_score_pkey" PRIMARY KEY ("job_id", "user_id", "currency")
);

CREATE TABLE "recompute_user_state" (
    "job_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "state" JSONB NOT NULL,

    CONSTRAINT "recompute_user_state_pkey" PRIMARY KEY ("job_id", "user_id")
);

CREATE TABLE "recompute_campaign_state" (
    "job_id" UUID NOT NULL,
    "state" JSONB NOT NULL,

    CONSTRAINT "recompute_campaign_state_pkey" PRIMARY KEY ("job_id")
);

CREATE TABLE "recompute_ledger_entry" (
    "job_id" UUID NOT NULL,
    "entry_key" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "ord" INTEGER NOT NULL,
    "user_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "rule_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "points" DECIMAL NOT NULL,
    "capped_points" DECIMAL NOT NULL,
    "lineage" JSONB NOT NULL,

    CONSTRAINT "recompute_ledger_entry_pkey" PRIMARY KEY ("job_id", "entry_key")
);

-- Grants for the role the services connect as: read and write everything except the event log,
-- which it may only read and append to (no UPDATE, DELETE or TRUNCATE, on top of the trigger).
-- A deployment runs migrations as the schema owner and the services as this role; see docs/scoring.md.
CREATE FUNCTION "pointwise_grant_app_role"(role_name TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s TEXT := current_schema();
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', s, role_name);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO %I', s, role_name);
  EXECUTE format('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %I TO %I', s, role_name);
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I."event_log" FROM %I', s, role_name);
  IF to_regclass(format('%I."_pointwise_migrations"', s)) IS NOT NULL THEN
    EXECUTE format('REVOKE ALL ON %I."_pointwise_migrations" FROM %I', s, role_name);
  END IF;
  -- Tables added by later migrations (run by the same owner) get the same grants.
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO %I', s, role_name);
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO %I', s, role_name);
END;
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pointwise_app') THEN
    PERFORM "pointwise_grant_app_role"('pointwise_app');
  END IF;
END;
$$;

-- A recompute reads one campaign's log in seq order, chunk by chunk.
CREATE INDEX "event_log_campaign_id_seq_idx" ON "event_log"("campaign_id", "seq");
