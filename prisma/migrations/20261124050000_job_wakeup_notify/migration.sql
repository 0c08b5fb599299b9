-- Wakes the job drivers of every process on every machine when there is new background work: the
-- notification is delivered at COMMIT (never for a rolled-back transaction) to every session that
-- LISTENs on "job_work" (lib/jobs/listen.ts). Per statement, and PostgreSQL folds identical
-- notifications of one transaction into one, so a screening that writes several outbox rows sends one.
CREATE OR REPLACE FUNCTION "notify_job_work"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('job_work', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "outbox_events_notify_job_work"
  AFTER INSERT ON "outbox_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_job_work"();

-- Runs made due again by hand (redelivery) or by another process's dispatch.
CREATE TRIGGER "job_runs_notify_job_work"
  AFTER INSERT ON "job_runs"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_job_work"();
