-- Rewards: a campaign's catalogue of things its points buy, the voucher codes some of them hand out,
-- the redemptions (what was spent, by whom, with its lineage) and the epochs that group token-claim
-- redemptions into one Merkle root each. See docs/rewards.md.

-- How the campaign's leaderboard ranks: by what users earned (total) or by what they can still spend.
ALTER TABLE "campaign" ADD COLUMN "leaderboard_ranking" TEXT NOT NULL DEFAULT 'earned';
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_leaderboard_ranking_check" CHECK ("leaderboard_ranking" IN ('earned', 'balance'));

-- What a user spent in a currency, in the row's stored (decay-scaled) form like score and total.
-- The balance never goes below zero: when a recompute leaves total below spent, the difference is a
-- shortfall (spent - total) that later earnings fill before the balance grows again.
ALTER TABLE "score" ADD COLUMN "spent" DECIMAL NOT NULL DEFAULT 0;
ALTER TABLE "score" ADD COLUMN "balance" DECIMAL GENERATED ALWAYS AS (GREATEST("total" - "spent", 0)) STORED;
ALTER TABLE "score" ADD CONSTRAINT "score_spent_check" CHECK ("spent" >= 0);
CREATE INDEX "score_balance_idx" ON "score"("campaign_id", "currency", "balance" DESC, "reached_at");

