-- Retention (`npm run cli -- retention`; docs/operations.md, "Partitions and retention"): how many whole
-- months before the current one a client's transactions are kept (60: the usual five years of AML record
-- keeping; at least 12, checked where it is set), and the archives the command wrote.
ALTER TABLE "clients" ADD COLUMN "retentionMonths" INTEGER NOT NULL DEFAULT 60;

-- One row per archive file whose rows were deleted: inserted in the transaction that deletes them, so a file
-- without its row is the leftover of a run that stopped before its delete committed (written again), and a
-- month's rows that arrive after its archive go to a further file ("part" 2, 3, ...). Never deleted.
CREATE TABLE "retention_archives" (
  "clientId" TEXT NOT NULL,
  "table" TEXT NOT NULL,
  "month" DATE NOT NULL,
  "part" INTEGER NOT NULL,
  "file" TEXT NOT NULL,
  "sha256" TEXT NOT NULL,
  "rows" BIGINT NOT NULL,
  "bytes" BIGINT NOT NULL,
  "archivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "retention_archives_pkey" PRIMARY KEY ("clientId", "table", "month", "part")
);
