-- The job queue's tables are updated on every screening (an outbox event dispatched, a run claimed and ended),
-- and their indexes of open work (the outbox's undispatched events, the runs by status) keep an entry for every
-- updated version until VACUUM. Autovacuum's default waits for a fifth of the table to be dead: with a million
-- events kept, 200,000 updates, whose entries the driver's passes walk. These tables are vacuumed after
-- 5,000 dead versions, whatever their size (docs/operations.md, "VACUUM of the job queue").
ALTER TABLE "outbox_events" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000);
ALTER TABLE "job_runs" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000);
