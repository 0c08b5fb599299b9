-- "webhook_deliveries" partitioned by month of "createdAt" and "webhook_attempts" by month of "startedAt" (UTC),
-- as "transactions" by 20261127030000: a swap of each with the rows copied, a default partition each, the months
-- made ahead by "month_partitions_ensure" (replaced below to include them), archived and dropped by retention.
--
-- Keys. A partitioned table's unique keys must hold the partition key: the primary keys become ("id",
-- "createdAt") and ("id", "startedAt"). Both ids are made by the service (cuid, gen_random_uuid). What the old
-- table enforced moves to "webhook_delivery_keys" ("id" primary key, ("outboxEventId", "subscriptionId")
-- unique), kept by row triggers on "webhook_deliveries": an insert of a delivery whose (outbox event,
-- subscription) exists fails with 23505, as it did on "webhook_deliveries_outboxEventId_subscriptionId_key" (no
-- writer names it as a conflict target); a delete removes the key; an update that moves a delivery to another
-- month (a delete and an insert for PostgreSQL) removes and adds it; a change of "id", "outboxEventId" or
-- "subscriptionId" is refused (23514).
--
-- Attempts. A foreign key must reference a unique key holding the referenced table's partition key, so
-- "webhook_attempts_deliveryId_fkey" goes with the old table and triggers do what it did: an attempt inserted
-- (or its "deliveryId" changed) for a delivery that does not exist fails with 23503 under the constraint's name
-- (the check reads the delivery's key and locks it FOR KEY SHARE, as the foreign key's check did, so a delete of
-- the delivery waits for the attempt's transaction); a DELETE of deliveries deletes their attempts (a statement
-- trigger: a delivery moved to another month is an update there and keeps them); a TRUNCATE of deliveries
-- empties the attempts (the foreign key refused it without them).
--
-- Writers of both tables wait from the first statement (the copy must see every row); readers from the swap to
-- the end. Time per number of rows: docs/operations.md.
LOCK TABLE "webhook_deliveries", "webhook_attempts" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "webhook_deliveries_partitioned" (LIKE "webhook_deliveries" INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)
  PARTITION BY RANGE ("createdAt");
CREATE TABLE "webhook_deliveries_default" PARTITION OF "webhook_deliveries_partitioned" DEFAULT;

CREATE TABLE "webhook_attempts_partitioned" (LIKE "webhook_attempts" INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)
  PARTITION BY RANGE ("startedAt");
CREATE TABLE "webhook_attempts_default" PARTITION OF "webhook_attempts_partitioned" DEFAULT;

-- every month from the oldest row's to three months ahead
DO $do$
DECLARE
  m TIMESTAMPTZ;
