-- Recompute jobs run per campaign in the order they were queued. created_at has millisecond
-- precision and follows the database server's clock, so two jobs queued in one millisecond (or
-- across a clock step back) tie or swap; a sequence number is the queue order instead.
ALTER TABLE "recompute_job" ADD COLUMN "queue_seq" BIGINT;
CREATE SEQUENCE "recompute_job_queue_seq_seq" OWNED BY "recompute_job"."queue_seq";
-- Jobs queued before this migration keep the order the worker gave them until now.
UPDATE "recompute_job" j SET "queue_seq" = o.n
  FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "recompute_job") o
 WHERE j."id" = o."id";
SELECT setval('"recompute_job_queue_seq_seq"', coalesce((SELECT max("queue_seq") FROM "recompute_job"), 0) + 1, false);
ALTER TABLE "recompute_job" ALTER COLUMN "queue_seq" SET DEFAULT nextval('"recompute_job_queue_seq_seq"');
ALTER TABLE "recompute_job" ALTER COLUMN "queue_seq" SET NOT NULL;
CREATE UNIQUE INDEX "recompute_job_queue_seq_key" ON "recompute_job"("queue_seq");
DROP INDEX "recompute_job_campaign_id_created_at_idx";
DROP INDEX "recompute_job_status_created_at_idx";
CREATE INDEX "recompute_job_campaign_id_queue_seq_idx" ON "recompute_job"("campaign_id", "queue_seq");
CREATE INDEX "recompute_job_status_queue_seq_idx" ON "recompute_job"("status", "queue_seq");