-- A reward of the catalogue. stock is what is left (null: unlimited); archived rewards cannot be redeemed.
CREATE TABLE "reward" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "price" DECIMAL NOT NULL,
    "stock" INTEGER,
    "per_user_limit" INTEGER,
    "redeemable_from" TIMESTAMPTZ(3),
    "redeemable_until" TIMESTAMPTZ(3),
    "token_amount" DECIMAL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reward_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "reward_kind_check" CHECK ("kind" IN ('voucher', 'token-claim', 'manual')),
    CONSTRAINT "reward_status_check" CHECK ("status" IN ('active', 'archived')),
    CONSTRAINT "reward_price_check" CHECK ("price" > 0),
    CONSTRAINT "reward_stock_check" CHECK ("stock" >= 0),
    CONSTRAINT "reward_per_user_limit_check" CHECK ("per_user_limit" >= 1),
    CONSTRAINT "reward_window_check" CHECK ("redeemable_from" IS NULL OR "redeemable_until" IS NULL OR "redeemable_from" < "redeemable_until"),
    CONSTRAINT "reward_token_amount_check" CHECK (("kind" = 'token-claim') = ("token_amount" IS NOT NULL) AND ("token_amount" IS NULL OR "token_amount" > 0))
);
CREATE INDEX "reward_campaign_idx" ON "reward"("campaign_id", "created_at");
ALTER TABLE "reward" ADD CONSTRAINT "reward_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The redemptions: one row per spend. Its facts (who, what, price, balance before and after, when)
-- never change; only its status moves on (a manual reward's fulfilment, a token claim's epoch).
CREATE TABLE "redemption" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "reward_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "price" DECIMAL NOT NULL,
    "balance_before" DECIMAL NOT NULL,
    "balance_after" DECIMAL NOT NULL,
    "token_amount" DECIMAL,
    "account" TEXT,
    "claim_epoch_id" BIGINT,
    "status" TEXT NOT NULL,
    "status_note" TEXT,
    "status_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "redemption_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "redemption_channel_check" CHECK ("channel" IN ('portal', 'api-key')),
    CONSTRAINT "redemption_status_check" CHECK ("status" IN ('delivered', 'pending', 'fulfilled', 'rejected', 'claimable')),
    CONSTRAINT "redemption_balance_check" CHECK ("balance_after" >= 0 AND "balance_before" - "price" = "balance_after")
);
CREATE UNIQUE INDEX "redemption_idempotency_key" ON "redemption"("campaign_id", "user_id", "idempotency_key");
CREATE INDEX "redemption_campaign_idx" ON "redemption"("campaign_id", "created_at", "id");
CREATE INDEX "redemption_user_idx" ON "redemption"("campaign_id", "user_id", "reward_id");
CREATE INDEX "redemption_epoch_idx" ON "redemption"("claim_epoch_id");
ALTER TABLE "redemption" ADD CONSTRAINT "redemption_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "redemption" ADD CONSTRAINT "redemption_reward_id_fkey" FOREIGN KEY ("reward_id") REFERENCES "reward"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "redemption" ADD CONSTRAINT "redemption_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A voucher reward's codes. Only a SHA-256 hash (for uniqueness) and an AES-256-GCM ciphertext
-- under the service's key are kept, never the code itself; the ciphertext is read back only for the
-- user the code was handed out to.
CREATE TABLE "reward_code" (
    "id" BIGSERIAL NOT NULL,
    "reward_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "redemption_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handed_out_at" TIMESTAMPTZ(3),

    CONSTRAINT "reward_code_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reward_code_hash_key" ON "reward_code"("reward_id", "code_hash");
CREATE UNIQUE INDEX "reward_code_redemption_key" ON "reward_code"("redemption_id");
CREATE INDEX "reward_code_free_idx" ON "reward_code"("reward_id", "id") WHERE "redemption_id" IS NULL;
ALTER TABLE "reward_code" ADD CONSTRAINT "reward_code_reward_id_fkey" FOREIGN KEY ("reward_id") REFERENCES "reward"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "reward_code" ADD CONSTRAINT "reward_code_redemption_id_fkey" FOREIGN KEY ("redemption_id") REFERENCES "redemption"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An epoch of token claims: open while token-claim redemptions join it, then closed with its Merkle
-- tree and published on chain. Its id is the epoch number the claim contract knows.
CREATE TABLE "claim_epoch" (
    "id" BIGSERIAL NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "root" TEXT,
    "tree" JSONB,
    "tx_hash" TEXT,
    "block_number" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "claim_epoch_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "claim_epoch_status_check" CHECK ("status" IN ('open', 'closed', 'published'))
);
-- At most one open epoch per campaign.
CREATE UNIQUE INDEX "claim_epoch_open_key" ON "claim_epoch"("campaign_id") WHERE "status" = 'open';
CREATE INDEX "claim_epoch_campaign_idx" ON "claim_epoch"("campaign_id", "id");
ALTER TABLE "claim_epoch" ADD CONSTRAINT "claim_epoch_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "redemption" ADD CONSTRAINT "redemption_claim_epoch_id_fkey" FOREIGN KEY ("claim_epoch_id") REFERENCES "claim_epoch"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A redemption's facts are append-only: no DELETE or TRUNCATE, and an UPDATE may only move its status.
CREATE FUNCTION "pointwise_redemption_status_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW."id", NEW."campaign_id", NEW."reward_id", NEW."user_id", NEW."idempotency_key", NEW."request_hash", NEW."channel", NEW."kind",
      NEW."currency", NEW."price", NEW."balance_before", NEW."balance_after", NEW."token_amount", NEW."account", NEW."created_at")
     IS DISTINCT FROM
     (OLD."id", OLD."campaign_id", OLD."reward_id", OLD."user_id", OLD."idempotency_key", OLD."request_hash", OLD."channel", OLD."kind",
      OLD."currency", OLD."price", OLD."balance_before", OLD."balance_after", OLD."token_amount", OLD."account", OLD."created_at") THEN
    RAISE EXCEPTION 'redemption is append-only: only its status may change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "redemption_status_only" BEFORE UPDATE ON "redemption"
  FOR EACH ROW EXECUTE FUNCTION "pointwise_redemption_status_only"();
CREATE TRIGGER "redemption_no_delete" BEFORE DELETE ON "redemption"
  FOR EACH ROW EXECUTE FUNCTION "pointwise_append_only"();
CREATE TRIGGER "redemption_no_truncate" BEFORE TRUNCATE ON "redemption"
  FOR EACH STATEMENT EXECUTE FUNCTION "pointwise_append_only"();

-- The services' role: as before, and it may not delete or truncate redemptions.
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
  EXECUTE format('REVOKE DELETE, TRUNCATE ON %I."redemption" FROM %I', s, role_name);
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
