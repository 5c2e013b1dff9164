-- Operator sessions can be ended: a session token carries the operator's session_version, and a
-- password change raises it, so every token signed before the change stops working at once.
ALTER TABLE "operator" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;

-- Sign-in attempts per e-mail (known or not, so the limit reveals nothing about who has an
-- account) in a fixed window that starts with the first attempt; a successful sign-in removes the row.
CREATE TABLE "sign_in_attempt" (
    "email" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_attempt_pkey" PRIMARY KEY ("email")
);

-- Ended windows are purged by window_start.
CREATE INDEX "sign_in_attempt_window_start_idx" ON "sign_in_attempt"("window_start");
