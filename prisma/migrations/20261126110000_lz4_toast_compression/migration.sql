-- Every screening stores a decision of about 9 KB of JSON (`evaluated` alone is ~7.6 KB with 30 rules),
-- above PostgreSQL's 2 KB TOAST threshold, so each insert compresses it; every update of a batched
-- job run compresses its `steps`/`events` again. lz4 compresses these about 3.7x faster than the
-- default pglz (0.048 vs 0.177 ms per decision row, 12,706 bench decisions) to the same size, and
-- reads them back faster. Only the compression of values written from now on changes; stored values
-- stay readable as they are. The embedded database (PGlite) is built without lz4 and keeps pglz.
DO $$
BEGIN
  ALTER TABLE "decisions"
    ALTER COLUMN "evaluated" SET COMPRESSION lz4,
    ALTER COLUMN "aggregates" SET COMPRESSION lz4,
    ALTER COLUMN "input" SET COMPRESSION lz4,
    ALTER COLUMN "response" SET COMPRESSION lz4;
  ALTER TABLE "job_runs"
    ALTER COLUMN "event" SET COMPRESSION lz4,
    ALTER COLUMN "events" SET COMPRESSION lz4,
    ALTER COLUMN "steps" SET COMPRESSION lz4,
    ALTER COLUMN "output" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available in this PostgreSQL build: TOAST compression stays pglz';
END $$;
