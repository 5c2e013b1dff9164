-- The portal API: participants sign in for themselves (wallet or e-mail code), hold sessions with
-- refresh tokens, share referral codes and link social accounts through OAuth.

-- Sign-in nonces of wallet messages: single-use (used_at set on first use) and short-lived.
CREATE TABLE "portal_nonce" (
    "nonce" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "portal_nonce_pkey" PRIMARY KEY ("nonce")
);
CREATE INDEX "portal_nonce_expires_at_idx" ON "portal_nonce"("expires_at");

-- One pending e-mail code per campaign and address; only a hash of the code is kept.
CREATE TABLE "portal_email_code" (
    "campaign_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portal_email_code_pkey" PRIMARY KEY ("campaign_id", "email")
);

-- Attempts per key (an IP address or an identity, with the action) in a window that starts with its first attempt.
CREATE TABLE "portal_attempt" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portal_attempt_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "portal_attempt_window_start_idx" ON "portal_attempt"("window_start");

-- A participant's session: the refresh token (hashed) that renews its short-lived access tokens.
CREATE TABLE "portal_session" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "refresh_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "portal_session_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "portal_session_refresh_hash_key" ON "portal_session"("refresh_hash");
CREATE INDEX "portal_session_user_id_idx" ON "portal_session"("user_id");

-- Every user's referral code, unique within the campaign; given out on first request.
CREATE TABLE "portal_referral_code" (
    "user_id" UUID NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,

    CONSTRAINT "portal_referral_code_pkey" PRIMARY KEY ("user_id")
);
CREATE UNIQUE INDEX "portal_referral_code_campaign_id_code_key" ON "portal_referral_code"("campaign_id", "code");

-- An OAuth authorization in progress: state, PKCE verifier and who asked, until the provider calls back.
CREATE TABLE "portal_oauth_state" (
    "state" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portal_oauth_state_pkey" PRIMARY KEY ("state")
);
