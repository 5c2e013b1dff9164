-- The ledger is written once per award (two or more rows per event) and read per user, so it keeps
-- one index: its primary key (campaign_id, user_id, id), which serves a user's history newest first
-- and the charts' per-user sums. Dropped: the id-only key, the (campaign_id, user_id) index the new
-- key replaces, the event_id index (reads join the log by its id, never the ledger by event), and the
-- unique entry key: an event's entries are written in the transaction that first logs the event, and
-- a recompute replaces a version's entries wholesale, so the key is unique by construction (the
-- worker's tests check it) rather than by an index every insert pays for.
-- Lineage is json, not jsonb: it is written far more often than read and never queried inside, and
-- json is stored as sent where jsonb is parsed into its binary form on every insert.
ALTER TABLE "ledger_entry" DROP CONSTRAINT "ledger_entry_pkey";
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_pkey" PRIMARY KEY ("campaign_id", "user_id", "id");
DROP INDEX "ledger_entry_campaign_id_user_id_idx";
DROP INDEX "ledger_entry_event_id_idx";
DROP INDEX "ledger_entry_campaign_id_rule_version_entry_key_key";
ALTER TABLE "ledger_entry" ALTER COLUMN "lineage" DROP DEFAULT;
ALTER TABLE "ledger_entry" ALTER COLUMN "lineage" TYPE JSON USING "lineage"::json;
ALTER TABLE "ledger_entry" ALTER COLUMN "lineage" SET DEFAULT '{}';
