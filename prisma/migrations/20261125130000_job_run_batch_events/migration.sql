-- A run of a function with `batchEvents` takes several events (`events`, in order; `event` stays the
-- first one, as the SDK hands it). NULL for a run of one event.
ALTER TABLE "job_runs" ADD COLUMN "events" JSONB;
