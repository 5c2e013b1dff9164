-- The portal API: a signed-in participant links an e-mail address by a one-time code sent to it.
-- A link code is kept apart from a sign-in code of the same address (one pending code per purpose)
-- and is bound to the user who asked for it.
ALTER TABLE "portal_email_code" ADD COLUMN "purpose" TEXT NOT NULL DEFAULT 'sign-in';
ALTER TABLE "portal_email_code" ADD COLUMN "user_id" UUID;
ALTER TABLE "portal_email_code" DROP CONSTRAINT "portal_email_code_pkey";
ALTER TABLE "portal_email_code" ADD CONSTRAINT "portal_email_code_pkey" PRIMARY KEY ("campaign_id", "email", "purpose");
ALTER TABLE "portal_email_code" ADD CONSTRAINT "portal_email_code_purpose_check" CHECK (
  ("purpose" = 'sign-in' AND "user_id" IS NULL) OR ("purpose" = 'link' AND "user_id" IS NOT NULL)
);
