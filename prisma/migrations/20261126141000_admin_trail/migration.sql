-- An admin-issued password reset: the member signs in with the temporary password once and must set
-- their own before anything else of the dashboard answers.
ALTER TABLE "dashboard_users" ADD COLUMN "mustChangePassword" BOOLEAN NOT NULL DEFAULT false;

-- The change note a publisher gives, kept with the version it made live.
ALTER TABLE "rule_versions" ADD COLUMN "publishNote" TEXT;
ALTER TABLE "rule_versions" ADD COLUMN "publishedAt" TIMESTAMPTZ(3);
ALTER TABLE "rule_versions" ADD COLUMN "publishedBy" TEXT;

-- The audit trail page filters by actor or by action, newest first, keyset on ("createdAt", id).
CREATE INDEX "audit_logs_clientId_actorId_createdAt_idx" ON "audit_logs" ("clientId", "actorId", "createdAt");
CREATE INDEX "audit_logs_clientId_action_createdAt_idx" ON "audit_logs" ("clientId", "action", "createdAt");
