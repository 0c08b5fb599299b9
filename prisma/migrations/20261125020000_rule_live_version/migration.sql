-- Rule versions that cannot lose coverage (issue 13): a rule's live version is explicit, so saving a
-- draft (a new version) never changes what screens. Until now the newest version was the live one.
ALTER TABLE "rules" ADD COLUMN "liveVersion" INTEGER;
UPDATE "rules" SET "liveVersion" = "currentVersion";

-- The latest backtest of each rule (draft against live), kept until the next run.
CREATE TABLE "backtest_runs" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "ruleRef" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "draftVersionId" TEXT NOT NULL,
    "draftVersion" INTEGER NOT NULL,
    "liveVersionId" TEXT,
    "liveVersion" INTEGER,
    "liveStatus" TEXT,
    "periodFrom" TIMESTAMPTZ(3) NOT NULL,
    "periodTo" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL,
    "cursor" TEXT,
    "total" INTEGER,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "draftHits" INTEGER NOT NULL DEFAULT 0,
    "liveHits" INTEGER NOT NULL DEFAULT 0,
    "onlyDraft" INTEGER NOT NULL DEFAULT 0,
    "onlyLive" INTEGER NOT NULL DEFAULT 0,
    "draftErrors" INTEGER NOT NULL DEFAULT 0,
    "liveErrors" INTEGER NOT NULL DEFAULT 0,
    "firstError" TEXT,
    "samples" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backtest_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "backtest_runs_ruleRef_key" ON "backtest_runs"("ruleRef");
CREATE INDEX "backtest_runs_clientId_idx" ON "backtest_runs"("clientId");
ALTER TABLE "backtest_runs" ADD CONSTRAINT "backtest_runs_ruleRef_fkey" FOREIGN KEY ("ruleRef") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
