-- "transaction_keys" keeps each transaction's "occurredAt", so that a statement by id can name the row's month.
--
-- A read or update of "transactions" by ("clientId", "id") cannot prune (the id is not the partition key): its
-- plan holds every month partition, and planning and running it grows with the months kept. An update of one
-- unknown id took 9.2 ms at 68 partitions (five years kept), against 0.43 ms at 5; the same statement with the
-- row's "occurredAt" given takes 0.21 ms (docs/benchmarks.md, "Requests by transaction id"). The statements by id look the
-- time up here first (one primary-key probe) and then address one partition.
--
-- Kept by the row triggers: an insert adds it, an update that changes "occurredAt" changes it (an update that
-- moves a row to another month also deletes its key and inserts it again, as before), a delete removes it.
--
-- The conversion is a swap, as in 20261127030000_transactions_partitioned: a table with the same name and columns
-- (LIKE) and the time added, the keys copied from the rows, the old one dropped. Writers of "transactions" wait
-- from the first statement (the copy must see every row), readers of the keys from the swap to the end (the key
-- is built after the copy). The previous release writes no key itself: the row triggers, replaced below, do.
LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "transaction_keys_timed" (LIKE "transaction_keys");
ALTER TABLE "transaction_keys_timed" ADD COLUMN "occurredAt" TIMESTAMPTZ(3) NOT NULL;
INSERT INTO "transaction_keys_timed" ("clientId", "id", "occurredAt") SELECT "clientId", "id", "occurredAt" FROM "transactions";

ALTER TABLE "transaction_keys" RENAME TO "transaction_keys_untimed";
ALTER TABLE "transaction_keys_timed" RENAME TO "transaction_keys";
DROP TABLE "transaction_keys_untimed";
ALTER TABLE "transaction_keys" ADD CONSTRAINT "transaction_keys_pkey" PRIMARY KEY ("clientId", "id");

CREATE OR REPLACE FUNCTION "transaction_key_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "transaction_keys" ("clientId", "id", "occurredAt") VALUES (NEW."clientId", NEW."id", NEW."occurredAt");
  RETURN NEW;
END
$fn$;

CREATE FUNCTION "transaction_key_moved"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE "transaction_keys" SET "occurredAt" = NEW."occurredAt" WHERE "clientId" = NEW."clientId" AND "id" = NEW."id";
  RETURN NEW;
END
$fn$;

CREATE TRIGGER "transaction_key_moved" BEFORE UPDATE ON "transactions"
  FOR EACH ROW WHEN (OLD."occurredAt" IS DISTINCT FROM NEW."occurredAt") EXECUTE FUNCTION "transaction_key_moved"();

-- "month_partitions_ensure" of 20261127060100_webhook_deliveries_partitioned: the rows moved out of
-- "transactions_default" get their keys back with their time.
CREATE OR REPLACE FUNCTION "month_partitions_ensure"(ahead INT, at TIMESTAMPTZ) RETURNS SETOF TEXT LANGUAGE plpgsql AS $fn$
DECLARE
  t RECORD;
  m TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('month_partitions_ensure'));
  FOR t IN SELECT * FROM (VALUES ('transactions', 'occurredAt', 'transaction_keys', '"clientId", "id", "occurredAt"'),
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

-- The client's stored transaction with this id (none or one row), from its month's partition. Its statements keep
-- their generic plans: the month is pruned when the plan starts.
CREATE OR REPLACE FUNCTION "transaction_stored"(p_client TEXT, p_id TEXT) RETURNS SETOF "transactions"
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 1 SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_at TIMESTAMPTZ;
BEGIN
  SELECT k."occurredAt" INTO v_at FROM "transaction_keys" k WHERE k."clientId" = p_client AND k."id" = p_id;
  IF FOUND THEN
    RETURN QUERY SELECT * FROM "transactions" t WHERE t."clientId" = p_client AND t."id" = p_id AND t."occurredAt" = v_at;
  END IF;
END
$fn$;

-- The same with the row's version (xmin), for a write that must find the row as it was read.
CREATE FUNCTION "transaction_versioned"(p_client TEXT, p_id TEXT)
RETURNS TABLE ("row" JSONB, "version" TEXT, "userId" TEXT, "merchantId" TEXT)
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 1 SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_at TIMESTAMPTZ;
BEGIN
  SELECT k."occurredAt" INTO v_at FROM "transaction_keys" k WHERE k."clientId" = p_client AND k."id" = p_id;
  IF FOUND THEN
    RETURN QUERY SELECT to_jsonb(t), t.xmin::text, t."userId", t."merchantId" FROM "transactions" t
      WHERE t."clientId" = p_client AND t."id" = p_id AND t."occurredAt" = v_at;
  END IF;
END
$fn$;

-- /v1/transaction/update without monitoring: the status, the fraud flag and the keys of the stored body that the
-- request replaces (`patch`, a shallow merge), in the row's month. Answers the row updated (none: no such id).
-- A row whose time changes meanwhile is looked up again.
CREATE FUNCTION "transaction_apply_update"(p_client TEXT, p_id TEXT, p_status TEXT, p_fraud BOOLEAN, p_patch JSONB,
  p_now TIMESTAMPTZ)
RETURNS TABLE ("id" TEXT, "userId" TEXT)
LANGUAGE plpgsql ROWS 1 SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_at TIMESTAMPTZ;
  seen TIMESTAMPTZ;
BEGIN
  LOOP
    SELECT k."occurredAt" INTO v_at FROM "transaction_keys" k WHERE k."clientId" = p_client AND k."id" = p_id;
    IF NOT FOUND OR v_at IS NOT DISTINCT FROM seen THEN
      RETURN;
    END IF;
    RETURN QUERY UPDATE "transactions" t SET "status" = coalesce(p_status, t."status"),
        "isFraud" = coalesce(p_fraud, t."isFraud"), "data" = t."data" || p_patch,
        "accountId" = (t."data" || p_patch) ->> 'accountId', "paymentMethod" = (t."data" || p_patch) ->> 'paymentMethod',
        "cardFingerprint" = (t."data" || p_patch) -> 'card' ->> 'cardFingerprint', "updatedAt" = p_now,
        "requestData" = coalesce(t."requestData", t."data")
      WHERE t."clientId" = p_client AND t."id" = p_id AND t."occurredAt" = v_at
      RETURNING t."id", t."userId";
    IF FOUND THEN
      RETURN;
    END IF;
    seen := v_at;
  END LOOP;
END
$fn$;
