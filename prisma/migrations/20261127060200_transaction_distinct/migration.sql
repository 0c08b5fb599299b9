-- Distinct values per group and UTC day, so that an exact countDistinct over a long window reads one row per
-- (day, value) for its whole days instead of every raw row (read by lib/screening/aggregates.ts; see
-- lib/screening/README.md and docs/operations.md, "Aggregate buckets").
--
-- Dimensions, for the group ("dim") and the counted value ("field") alike: 1 "userId", 2 "merchantId",
-- 3 "accountId", 4 "userDeviceId", 5 "cardFingerprint" (as in transaction_buckets).
--
-- Only the pairs some rule of the client has needed are kept: transaction_distinct_specs, one row per (client,
-- group dim, field), added when a rule version with such a countDistinct is written (lib/rules/write-rule-version.ts)
-- and never removed. A spec counts the rows with "occurredAt" >= its "since": adding one costs no backfill of the
-- history (only rows already stored with a later time, normally none); the days before "since" are read from
-- their raw rows. transaction_distinct_rebuild sets "since" to -infinity and counts every row.
CREATE TABLE "transaction_distinct_specs" (
  "clientId" TEXT NOT NULL,
  "dim" SMALLINT NOT NULL,
  "field" SMALLINT NOT NULL,
  "since" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "transaction_distinct_specs_pkey" PRIMARY KEY ("clientId", "dim", "field")
);

-- For each spec, per group key, UTC day and value: how many of the client's transactions with "occurredAt" >=
-- the spec's "since" fall on that day with that value (never 0: an emptied row is deleted).
CREATE TABLE "transaction_distinct" (
  "clientId" TEXT NOT NULL,
  "dim" SMALLINT NOT NULL,
  "key" TEXT NOT NULL,
  "field" SMALLINT NOT NULL,
  "day" TIMESTAMPTZ(3) NOT NULL,
  "value" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  CONSTRAINT "transaction_distinct_pkey" PRIMARY KEY ("clientId", "dim", "key", "field", "day", "value")
) WITH (fillfactor = 80);

-- A transaction row's part: sign -1 for a row removed (or its old version), +1 for one added.
CREATE TYPE "transaction_distinct_change" AS (
  "clientId" TEXT,
  "userId" TEXT,
  "merchantId" TEXT,
  "accountId" TEXT,
  "userDeviceId" TEXT,
  "cardFingerprint" TEXT,
  "occurredAt" TIMESTAMPTZ,
  "sign" INT
);

-- Applies changes: netted per whole row first (a status update, or any change of columns not kept here, nets to
-- nothing), then per (spec, key, day, value) for the rows at or after the spec's "since"; upserted in key order
-- (concurrent writers lock rows in one order), and rows brought to 0 deleted.
CREATE FUNCTION "transaction_distinct_apply"(changes "transaction_distinct_change"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  zc TEXT[];
  zd SMALLINT[];
  zk TEXT[];
  zf SMALLINT[];
  zday TIMESTAMPTZ[];
  zv TEXT[];
BEGIN
  WITH net AS (
    SELECT c."clientId", c."userId", c."merchantId", c."accountId", c."userDeviceId", c."cardFingerprint",
      c."occurredAt", sum(c."sign")::int AS "sign"
    FROM unnest(changes) AS c
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(c."sign") <> 0
  ), delta AS (
    SELECT n."clientId", sp."dim", x."key", sp."field", date_trunc('day', n."occurredAt", 'UTC') AS "day", x."value",
      sum(n."sign")::int AS "n"
    FROM net n
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = n."clientId" AND n."occurredAt" >= sp."since"
    CROSS JOIN LATERAL (SELECT
      CASE sp."dim" WHEN 1 THEN n."userId" WHEN 2 THEN n."merchantId" WHEN 3 THEN n."accountId"
        WHEN 4 THEN n."userDeviceId" ELSE n."cardFingerprint" END AS "key",
      CASE sp."field" WHEN 1 THEN n."userId" WHEN 2 THEN n."merchantId" WHEN 3 THEN n."accountId"
        WHEN 4 THEN n."userDeviceId" ELSE n."cardFingerprint" END AS "value") x
    WHERE x."key" IS NOT NULL AND x."value" IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n."sign") <> 0
  ), up AS (
    INSERT INTO "transaction_distinct" AS d ("clientId", "dim", "key", "field", "day", "value", "n")
    SELECT * FROM delta ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("clientId", "dim", "key", "field", "day", "value") DO UPDATE SET "n" = d."n" + excluded."n"
    RETURNING d."clientId", d."dim", d."key", d."field", d."day", d."value", d."n"
  )
  SELECT array_agg(up."clientId"), array_agg(up."dim"), array_agg(up."key"), array_agg(up."field"),
    array_agg(up."day"), array_agg(up."value")
  INTO zc, zd, zk, zf, zday, zv
  FROM up WHERE up."n" <= 0;
  IF zc IS NOT NULL THEN
    DELETE FROM "transaction_distinct" d
    USING unnest(zc, zd, zk, zf, zday, zv) AS z("clientId", "dim", "key", "field", "day", "value")
    WHERE d."clientId" = z."clientId" AND d."dim" = z."dim" AND d."key" = z."key" AND d."field" = z."field"
      AND d."day" = z."day" AND d."value" = z."value" AND d."n" <= 0;
  END IF;
