-- Signing out ends one session: its token's id (jti) is kept here until the token would have expired
-- anyway, and every API call refuses a token whose id is listed. Other sessions of the operator go on.
CREATE TABLE "revoked_session" (
    "session_id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "revoked_session_pkey" PRIMARY KEY ("session_id")
);

-- Revocations of expired tokens are purged by expires_at.
CREATE INDEX "revoked_session_expires_at_idx" ON "revoked_session"("expires_at");

-- A removed operator's revocations go with them (their sessions end by the missing operator anyway).
ALTER TABLE "revoked_session" ADD CONSTRAINT "revoked_session_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;
