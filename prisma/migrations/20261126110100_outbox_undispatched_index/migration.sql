-- The job driver's pass reads the undispatched outbox rows in commit order
-- (`WHERE "dispatchedAt" IS NULL ORDER BY "createdAt" LIMIT n`, lib/jobs/run-store.ts) and marks them
-- dispatched. The index on ("dispatchedAt", "createdAt") kept an entry with a NULL "dispatchedAt" for
-- every row ever written until VACUUM removed the old row version, and the prepared pass read them
-- all through a bitmap scan (which never marks dead entries): on the bench database, 94,532 entries
-- and 2,700 heap pages to find 24 rows, 45 ms of PostgreSQL CPU per pass, several passes a second
-- under load, growing with every delivery until the next VACUUM. A partial index of the
-- undispatched rows alone, in "createdAt" order, serves the pass by a plain index scan that stops
-- after `n` rows and marks the dead entries it passes, and costs nothing to keep for a dispatched row.
CREATE INDEX "outbox_events_undispatched_createdAt_idx" ON "outbox_events" ("createdAt")
  WHERE "dispatchedAt" IS NULL;
DROP INDEX "outbox_events_dispatchedAt_createdAt_idx";
