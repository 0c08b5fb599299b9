-- A NOTIFY serialises commits across the whole cluster: at COMMIT the notifying transaction takes an exclusive
-- lock (PreCommit_Notify, "database 0") and holds it until its commit record is flushed, so notifying
-- transactions commit one at a time, each behind the previous one's WAL flush, and never share a flush (group
-- commit). Every screening with a webhook subscription writes outbox rows, and the trigger below notified in
-- each of them: on this project's 2-core machine, insert-and-notify transactions at 8 connections top out at
-- about 3,400 commits/s against 6,100 without the notify, and on storage whose flush takes a few milliseconds
-- (a network disk, a synchronous standby) the whole cluster's screenings would top out at a few hundred a second.
--
-- So a writer may wake the job drivers itself, after its commit and outside any transaction (lib/jobs/wake.ts:
-- the drivers of its own process at once, the others by a NOTIFY sent at most every 50 ms per process). Its
-- outbox rows say so ("writerWakes"), and the trigger notifies only for rows that do not. The screenings' write
-- does (lib/screening/sql/webhook-rows.ts); every other writer keeps the trigger's wake-up. A previous release
-- writes rows without the flag, so during a rolling upgrade its rows still notify. The constant default makes
-- the new column a catalogue change only (no table rewrite).
ALTER TABLE "outbox_events" ADD COLUMN "writerWakes" BOOLEAN NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION "notify_job_work_outbox"() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows WHERE NOT "writerWakes") THEN
    PERFORM pg_notify('job_work', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
