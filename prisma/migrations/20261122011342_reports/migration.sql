-- CreateTable
CREATE TABLE "reports" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "reportType" TEXT NOT NULL,
    "reportNumber" TEXT,
    "fiuReferenceNumber" TEXT,
    "title" TEXT,
    "description" TEXT,
    "reason" TEXT,
    "action" TEXT,
    "templateId" TEXT,
    "indicators" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "userId" TEXT,
    "transactionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "merchantId" TEXT,
    "caseOpenedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "submittedAt" TIMESTAMPTZ(3),
    "createdById" TEXT NOT NULL,
    "updatedById" TEXT,
    "submittedById" TEXT,
    "preparedById" TEXT,
    "content" JSONB NOT NULL DEFAULT '{}',
    "incomplete" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "reports_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateTable
CREATE TABLE "report_audit_entries" (
    "clientId" TEXT NOT NULL,
    "reportId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "changes" JSONB,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "report_audit_entries_pkey" PRIMARY KEY ("clientId","reportId","seq")
);

-- CreateTable
CREATE TABLE "report_templates" (
    "clientId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "title" TEXT,
    "reason" TEXT,
    "action" TEXT,
    "indicators" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_templates_pkey" PRIMARY KEY ("clientId","id")
);

-- CreateIndex
CREATE INDEX "reports_clientId_createdAt_idx" ON "reports"("clientId", "createdAt");

-- CreateIndex
CREATE INDEX "reports_clientId_userId_idx" ON "reports"("clientId", "userId");

-- CreateIndex
CREATE INDEX "reports_clientId_status_createdAt_idx" ON "reports"("clientId", "status", "createdAt");
