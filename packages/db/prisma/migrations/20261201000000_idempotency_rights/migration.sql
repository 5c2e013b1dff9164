-- What a keyed request was judged by when it was first received: the campaign's dates and the API key's backfill
-- right at that time, so a retry that takes over an earlier attempt is judged as that attempt was. A record from
-- before these columns (backfill NULL) is judged by the rights as they are at the retry.
ALTER TABLE "idempotency_key" ADD COLUMN "backfill" BOOLEAN;
ALTER TABLE "idempotency_key" ADD COLUMN "starts_at" TIMESTAMPTZ(3);
ALTER TABLE "idempotency_key" ADD COLUMN "ends_at" TIMESTAMPTZ(3);
