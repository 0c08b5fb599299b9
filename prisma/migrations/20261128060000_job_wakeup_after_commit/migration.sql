-- A NOTIFY serialises commits across the whole cluster: at COMMIT the notifying transaction takes an exclusive
-- lock (PreCommit_Notify, "database 0") and holds it until its commit record is flushed, so notifying
-- transactions commit one at a time, each behind the previous one's WAL flush, and never share a flush (group
-- commit). Every screening with a webhook subscription writes outbox rows, and the trigger below notified in
-- each of them. On the 2-core development machine (bench/notify-commits.ts, docs/benchmarks.md), an insert and
-- COMMIT at 8 connections made about 6,300 commits/s with a NOTIFY in it against 9,500 without, and with the WAL
-- flush slowed to 2 ms (a network disk, a synchronous standby) 410 against 1,700: the whole cluster's
-- screenings would top out at about 400 a second, however many servers.
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
