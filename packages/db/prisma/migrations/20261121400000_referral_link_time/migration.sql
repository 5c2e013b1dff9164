-- When a user's referrer was set. A referral link is part of scoring history: the referrer earns
-- from the referee's events logged from this moment on, so the moment is stored and never changed.
ALTER TABLE "app_user" ADD COLUMN "referred_at" TIMESTAMPTZ(3);
