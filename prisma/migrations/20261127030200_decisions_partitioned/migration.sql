-- "decisions" partitioned by month of "createdAt" (UTC), as "transactions" by 20261127030000: a swap with the
-- rows copied, a default partition, the months made ahead by "month_partitions_ensure" (replaced below to
-- include it). The primary key becomes ("id", "createdAt"): a decision's id is made by the service (a cuid) and
-- nothing inserts one twice, so no key table keeps "id" unique alone; nothing references decisions by a
-- foreign key. Writers wait from the first statement, readers from the swap to the end.
LOCK TABLE "decisions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "decisions_partitioned" (LIKE "decisions" INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)
  PARTITION BY RANGE ("createdAt");

CREATE TABLE "decisions_default" PARTITION OF "decisions_partitioned" DEFAULT;

DO $do$
DECLARE
  m TIMESTAMPTZ;
BEGIN
  FOR m IN
    SELECT generate_series(least(min(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC')),
      greatest(max(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC') + interval '3 months'),
      interval '1 month')
    FROM "decisions"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "decisions_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'decisions_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m, m + interval '1 month');
  END LOOP;
END
$do$;

INSERT INTO "decisions_partitioned" SELECT * FROM "decisions";

ALTER TABLE "decisions" RENAME TO "decisions_unpartitioned";
DROP TABLE "decisions_unpartitioned";
ALTER TABLE "decisions_partitioned" RENAME TO "decisions";

ALTER TABLE "decisions" ADD CONSTRAINT "decisions_pkey" PRIMARY KEY ("id", "createdAt");
CREATE INDEX "decisions_clientId_subjectType_subjectId_createdAt_idx" ON "decisions" ("clientId", "subjectType", "subjectId", "createdAt");
CREATE INDEX "decisions_clientId_createdAt_idx" ON "decisions" ("clientId", "createdAt");

CREATE OR REPLACE FUNCTION "month_partitions_ensure"(ahead INT, at TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $fn$
DECLARE
  t RECORD;
  m TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('month_partitions_ensure'));
  FOR t IN SELECT * FROM (VALUES ('transactions', 'occurredAt', 'transaction_keys', '"clientId", "id"'),
    ('decisions', 'createdAt', NULL, NULL)) AS v("parent", "col", "keyTable", "keyCols")
  LOOP
    FOR m IN EXECUTE format(
      'SELECT DISTINCT date_trunc(''month'', %I, ''UTC'') FROM %I UNION
       SELECT generate_series(date_trunc(''month'', $1, ''UTC''), date_trunc(''month'', $1, ''UTC'') + $2 * interval ''1 month'', interval ''1 month'')
       ORDER BY 1', t."col", t."parent" || '_default') USING at, ahead
    LOOP
      IF "month_partition_create"(t."parent", t."col", m, t."keyTable", t."keyCols") THEN
        RETURN NEXT t."parent" || '_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM');
      END IF;
    END LOOP;
  END LOOP;
END
$fn$;
