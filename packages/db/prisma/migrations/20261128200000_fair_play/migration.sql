-- Fair play: exclusions (who earns nothing and is absent from leaderboards), operator adjustments
-- (an append-only ledger of grants and deductions that recomputes add back) and the audit trail of
-- operator actions (append-only). See docs/decisions.md and docs/api/admin.md.

-- An exclusion names an identity (in one campaign, or in every campaign of a project) or a user of
-- one campaign. Lifting it deletes the row; the audit trail keeps what it was.
CREATE TABLE "exclusion" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "project_id" UUID NOT NULL,
    "campaign_id" TEXT,
    "identity_type" TEXT,
    "account_id" TEXT,
    "user_id" UUID,
    "reason" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "operator_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exclusion_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "exclusion_target_check" CHECK (
      ("user_id" IS NULL AND "identity_type" IS NOT NULL AND "account_id" IS NOT NULL)
      OR ("user_id" IS NOT NULL AND "identity_type" IS NULL AND "account_id" IS NULL AND "campaign_id" IS NOT NULL)
    )
);

-- One exclusion per identity and scope, one per user.
CREATE UNIQUE INDEX "exclusion_identity_key" ON "exclusion"("project_id", COALESCE("campaign_id", ''), "identity_type", "account_id") WHERE "user_id" IS NULL;
CREATE UNIQUE INDEX "exclusion_user_key" ON "exclusion"("campaign_id", "user_id") WHERE "user_id" IS NOT NULL;
-- The scoring worker looks up a user's identities in it.
CREATE INDEX "exclusion_identity_idx" ON "exclusion"("identity_type", "account_id");
CREATE INDEX "exclusion_campaign_idx" ON "exclusion"("campaign_id", "created_at");
ALTER TABLE "exclusion" ADD CONSTRAINT "exclusion_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "exclusion" ADD CONSTRAINT "exclusion_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Operator adjustments: grants (points > 0) and deductions (points < 0) in a currency for a user.
-- Never changed or deleted; a reversal is a further row naming the one it reverses.
CREATE TABLE "score_adjustment" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "points" DECIMAL NOT NULL,
    "reason" TEXT NOT NULL,
    "operator_id" UUID,
    "operator_email" TEXT NOT NULL,
    "reverses_id" BIGINT,
    "import_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "score_adjustment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "score_adjustment_points_check" CHECK ("points" <> 0)
);

CREATE INDEX "score_adjustment_campaign_user_idx" ON "score_adjustment"("campaign_id", "user_id", "id");
CREATE INDEX "score_adjustment_campaign_idx" ON "score_adjustment"("campaign_id", "id");
-- An adjustment is reversed at most once.
CREATE UNIQUE INDEX "score_adjustment_reverses_key" ON "score_adjustment"("reverses_id");
ALTER TABLE "score_adjustment" ADD CONSTRAINT "score_adjustment_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "score_adjustment" ADD CONSTRAINT "score_adjustment_reverses_id_fkey" FOREIGN KEY ("reverses_id") REFERENCES "score_adjustment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The audit trail: one row per operator action that changes what users see.
CREATE TABLE "audit_event" (
    "id" BIGSERIAL NOT NULL,
    "project_id" UUID NOT NULL,
    "campaign_id" TEXT,
    "operator_id" UUID,
    "operator_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_event_project_idx" ON "audit_event"("project_id", "id");
CREATE INDEX "audit_event_campaign_idx" ON "audit_event"("campaign_id", "id");

-- Both are append-only for everyone, like the event log.
CREATE FUNCTION "pointwise_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "score_adjustment_no_update_delete" BEFORE UPDATE OR DELETE ON "score_adjustment"
  FOR EACH ROW EXECUTE FUNCTION "pointwise_append_only"();
CREATE TRIGGER "score_adjustment_no_truncate" BEFORE TRUNCATE ON "score_adjustment"
  FOR EACH STATEMENT EXECUTE FUNCTION "pointwise_append_only"();
CREATE TRIGGER "audit_event_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_event"
  FOR EACH ROW EXECUTE FUNCTION "pointwise_append_only"();
CREATE TRIGGER "audit_event_no_truncate" BEFORE TRUNCATE ON "audit_event"
  FOR EACH STATEMENT EXECUTE FUNCTION "pointwise_append_only"();

-- The services' role may read and append to the two new append-only tables, never change them.
CREATE OR REPLACE FUNCTION "pointwise_grant_app_role"(role_name TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s TEXT := current_schema();
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', s, role_name);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO %I', s, role_name);
  EXECUTE format('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %I TO %I', s, role_name);
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I."event_log" FROM %I', s, role_name);
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I."score_adjustment" FROM %I', s, role_name);
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I."audit_event" FROM %I', s, role_name);
  IF to_regclass(format('%I."_pointwise_migrations"', s)) IS NOT NULL THEN
    EXECUTE format('REVOKE ALL ON %I."_pointwise_migrations" FROM %I', s, role_name);
  END IF;
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
