-- contract: 20261127030300_alert_keys; unused since d4d154e
-- "alerts" partitioned by month of "createdAt" (UTC), as "decisions" by 20261127030200: a swap with the rows
-- copied, a default partition, the months made ahead by "month_partitions_ensure" (replaced below to include
-- it). The primary key becomes ("id", "createdAt"): an alert's id is made by the service (a cuid). The unique
-- index on ("clientId", "transactionId", "ruleRef") is not made again: "alert_keys" and its row triggers keep
-- that key since 20261127030300, and the release before this one no longer names it in an ON CONFLICT.
-- Nothing references alerts by a foreign key. Writers wait from the first statement, readers from the swap.
LOCK TABLE "alerts" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "alerts_partitioned" (LIKE "alerts" INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)
  PARTITION BY RANGE ("createdAt");

CREATE TABLE "alerts_default" PARTITION OF "alerts_partitioned" DEFAULT;

DO $do$
DECLARE
  m TIMESTAMPTZ;
BEGIN
  FOR m IN
    SELECT generate_series(least(min(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC')),
      greatest(max(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC') + interval '3 months'),
      interval '1 month')
    FROM "alerts"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "alerts_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'alerts_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m, m + interval '1 month');
  END LOOP;
END
$do$;

-- copied before the new table has triggers: the keys stay as they are and no alert is placed in a case again
INSERT INTO "alerts_partitioned" SELECT * FROM "alerts";

ALTER TABLE "alerts" RENAME TO "alerts_unpartitioned";
DROP TABLE "alerts_unpartitioned";
ALTER TABLE "alerts_partitioned" RENAME TO "alerts";

ALTER TABLE "alerts" ADD CONSTRAINT "alerts_pkey" PRIMARY KEY ("id", "createdAt");
CREATE INDEX "alerts_clientId_status_createdAt_idx" ON "alerts" ("clientId", "status", "createdAt");
CREATE INDEX "alerts_clientId_createdAt_idx" ON "alerts" ("clientId", "createdAt");
CREATE INDEX "alerts_clientId_createdAt_rules_idx" ON "alerts" ("clientId", "createdAt") INCLUDE ("ruleRef", "ruleId", "ruleName");
CREATE INDEX "alerts_caseId_ruleId_idx" ON "alerts" ("caseId", "ruleId");
CREATE INDEX "alerts_clientId_userId_createdAt_idx" ON "alerts" ("clientId", "userId", "createdAt");
CREATE INDEX "alerts_clientId_assignedToId_createdAt_idx" ON "alerts" ("clientId", "assignedToId", "createdAt")
  WHERE "assignedToId" IS NOT NULL;
-- an alert's own transaction's alerts (transaction page, replay): was served by the dropped unique index
CREATE INDEX "alerts_clientId_transactionId_idx" ON "alerts" ("clientId", "transactionId");

-- A row trigger on a partitioned table is cloned to each partition. BEFORE INSERT row triggers run in the
-- order of their names: "alert_key_inserted" skips an alert whose key exists before "alerts_place_in_case"
-- places it in a case.
CREATE TRIGGER "alert_key_inserted" BEFORE INSERT ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "alert_key_inserted"();
CREATE TRIGGER "alert_key_deleted" BEFORE DELETE ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "alert_key_deleted"();
CREATE TRIGGER "alert_key_unchanged" BEFORE UPDATE ON "alerts"
  FOR EACH ROW WHEN (OLD."clientId" IS DISTINCT FROM NEW."clientId" OR OLD."transactionId" IS DISTINCT FROM NEW."transactionId"
    OR OLD."ruleRef" IS DISTINCT FROM NEW."ruleRef")
  EXECUTE FUNCTION "alert_key_unchanged"();
CREATE TRIGGER "alert_keys_truncated" AFTER TRUNCATE ON "alerts"
  FOR EACH STATEMENT EXECUTE FUNCTION "alert_keys_truncated"();
CREATE TRIGGER "alerts_place_in_case" BEFORE INSERT ON "alerts"
  FOR EACH ROW EXECUTE FUNCTION "place_alert_in_case"();

CREATE OR REPLACE FUNCTION "month_partitions_ensure"(ahead INT, at TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $fn$
DECLARE
  t RECORD;
  m TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('month_partitions_ensure'));
  FOR t IN SELECT * FROM (VALUES ('transactions', 'occurredAt', 'transaction_keys', '"clientId", "id"'),
    ('decisions', 'createdAt', NULL, NULL),
    ('alerts', 'createdAt', 'alert_keys', '"clientId", "transactionId", "ruleRef"')) AS v("parent", "col", "keyTable", "keyCols")
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
