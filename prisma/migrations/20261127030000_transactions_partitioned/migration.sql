-- "transactions" partitioned by month of "occurredAt" (UTC), so that an old month can be archived and dropped
-- (`npm run cli -- retention`; docs/operations.md, "Partitions and retention").
--
-- A partitioned table's unique keys must hold the partition key, so the primary key becomes ("clientId", "id",
-- "occurredAt") and the uniqueness of ("clientId", "id") moves to "transaction_keys", kept by row triggers: an
-- insert of an id the client has already used fails on "transaction_keys_pkey" with 23505, as it did on
-- "transactions_pkey" (the screening, and the previous release's, read again on it). An update that moves a
-- row to another month deletes its key and inserts it again (PostgreSQL runs it as a delete and an insert);
-- a change of "clientId" or "id" is refused.
--
-- Months are partitions "transactions_pYYYY_MM"; a row of a month without one goes to "transactions_default"
-- and is moved out when its month is created ("month_partitions_ensure", run by the job driver every hour for
-- the current month and the next three, and below for every month that holds data).
--
-- The conversion is a swap: a table with the same name and columns (LIKE), the rows copied, the old one
-- dropped. Writers wait from the first statement (the copy must see every row); readers wait from the swap
-- to the end (the indexes are built after the copy). The buckets stay as they are: the same rows are copied,
-- and the new table has no trigger while they are. Time per million rows: docs/operations.md.
LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "transactions_partitioned" (LIKE "transactions" INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)
  PARTITION BY RANGE ("occurredAt");

CREATE TABLE "transactions_default" PARTITION OF "transactions_partitioned" DEFAULT;

-- every month from the oldest row's to three months ahead
DO $do$
DECLARE
  m TIMESTAMPTZ;
BEGIN
  FOR m IN
    SELECT generate_series(least(min(date_trunc('month', "occurredAt", 'UTC')), date_trunc('month', now(), 'UTC')),
      greatest(max(date_trunc('month', "occurredAt", 'UTC')), date_trunc('month', now(), 'UTC') + interval '3 months'),
      interval '1 month')
    FROM "transactions"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "transactions_partitioned" FOR VALUES FROM (%L) TO (%L)',
      'transactions_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM'), m, m + interval '1 month');
  END LOOP;
END
$do$;

INSERT INTO "transactions_partitioned" SELECT * FROM "transactions";

CREATE TABLE "transaction_keys" AS SELECT "clientId", "id" FROM "transactions";
ALTER TABLE "transaction_keys" ALTER COLUMN "clientId" SET NOT NULL, ALTER COLUMN "id" SET NOT NULL,
  ADD CONSTRAINT "transaction_keys_pkey" PRIMARY KEY ("clientId", "id");

ALTER TABLE "transactions" RENAME TO "transactions_unpartitioned";
DROP TABLE "transactions_unpartitioned";
ALTER TABLE "transactions_partitioned" RENAME TO "transactions";

