-- Statement triggers fire for statements that insert no row, too: the driver's own pass (one
-- statement that dispatches and claims, lib/jobs/run-store.ts) and the record of a batch of webhook
-- attempts (its retry events) would notify every driver on every execution, and each notified
-- driver's pass would notify again. Notify only when rows arrive: outbox rows, and runs that wait
-- for a worker (runs inserted already leased are being executed by the pass that made them).
CREATE OR REPLACE FUNCTION "notify_job_work_outbox"() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM pg_notify('job_work', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION "notify_job_work_runs"() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows WHERE status = 'queued') THEN
    PERFORM pg_notify('job_work', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER "outbox_events_notify_job_work" ON "outbox_events";
CREATE TRIGGER "outbox_events_notify_job_work"
  AFTER INSERT ON "outbox_events"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_job_work_outbox"();

DROP TRIGGER "job_runs_notify_job_work" ON "job_runs";
CREATE TRIGGER "job_runs_notify_job_work"
  AFTER INSERT ON "job_runs"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_job_work_runs"();

-- "notify_job_work"() stays for any trigger elsewhere that still uses it.