END
$fn$;

-- The statement triggers: a client without a spec costs one probe of transaction_distinct_specs.
CREATE FUNCTION "transaction_distinct_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp WHERE sp."clientId" IN (SELECT n."clientId" FROM new_rows n)) THEN
    PERFORM "transaction_distinct_apply"(ARRAY(
      SELECT ROW(n."clientId", n."userId", n."merchantId", n."accountId", n."userDeviceId", n."cardFingerprint",
        n."occurredAt", 1)::"transaction_distinct_change" FROM new_rows n));
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_distinct_updated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp WHERE sp."clientId" IN (
      SELECT o."clientId" FROM old_rows o UNION ALL SELECT n."clientId" FROM new_rows n)) THEN
    PERFORM "transaction_distinct_apply"(ARRAY(
      SELECT ROW(o."clientId", o."userId", o."merchantId", o."accountId", o."userDeviceId", o."cardFingerprint",
        o."occurredAt", -1)::"transaction_distinct_change" FROM old_rows o
      UNION ALL
      SELECT ROW(n."clientId", n."userId", n."merchantId", n."accountId", n."userDeviceId", n."cardFingerprint",
        n."occurredAt", 1)::"transaction_distinct_change" FROM new_rows n));
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_distinct_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp WHERE sp."clientId" IN (SELECT o."clientId" FROM old_rows o)) THEN
    PERFORM "transaction_distinct_apply"(ARRAY(
      SELECT ROW(o."clientId", o."userId", o."merchantId", o."accountId", o."userDeviceId", o."cardFingerprint",
        o."occurredAt", -1)::"transaction_distinct_change" FROM old_rows o));
  END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_distinct_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "transaction_distinct";
  RETURN NULL;
END
$fn$;

-- Counts one client's rows of the given specs with "occurredAt" >= each spec's "since" (the caller holds the lock
-- and has removed what was there).
CREATE FUNCTION "transaction_distinct_fill"(client TEXT, dims SMALLINT[], fields SMALLINT[]) RETURNS void
LANGUAGE sql AS $fn$
  INSERT INTO "transaction_distinct" ("clientId", "dim", "key", "field", "day", "value", "n")
  SELECT t."clientId", sp."dim", x."key", sp."field", date_trunc('day', t."occurredAt", 'UTC'), x."value", count(*)
  FROM "transaction_distinct_specs" sp
  JOIN unnest(dims, fields) AS w("dim", "field") ON w."dim" = sp."dim" AND w."field" = sp."field"
  JOIN "transactions" t ON t."clientId" = sp."clientId" AND t."occurredAt" >= sp."since"
  CROSS JOIN LATERAL (SELECT
    CASE sp."dim" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
      WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "key",
    CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
      WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "value") x
  WHERE sp."clientId" = client AND x."key" IS NOT NULL AND x."value" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6;
$fn$;

-- Registers (client, dim, field), the one way every caller adds a spec. Known already: nothing (no lock). Else,
-- under a lock that waits for the writers in flight (milliseconds; screenings wait meanwhile, and until the
-- caller's transaction commits) and keeps new ones out, the spec is inserted with "since" = now and the client's
-- rows from then on counted: rows already stored with a later time, normally none. A writer after the commit sees
-- the spec. The caller must be READ COMMITTED: a snapshot older than the lock would miss rows committed before it.
-- lock_timeout: rather than queue every screening behind a long writer, the rule write fails and can be retried.
CREATE FUNCTION "transaction_distinct_spec_add"(client TEXT, p_dim SMALLINT, p_field SMALLINT) RETURNS void
LANGUAGE plpgsql SET lock_timeout = '5s' AS $fn$
DECLARE
  added TIMESTAMPTZ;
BEGIN
  IF p_dim NOT BETWEEN 1 AND 5 OR p_field NOT BETWEEN 1 AND 5 OR p_dim = p_field THEN
    RAISE EXCEPTION 'transaction_distinct_spec_add: no such pair (%, %)', p_dim, p_field;
  END IF;
  IF EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp
             WHERE sp."clientId" = client AND sp."dim" = p_dim AND sp."field" = p_field) THEN
    RETURN;
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'transaction_distinct_spec_add needs READ COMMITTED (is %)', current_setting('transaction_isolation');
  END IF;
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  INSERT INTO "transaction_distinct_specs" ("clientId", "dim", "field", "since")
  VALUES (client, p_dim, p_field, clock_timestamp())
  ON CONFLICT DO NOTHING
  RETURNING "since" INTO added;
  IF added IS NOT NULL THEN
    PERFORM "transaction_distinct_fill"(client, ARRAY[p_dim], ARRAY[p_field]);
  END IF;
