-- The sweeper (lib/jobs/sweep-deliveries.ts) requests again the pending deliveries whose run ended
-- failed: when it last did, and how many times in a row without the delivery moving on in between.
ALTER TABLE "webhook_deliveries" ADD COLUMN "sweptAt" TIMESTAMPTZ(3),
                                 ADD COLUMN "sweeps" INTEGER NOT NULL DEFAULT 0;

-- Its scan: only the pending deliveries, by the time they are due (Prisma's schema cannot express a
-- partial expression index, hence only here, like "cases_open_subject_key").
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries" ((COALESCE("nextAttemptAt", "createdAt")))
  WHERE "status" = 'pending';
