-- Token-claim rewards are delivered either through an epoch's Merkle root (claimed on chain with a proof)
-- or at once as a burn voucher: EIP-712 typed data the service signs and the claim contract redeems once.
ALTER TABLE "reward" ADD COLUMN "claim_method" TEXT;
UPDATE "reward" SET "claim_method" = 'merkle' WHERE "kind" = 'token-claim';
ALTER TABLE "reward" ADD CONSTRAINT "reward_claim_method_check" CHECK (
  ("kind" = 'token-claim' AND "claim_method" IN ('merkle', 'burn-voucher')) OR ("kind" <> 'token-claim' AND "claim_method" IS NULL)
);

-- The voucher a burn-voucher redemption delivered (so a retry returns the same one): nonce, expiry (unix seconds) and signature.
ALTER TABLE "redemption" ADD COLUMN "voucher_nonce" DECIMAL;
ALTER TABLE "redemption" ADD COLUMN "voucher_expiry" BIGINT;
ALTER TABLE "redemption" ADD COLUMN "voucher_signature" TEXT;
CREATE UNIQUE INDEX "redemption_voucher_nonce_key" ON "redemption"("voucher_nonce");

-- The redemption's facts now include its voucher; only the status may still change.
CREATE OR REPLACE FUNCTION "pointwise_redemption_status_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW."id", NEW."campaign_id", NEW."reward_id", NEW."user_id", NEW."idempotency_key", NEW."request_hash", NEW."channel", NEW."kind",
      NEW."currency", NEW."price", NEW."balance_before", NEW."balance_after", NEW."token_amount", NEW."account", NEW."created_at",
      NEW."voucher_nonce", NEW."voucher_expiry", NEW."voucher_signature")
     IS DISTINCT FROM
     (OLD."id", OLD."campaign_id", OLD."reward_id", OLD."user_id", OLD."idempotency_key", OLD."request_hash", OLD."channel", OLD."kind",
      OLD."currency", OLD."price", OLD."balance_before", OLD."balance_after", OLD."token_amount", OLD."account", OLD."created_at",
      OLD."voucher_nonce", OLD."voucher_expiry", OLD."voucher_signature") THEN
    RAISE EXCEPTION 'redemption is append-only: only its status may change' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
