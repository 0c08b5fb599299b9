-- The alerts queue's "assigned to me": no index had the assignee, so the query read every alert of the client
-- (a parallel scan of 1,000,000 alerts: 0.2-0.4 s, for a reviewer with none). Only assigned alerts are in this
-- index (partial), so it stays small and unassigned alerts cost nothing to write.
-- Building it blocks writes to alerts while it runs: on a large table build it first with
--   CREATE INDEX CONCURRENTLY "alerts_clientId_assignedToId_createdAt_idx"
--     ON "alerts" ("clientId", "assignedToId", "createdAt") WHERE "assignedToId" IS NOT NULL;
-- and this migration finds it in place (docs/benchmarks-dashboard.md).
CREATE INDEX IF NOT EXISTS "alerts_clientId_assignedToId_createdAt_idx" ON "alerts" ("clientId", "assignedToId", "createdAt") WHERE "assignedToId" IS NOT NULL;
