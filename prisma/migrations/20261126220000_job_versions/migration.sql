-- Job versions (expand; purely additive, so the previous release runs unchanged on this schema).
-- A run records the version of the function that created it; a driver of this release claims only the
-- runs of the function versions it serves. The previous release inserts runs without it: version 1,
-- which is what its functions are.
ALTER TABLE "job_runs" ADD COLUMN "fnVersion" INTEGER NOT NULL DEFAULT 1;

-- The job protocol of the driver that dispatched an outbox row (2 from this release on); NULL: a
-- driver of protocol 1, the previous release, which marks every row it reads dispatched.
ALTER TABLE "outbox_events" ADD COLUMN "dispatchedBy" INTEGER;

-- Keeps a protocol-1 driver from dropping an event it cannot know: it dispatches every undispatched
-- row through its own function table, so an event of a name only a newer build takes would be
-- marked dispatched without a run. Such an update is skipped here (the row stays undispatched for a
-- newer driver); the names are the ones protocol 1 knows. Drivers of protocol 2 set "dispatchedBy",
-- so the WHEN clause (evaluated without calling the function) never fires for them. To be dropped by
-- the contract migration of the release after the last one with a protocol-1 driver.
CREATE FUNCTION "outbox_keep_for_newer_driver"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RETURN NULL;
END;
$$;

CREATE TRIGGER "outbox_keep_for_newer_driver"
  BEFORE UPDATE OF "dispatchedAt" ON "outbox_events"
  FOR EACH ROW
  WHEN (OLD."dispatchedAt" IS NULL AND NEW."dispatchedAt" IS NOT NULL AND NEW."dispatchedBy" IS NULL
        AND NEW."name" NOT IN ('webhook/delivery.requested', 'webhook/delivery.retry', 'webhook/event.emitted'))
  EXECUTE FUNCTION "outbox_keep_for_newer_driver"();
