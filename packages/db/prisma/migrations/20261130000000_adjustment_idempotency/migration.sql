-- The answer to an adjustment request sent with an Idempotency-Key, so a retry of a request that
-- made adjustments answers the same again instead of granting twice. Kept as long as the campaign.
CREATE TABLE "adjustment_request" (
    "campaign_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "adjustment_request_pkey" PRIMARY KEY ("campaign_id", "idempotency_key")
);

ALTER TABLE "adjustment_request" ADD CONSTRAINT "adjustment_request_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaign"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
