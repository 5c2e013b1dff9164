-- A replayed answer must be the first answer byte for byte; jsonb would re-order its keys.
ALTER TABLE "idempotency_key" ALTER COLUMN "response" SET DATA TYPE TEXT USING "response"::text;
