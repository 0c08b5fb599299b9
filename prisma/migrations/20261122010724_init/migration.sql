-- CreateEnum
CREATE TYPE "ClientType" AS ENUM ('business', 'consumer');

-- CreateEnum
CREATE TYPE "DashboardRole" AS ENUM ('admin', 'reviewer', 'reporting_officer');

-- CreateTable
CREATE TABLE "clients" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "ClientType" NOT NULL,
    "features" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "actions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "reportingProfile" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT NOT NULL,
    "role" "DashboardRole" NOT NULL,
    "disabledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "statusReason" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "riskLevel" TEXT,
    "recommendedAction" TEXT,
    "assessedAt" TIMESTAMPTZ(3),
    "decisionId" TEXT,

    CONSTRAINT "users_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "user_status_changes" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "comment" TEXT,
    "reviewer" TEXT,
    "reason" TEXT,
    "details" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "devices" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "userId" TEXT,
    "fingerprint" TEXT,
    "ipAddress" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "devices_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "user_identifiers" (
    "clientId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_identifiers_pkey" PRIMARY KEY ("clientId","kind","value","userId")
);

-- CreateTable
CREATE TABLE "merchants" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT,
    "organizationId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "riskLevel" TEXT,
    "recommendedAction" TEXT,
    "assessedAt" TIMESTAMPTZ(3),
    "decisionId" TEXT,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "merchant_versions" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchant_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transactions" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "userId" TEXT,
    "merchantId" TEXT,
    "accountId" TEXT,
    "userDeviceId" TEXT,
    "cardFingerprint" TEXT,
    "status" TEXT NOT NULL,
    "direction" TEXT,
    "paymentMethod" TEXT,
    "currencyCode" TEXT NOT NULL,
    "amount" DECIMAL(24,8) NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,
    "bodyHash" TEXT NOT NULL,
    "riskLevel" TEXT NOT NULL,
    "recommendedAction" TEXT NOT NULL,
    "assessedAt" TIMESTAMPTZ(3) NOT NULL,
    "decisionId" TEXT,
    "isFraud" BOOLEAN NOT NULL DEFAULT false,
    "isChargeback" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "transaction_updates" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "transactionId" TEXT NOT NULL,
    "status" TEXT,
    "reason" TEXT,
    "description" TEXT,
    "type" TEXT,
    "isFraudulent" BOOLEAN,
    "source" TEXT NOT NULL DEFAULT 'api',
    "actor" TEXT,
    "changes" JSONB,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transaction_updates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_instruments" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "method" TEXT,
    "data" JSONB NOT NULL,
    "inferred" BOOLEAN NOT NULL DEFAULT false,
    "riskLevel" TEXT NOT NULL,
    "recommendedAction" TEXT NOT NULL,
    "walletVerification" JSONB,
    "assessedAt" TIMESTAMPTZ(3) NOT NULL,
    "decisionId" TEXT,
    "occurredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_instruments_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "events" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "method" TEXT,
    "userId" TEXT,
    "merchantId" TEXT,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,
    "riskLevel" TEXT,
    "recommendedAction" TEXT,
    "assessedAt" TIMESTAMPTZ(3),
    "decisionId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "rules" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currentVersion" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_versions" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "ruleRef" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "riskLevel" TEXT NOT NULL,
    "recommendedAction" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "condition" TEXT NOT NULL,
    "aggregates" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rule_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decisions" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "riskLevel" TEXT NOT NULL,
    "recommendedAction" TEXT NOT NULL,
    "evaluated" JSONB NOT NULL,
    "aggregates" JSONB NOT NULL,
    "input" JSONB NOT NULL,
    "response" JSONB NOT NULL,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "transactionId" TEXT NOT NULL,
    "userId" TEXT,
    "ruleRef" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "ruleVersionId" TEXT NOT NULL,
    "ruleName" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "recommendedAction" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "assignedToId" TEXT,
    "reviewedBy" TEXT,
    "reviewedAt" TIMESTAMPTZ(3),
    "feedback" TEXT,
    "decisionId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comments" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "comment" TEXT NOT NULL,
    "commenterId" TEXT NOT NULL,
    "commenterDisplayName" TEXT,
    "externalId" TEXT,
    "transactionId" TEXT,
    "ruleTriggerEventId" TEXT,
    "action" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "clientId" TEXT,
    "name" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secretEncrypted" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "outboxEventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "deliveredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_runs" (
    "id" TEXT NOT NULL,
    "functionId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "steps" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "runAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "output" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_logs" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "details" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_clientId_idx" ON "api_keys"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

-- CreateIndex
CREATE INDEX "dashboard_users_clientId_idx" ON "dashboard_users"("clientId");

-- CreateIndex
CREATE INDEX "users_clientId_status_id_idx" ON "users"("clientId", "status", "id");

-- CreateIndex
CREATE INDEX "user_status_changes_clientId_userId_createdAt_idx" ON "user_status_changes"("clientId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "devices_clientId_userId_idx" ON "devices"("clientId", "userId");

-- CreateIndex
CREATE INDEX "user_identifiers_clientId_userId_idx" ON "user_identifiers"("clientId", "userId");

-- CreateIndex
CREATE INDEX "merchants_clientId_organizationId_idx" ON "merchants"("clientId", "organizationId");

-- CreateIndex
CREATE INDEX "merchant_versions_clientId_merchantId_createdAt_idx" ON "merchant_versions"("clientId", "merchantId", "createdAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_userId_occurredAt_idx" ON "transactions"("clientId", "userId", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_merchantId_occurredAt_idx" ON "transactions"("clientId", "merchantId", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_accountId_occurredAt_idx" ON "transactions"("clientId", "accountId", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_userDeviceId_occurredAt_idx" ON "transactions"("clientId", "userDeviceId", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_cardFingerprint_occurredAt_idx" ON "transactions"("clientId", "cardFingerprint", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_occurredAt_idx" ON "transactions"("clientId", "occurredAt");

-- CreateIndex
CREATE INDEX "transactions_clientId_createdAt_idx" ON "transactions"("clientId", "createdAt");

-- CreateIndex
CREATE INDEX "transaction_updates_clientId_transactionId_createdAt_idx" ON "transaction_updates"("clientId", "transactionId", "createdAt");

-- CreateIndex
CREATE INDEX "payment_instruments_clientId_userId_idx" ON "payment_instruments"("clientId", "userId");

-- CreateIndex
CREATE INDEX "events_clientId_userId_occurredAt_idx" ON "events"("clientId", "userId", "occurredAt");

-- CreateIndex
CREATE INDEX "events_clientId_merchantId_occurredAt_idx" ON "events"("clientId", "merchantId", "occurredAt");

-- CreateIndex
CREATE INDEX "events_clientId_type_occurredAt_idx" ON "events"("clientId", "type", "occurredAt");

-- CreateIndex
CREATE INDEX "rules_clientId_subject_status_idx" ON "rules"("clientId", "subject", "status");

-- CreateIndex
CREATE UNIQUE INDEX "rules_clientId_ruleId_key" ON "rules"("clientId", "ruleId");

-- CreateIndex
CREATE INDEX "rule_versions_clientId_idx" ON "rule_versions"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "rule_versions_ruleRef_version_key" ON "rule_versions"("ruleRef", "version");

-- CreateIndex
CREATE INDEX "decisions_clientId_subjectType_subjectId_createdAt_idx" ON "decisions"("clientId", "subjectType", "subjectId", "createdAt");

-- CreateIndex
CREATE INDEX "decisions_clientId_createdAt_idx" ON "decisions"("clientId", "createdAt");

-- CreateIndex
CREATE INDEX "alerts_clientId_status_createdAt_idx" ON "alerts"("clientId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "alerts_clientId_createdAt_idx" ON "alerts"("clientId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "alerts_clientId_transactionId_ruleRef_key" ON "alerts"("clientId", "transactionId", "ruleRef");

-- CreateIndex
CREATE INDEX "comments_clientId_createdAt_idx" ON "comments"("clientId", "createdAt");

-- CreateIndex
CREATE INDEX "comments_clientId_userId_createdAt_idx" ON "comments"("clientId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "outbox_events_dispatchedAt_createdAt_idx" ON "outbox_events"("dispatchedAt", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_subscriptions_clientId_active_idx" ON "webhook_subscriptions"("clientId", "active");

-- CreateIndex
CREATE INDEX "webhook_deliveries_clientId_createdAt_idx" ON "webhook_deliveries"("clientId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscriptionId_createdAt_idx" ON "webhook_deliveries"("subscriptionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_outboxEventId_subscriptionId_key" ON "webhook_deliveries"("outboxEventId", "subscriptionId");

-- CreateIndex
CREATE INDEX "webhook_attempts_deliveryId_attempt_idx" ON "webhook_attempts"("deliveryId", "attempt");

-- CreateIndex
CREATE INDEX "job_runs_status_runAt_idx" ON "job_runs"("status", "runAt");

-- CreateIndex
CREATE UNIQUE INDEX "job_runs_functionId_eventId_key" ON "job_runs"("functionId", "eventId");

-- CreateIndex
CREATE INDEX "audit_logs_clientId_entityType_entityId_createdAt_idx" ON "audit_logs"("clientId", "entityType", "entityId", "createdAt");

-- CreateIndex
CREATE INDEX "audit_logs_clientId_createdAt_idx" ON "audit_logs"("clientId", "createdAt");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_versions" ADD CONSTRAINT "rule_versions_ruleRef_fkey" FOREIGN KEY ("ruleRef") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
