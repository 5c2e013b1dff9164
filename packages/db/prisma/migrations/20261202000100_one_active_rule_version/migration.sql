-- A campaign has at most one active rule version, and the database holds it to that: a second
-- activation that was not serialized with the first (the scoring worker's switch runs under the
-- campaign's apply lock) fails instead of leaving two versions in force.
-- Writers stay out until the commit, so no version turns active between the clean-up and the index.
LOCK TABLE "rule_version" IN SHARE ROW EXCLUSIVE MODE;

-- A campaign that already has several active versions keeps the newest (the highest version, the
-- one the scoring worker scores under) and the older ones become what the switch makes of a retired
-- version.
UPDATE "rule_version" AS "older"
   SET "status" = 'superseded'
 WHERE "older"."status" = 'active'
   AND EXISTS (
     SELECT 1 FROM "rule_version" AS "newer"
      WHERE "newer"."campaign_id" = "older"."campaign_id" AND "newer"."status" = 'active' AND "newer"."version" > "older"."version"
   );

-- Prisma's schema cannot express a partial index; the RuleVersion model names this one (see base.prisma).
CREATE UNIQUE INDEX "rule_version_one_active_key" ON "rule_version"("campaign_id") WHERE "status" = 'active';