BEGIN
  FOR m IN
    SELECT generate_series(least(min(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC')),
      greatest(max(date_trunc('month', "createdAt", 'UTC')), date_trunc('month', now(), 'UTC') + interval '3 months'),
      interval '1 month')
    FROM "webhook_deliveries"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_deliveries_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'webhook_deliveries_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m, m + interval '1 month');
  END LOOP;
  FOR m IN
    SELECT generate_series(least(min(date_trunc('month', "startedAt", 'UTC')), date_trunc('month', now(), 'UTC')),
      greatest(max(date_trunc('month', "startedAt", 'UTC')), date_trunc('month', now(), 'UTC') + interval '3 months'),
      interval '1 month')
    FROM "webhook_attempts"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_attempts_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'webhook_attempts_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m, m + interval '1 month');
  END LOOP;
END
$do$;

INSERT INTO "webhook_deliveries_partitioned" SELECT * FROM "webhook_deliveries";
INSERT INTO "webhook_attempts_partitioned" SELECT * FROM "webhook_attempts";

CREATE TABLE "webhook_delivery_keys" AS SELECT "id", "outboxEventId", "subscriptionId" FROM "webhook_deliveries";
ALTER TABLE "webhook_delivery_keys" ALTER COLUMN "id" SET NOT NULL, ALTER COLUMN "outboxEventId" SET NOT NULL,
  ALTER COLUMN "subscriptionId" SET NOT NULL,
  ADD CONSTRAINT "webhook_delivery_keys_pkey" PRIMARY KEY ("id");
CREATE UNIQUE INDEX "webhook_delivery_keys_outboxEventId_subscriptionId_key"
  ON "webhook_delivery_keys" ("outboxEventId", "subscriptionId");

-- the attempts first: their foreign key references the deliveries
ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_unpartitioned";
DROP TABLE "webhook_attempts_unpartitioned";
ALTER TABLE "webhook_attempts_partitioned" RENAME TO "webhook_attempts";

ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_unpartitioned";
DROP TABLE "webhook_deliveries_unpartitioned";
ALTER TABLE "webhook_deliveries_partitioned" RENAME TO "webhook_deliveries";

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id", "createdAt");
CREATE INDEX "webhook_deliveries_clientId_createdAt_idx" ON "webhook_deliveries" ("clientId", "createdAt");
CREATE INDEX "webhook_deliveries_subscriptionId_createdAt_idx" ON "webhook_deliveries" ("subscriptionId", "createdAt");
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries" ((COALESCE("nextAttemptAt", "createdAt")))
  WHERE "status" = 'pending';

ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id", "startedAt");
CREATE INDEX "webhook_attempts_deliveryId_attempt_idx" ON "webhook_attempts" ("deliveryId", "attempt");

CREATE FUNCTION "webhook_delivery_key_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "webhook_delivery_keys" ("id", "outboxEventId", "subscriptionId")
  VALUES (NEW."id", NEW."outboxEventId", NEW."subscriptionId");
  RETURN NEW;
END
$fn$;

CREATE FUNCTION "webhook_delivery_key_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "webhook_delivery_keys" WHERE "id" = OLD."id";
  RETURN OLD;
END
$fn$;

CREATE FUNCTION "webhook_delivery_key_unchanged"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'a webhook delivery''s "id", "outboxEventId" and "subscriptionId" do not change' USING ERRCODE = '23514';
END
$fn$;

CREATE FUNCTION "webhook_deliveries_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "webhook_attempts" WHERE "deliveryId" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END
$fn$;

-- the attempts by DELETE: a TRUNCATE of both tables (what the foreign key required) has them in use here
CREATE FUNCTION "webhook_deliveries_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "webhook_delivery_keys";
  DELETE FROM "webhook_attempts";
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "webhook_attempt_delivery_exists"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM 1 FROM "webhook_delivery_keys" WHERE "id" = NEW."deliveryId" FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "webhook_attempts" violates foreign key constraint "webhook_attempts_deliveryId_fkey"'
      USING ERRCODE = '23503', CONSTRAINT = 'webhook_attempts_deliveryId_fkey', TABLE = 'webhook_attempts',
        DETAIL = format('Key ("deliveryId")=(%s) is not present in table "webhook_deliveries".', NEW."deliveryId");
  END IF;
  RETURN NEW;
END
$fn$;

CREATE TRIGGER "webhook_delivery_key_inserted" BEFORE INSERT ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "webhook_delivery_key_inserted"();
CREATE TRIGGER "webhook_delivery_key_deleted" BEFORE DELETE ON "webhook_deliveries"
  FOR EACH ROW EXECUTE FUNCTION "webhook_delivery_key_deleted"();
CREATE TRIGGER "webhook_delivery_key_unchanged" BEFORE UPDATE ON "webhook_deliveries"
  FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."outboxEventId" IS DISTINCT FROM NEW."outboxEventId"
    OR OLD."subscriptionId" IS DISTINCT FROM NEW."subscriptionId")
  EXECUTE FUNCTION "webhook_delivery_key_unchanged"();
CREATE TRIGGER "webhook_deliveries_deleted" AFTER DELETE ON "webhook_deliveries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_deleted"();
CREATE TRIGGER "webhook_deliveries_truncated" AFTER TRUNCATE ON "webhook_deliveries"
  FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_truncated"();
CREATE TRIGGER "webhook_attempt_delivery_exists" BEFORE INSERT OR UPDATE OF "deliveryId" ON "webhook_attempts"
  FOR EACH ROW EXECUTE FUNCTION "webhook_attempt_delivery_exists"();

-- "month_partitions_ensure" of 20261127060000_alerts_partitioned with the two tables added. A table of the list
-- that is not partitioned (no default partition) is skipped.
CREATE OR REPLACE FUNCTION "month_partitions_ensure"(ahead INT, at TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $fn$
DECLARE
  t RECORD;
  m TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('month_partitions_ensure'));
  FOR t IN SELECT * FROM (VALUES ('transactions', 'occurredAt', 'transaction_keys', '"clientId", "id"'),
    ('decisions', 'createdAt', NULL, NULL),
    ('alerts', 'createdAt', 'alert_keys', '"clientId", "transactionId", "ruleRef"'),
    ('webhook_deliveries', 'createdAt', 'webhook_delivery_keys', '"id", "outboxEventId", "subscriptionId"'),
    ('webhook_attempts', 'startedAt', NULL, NULL)) AS v("parent", "col", "keyTable", "keyCols")
  LOOP
    CONTINUE WHEN to_regclass(format('%I', t."parent" || '_default')) IS NULL;
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