ALTER TABLE "transactions" ADD CONSTRAINT "transactions_pkey" PRIMARY KEY ("clientId", "id", "occurredAt");
CREATE INDEX "transactions_clientId_userId_occurredAt_idx" ON "transactions" ("clientId", "userId", "occurredAt");
CREATE INDEX "transactions_clientId_merchantId_occurredAt_idx" ON "transactions" ("clientId", "merchantId", "occurredAt");
CREATE INDEX "transactions_clientId_accountId_occurredAt_idx" ON "transactions" ("clientId", "accountId", "occurredAt");
CREATE INDEX "transactions_clientId_userDeviceId_occurredAt_idx" ON "transactions" ("clientId", "userDeviceId", "occurredAt");
CREATE INDEX "transactions_clientId_cardFingerprint_occurredAt_idx" ON "transactions" ("clientId", "cardFingerprint", "occurredAt");
CREATE INDEX "transactions_clientId_occurredAt_idx" ON "transactions" ("clientId", "occurredAt");
CREATE INDEX "transactions_clientId_createdAt_idx" ON "transactions" ("clientId", "createdAt");
CREATE INDEX "transactions_clientId_status_occurredAt_idx" ON "transactions" ("clientId", "status", "occurredAt");
CREATE INDEX "transactions_clientId_riskLevel_occurredAt_idx" ON "transactions" ("clientId", "riskLevel", "occurredAt");
CREATE INDEX "transactions_clientId_riskLevel_status_occurredAt_idx" ON "transactions" ("clientId", "riskLevel", "status", "occurredAt");
CREATE INDEX "transactions_clientId_cryptoAddress_occurredAt_idx" ON "transactions" ("clientId", (data #>> '{crypto,address}'), "occurredAt");
CREATE INDEX "transactions_fraud_clientId_userId_idx" ON "transactions" ("clientId", "userId") WHERE "isFraud";
CREATE INDEX "transactions_recipient_id_idx" ON "transactions" ("clientId", (data #>> '{recipient,id}'), "occurredAt")
  WHERE (data #>> '{recipient,id}') IS NOT NULL;

-- the buckets' triggers, as migration 20261127010000 made them (statement triggers on the partitioned table
-- see every row of a statement, whichever partition holds it; a row moved to another month is an update)
CREATE TRIGGER "transaction_buckets_inserted" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_inserted"();
CREATE TRIGGER "transaction_buckets_updated" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_updated"();
CREATE TRIGGER "transaction_buckets_deleted" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_deleted"();
CREATE TRIGGER "transaction_buckets_truncated" AFTER TRUNCATE ON "transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_truncated"();

CREATE FUNCTION "transaction_key_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "transaction_keys" ("clientId", "id") VALUES (NEW."clientId", NEW."id");
  RETURN NEW;
END
$fn$;

CREATE FUNCTION "transaction_key_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "transaction_keys" WHERE "clientId" = OLD."clientId" AND "id" = OLD."id";
  RETURN OLD;
END
$fn$;

CREATE FUNCTION "transaction_key_unchanged"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'a transaction''s "clientId" and "id" do not change' USING ERRCODE = '23514';
END
$fn$;

CREATE FUNCTION "transaction_keys_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "transaction_keys";
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "transaction_key_inserted" BEFORE INSERT ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION "transaction_key_inserted"();
CREATE TRIGGER "transaction_key_deleted" BEFORE DELETE ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION "transaction_key_deleted"();
CREATE TRIGGER "transaction_key_unchanged" BEFORE UPDATE ON "transactions"
  FOR EACH ROW WHEN (OLD."clientId" IS DISTINCT FROM NEW."clientId" OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION "transaction_key_unchanged"();
CREATE TRIGGER "transaction_keys_truncated" AFTER TRUNCATE ON "transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_keys_truncated"();

-- One month's partition of `parent` (range-partitioned by `col`, with a "<parent>_default" partition), created
-- unless it exists. Rows of that month in the default partition are moved into it first (deleted from the
-- default partition directly, so no statement trigger of the parent sees them: the buckets do not change);
-- `key_table` (or NULL) gets the moved rows' `key_cols` back, which the row delete trigger removed. The
-- partition is filled while detached and then attached (SHARE UPDATE EXCLUSIVE on the parent; the default
-- partition, scanned for rows of the month, is locked meanwhile). True when created.
CREATE FUNCTION "month_partition_create"(parent TEXT, col TEXT, month TIMESTAMPTZ, key_table TEXT, key_cols TEXT)
RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  lo TIMESTAMPTZ := date_trunc('month', month, 'UTC');
  hi TIMESTAMPTZ := date_trunc('month', month, 'UTC') + interval '1 month';
  part TEXT := parent || '_p' || to_char(date_trunc('month', month, 'UTC') AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)', part, parent);
  -- the constraint lets ATTACH skip scanning the new partition
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)', part, part || '_month', col, lo, col, hi);
  EXECUTE format('WITH moved AS (DELETE FROM ONLY %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
    parent || '_default', col, lo, col, hi, part);
  IF key_table IS NOT NULL THEN
    EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', key_table, key_cols, key_cols, part);
  END IF;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', part, part || '_month');
  RETURN true;
END
$fn$;

-- The month partitions of every partitioned table, from the current month (of `at`) to `ahead` months later,
-- and for every month that has rows in a default partition. One caller at a time. Answers the partitions made.
CREATE FUNCTION "month_partitions_ensure"(ahead INT, at TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $fn$
DECLARE
  t RECORD;
  m TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('month_partitions_ensure'));
  FOR t IN SELECT * FROM (VALUES ('transactions', 'occurredAt', 'transaction_keys', '"clientId", "id"'))
    AS v("parent", "col", "keyTable", "keyCols")
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
