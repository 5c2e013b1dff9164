-- Engine state is written for every user of every apply batch and only ever read back whole by the
-- worker, never queried inside: json keeps the text as written, where jsonb would parse it into its
-- binary form on each upsert.
ALTER TABLE "user_state" ALTER COLUMN "state" TYPE JSON USING "state"::json;
ALTER TABLE "campaign_state" ALTER COLUMN "state" TYPE JSON USING "state"::json;
ALTER TABLE "recompute_user_state" ALTER COLUMN "state" TYPE JSON USING "state"::json;
ALTER TABLE "recompute_campaign_state" ALTER COLUMN "state" TYPE JSON USING "state"::json;