END
$fn$;

-- Every spec of one client (or of every client: NULL) counted from all its rows, "since" set to -infinity, so
-- that no day is read from raw rows: for operators, and after a bulk load with the triggers disabled
-- (bench/screening.ts). Holds writers out for its duration (one read of the client's rows).
CREATE FUNCTION "transaction_distinct_rebuild"(client TEXT) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  c TEXT;
BEGIN
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  FOR c IN SELECT DISTINCT sp."clientId" FROM "transaction_distinct_specs" sp
           WHERE client IS NULL OR sp."clientId" = client LOOP
    UPDATE "transaction_distinct_specs" SET "since" = '-infinity' WHERE "clientId" = c;
    DELETE FROM "transaction_distinct" WHERE "clientId" = c;
    PERFORM "transaction_distinct_fill"(c,
      ARRAY(SELECT sp."dim" FROM "transaction_distinct_specs" sp WHERE sp."clientId" = c ORDER BY sp."dim", sp."field"),
      ARRAY(SELECT sp."field" FROM "transaction_distinct_specs" sp WHERE sp."clientId" = c ORDER BY sp."dim", sp."field"));
  END LOOP;
END
$fn$;

-- The distinct values of "field" among one group's transactions in (p_from, p_to], with their row counts: the
-- whole UTC days at or after the spec's "since" from transaction_distinct, the rest (the two ragged days, every
-- day before "since", the whole window without a spec) from the raw rows. A NULL key is in no group: no rows.
-- STABLE and generic plans, static statements per group column: as transaction_window_totals, for the same
-- reasons (one snapshot with the calling statement; a plan per call would cost more than the read).
CREATE FUNCTION "transaction_window_values"(
  p_client TEXT, p_dim SMALLINT, p_key TEXT, p_field SMALLINT, p_from TIMESTAMPTZ, p_to TIMESTAMPTZ)
RETURNS TABLE ("value" TEXT, "n" BIGINT)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
  lo TIMESTAMPTZ := p_from + interval '1 millisecond';
  hi TIMESTAMPTZ := p_to + interval '1 millisecond';
  since TIMESTAMPTZ;
  d1 TIMESTAMPTZ;
  d2 TIMESTAMPTZ;
  -- whole days read from transaction_distinct: [da, db); raw rows: [ra, rb) pairs
  da TIMESTAMPTZ;
  db TIMESTAMPTZ;
  ra TIMESTAMPTZ[];
  rb TIMESTAMPTZ[];
