-- Admin sign-in attempts are counted per e-mail and per client address in one table: a row's key says
-- which (`email:<address>`, `ip:<address>`), as portal_attempt's keys do. Rows counted so far keep counting.
ALTER TABLE "sign_in_attempt" RENAME COLUMN "email" TO "key";
UPDATE "sign_in_attempt" SET "key" = 'email:' || "key";