BEGIN
  IF p_key IS NULL OR lo >= hi THEN
    RETURN;
  END IF;
  SELECT sp."since" INTO since FROM "transaction_distinct_specs" sp
  WHERE sp."clientId" = p_client AND sp."dim" = p_dim AND sp."field" = p_field;
  da := lo;
  db := lo;
  ra := ARRAY[lo];
  rb := ARRAY[hi];
  IF since IS NOT NULL THEN
    d1 := greatest(lo, since);
    IF date_trunc('day', d1, 'UTC') < d1 THEN
      d1 := date_trunc('day', d1, 'UTC') + interval '24 hours';
    END IF;
    d2 := date_trunc('day', hi, 'UTC');
    IF d1 < d2 THEN
      da := d1;
      db := d2;
      ra := ARRAY[lo, d2];
      rb := ARRAY[d1, hi];
    END IF;
  END IF;
  -- one static statement per group column (its index); OFFSET 0 keeps each raw range its own index scan
  IF p_dim = 1 THEN
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT d."value" AS "v", d."n"::bigint AS "c" FROM "transaction_distinct" d
       WHERE d."clientId" = p_client AND d."dim" = p_dim AND d."key" = p_key AND d."field" = p_field
         AND d."day" >= da AND d."day" < db
      UNION ALL
      SELECT y."v", 1 FROM unnest(ra, rb) AS r("a", "b") CROSS JOIN LATERAL (
        SELECT CASE p_field WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
          WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "v" FROM "transactions" t
         WHERE t."clientId" = p_client AND t."userId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
         OFFSET 0) y
      WHERE y."v" IS NOT NULL) x
    GROUP BY 1;
  ELSIF p_dim = 2 THEN
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT d."value" AS "v", d."n"::bigint AS "c" FROM "transaction_distinct" d
       WHERE d."clientId" = p_client AND d."dim" = p_dim AND d."key" = p_key AND d."field" = p_field
         AND d."day" >= da AND d."day" < db
      UNION ALL
      SELECT y."v", 1 FROM unnest(ra, rb) AS r("a", "b") CROSS JOIN LATERAL (
        SELECT CASE p_field WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
          WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "v" FROM "transactions" t
         WHERE t."clientId" = p_client AND t."merchantId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
         OFFSET 0) y
      WHERE y."v" IS NOT NULL) x
    GROUP BY 1;
  ELSIF p_dim = 3 THEN
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT d."value" AS "v", d."n"::bigint AS "c" FROM "transaction_distinct" d
       WHERE d."clientId" = p_client AND d."dim" = p_dim AND d."key" = p_key AND d."field" = p_field
         AND d."day" >= da AND d."day" < db
      UNION ALL
      SELECT y."v", 1 FROM unnest(ra, rb) AS r("a", "b") CROSS JOIN LATERAL (
        SELECT CASE p_field WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
          WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "v" FROM "transactions" t
         WHERE t."clientId" = p_client AND t."accountId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
         OFFSET 0) y
      WHERE y."v" IS NOT NULL) x
    GROUP BY 1;
  ELSIF p_dim = 4 THEN
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT d."value" AS "v", d."n"::bigint AS "c" FROM "transaction_distinct" d
       WHERE d."clientId" = p_client AND d."dim" = p_dim AND d."key" = p_key AND d."field" = p_field
         AND d."day" >= da AND d."day" < db
      UNION ALL
      SELECT y."v", 1 FROM unnest(ra, rb) AS r("a", "b") CROSS JOIN LATERAL (
        SELECT CASE p_field WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
          WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "v" FROM "transactions" t
         WHERE t."clientId" = p_client AND t."userDeviceId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
         OFFSET 0) y
      WHERE y."v" IS NOT NULL) x
    GROUP BY 1;
  ELSE
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT d."value" AS "v", d."n"::bigint AS "c" FROM "transaction_distinct" d
       WHERE d."clientId" = p_client AND d."dim" = p_dim AND d."key" = p_key AND d."field" = p_field
         AND d."day" >= da AND d."day" < db
      UNION ALL
      SELECT y."v", 1 FROM unnest(ra, rb) AS r("a", "b") CROSS JOIN LATERAL (
        SELECT CASE p_field WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
          WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "v" FROM "transactions" t
         WHERE t."clientId" = p_client AND t."cardFingerprint" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
         OFFSET 0) y
      WHERE y."v" IS NOT NULL) x
    GROUP BY 1;
  END IF;
END
$fn$;

-- The triggers, then a spec for every eligible countDistinct of a rule version already written (as
-- write-rule-version.ts adds them from now on), in one statement under the lock: since = now, so nothing of
-- the history is read but rows already stored with a later time.
DO $do$
DECLARE
  p RECORD;
BEGIN
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  CREATE TRIGGER "transaction_distinct_inserted" AFTER INSERT ON "transactions"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_distinct_inserted"();
  CREATE TRIGGER "transaction_distinct_updated" AFTER UPDATE ON "transactions"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_distinct_updated"();
  CREATE TRIGGER "transaction_distinct_deleted" AFTER DELETE ON "transactions"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_distinct_deleted"();
  CREATE TRIGGER "transaction_distinct_truncated" AFTER TRUNCATE ON "transactions"
    FOR EACH STATEMENT EXECUTE FUNCTION "transaction_distinct_truncated"();
  FOR p IN
    SELECT DISTINCT v."clientId", dims.i AS "dim", fields.i AS "field"
    FROM "rule_versions" v
    CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(v."aggregates") = 'object' THEN v."aggregates" ELSE '{}' END) AS a("name", "def")
    JOIN (VALUES ('userId', 1::smallint), ('merchantId', 2::smallint), ('accountId', 3::smallint),
      ('userDeviceId', 4::smallint), ('card.cardFingerprint', 5::smallint)) AS dims("path", i) ON dims."path" = a."def" ->> 'groupBy'
    JOIN (VALUES ('userId', 1::smallint), ('merchantId', 2::smallint), ('accountId', 3::smallint),
      ('userDeviceId', 4::smallint), ('card.cardFingerprint', 5::smallint)) AS fields("path", i) ON fields."path" = a."def" ->> 'field'
    WHERE a."def" ->> 'function' = 'countDistinct' AND a."def" ->> 'over' = 'transaction'
      AND coalesce(a."def" ->> 'where', '') = '' AND dims.i <> fields.i
  LOOP
    PERFORM "transaction_distinct_spec_add"(p."clientId", p."dim", p."field");
  END LOOP;
END
$do$;
