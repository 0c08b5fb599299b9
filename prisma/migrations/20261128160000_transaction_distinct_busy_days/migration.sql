-- Distinct values per day only for a group's busy days (those with a day bucket: 4 transactions or more, as in
-- 20261128130000_transaction_buckets_busy_days); a quieter day's values are read from its raw rows.
--
-- Why: transaction_distinct held a row per group, day and value for every day, and most groups are quiet. At
-- 10,000,000 stored transactions (a device per user) it was 1.5 GB, one row per device, user and day, no cheaper
-- to read than the few rows it copied, and written on every screening: reading a device's 7 days cost 1.25 ms
-- per screening against 0.09 ms at 20,000 rows (docs/benchmarks.md, "Distinct values of busy days only").
--
-- The rule, kept by the writers:
--   * transaction_distinct_days marks a group's day (client, dim, key, UTC day) whose values are kept: for every
--     spec of that client and dim, transaction_distinct_values holds exactly the day's values of the rows at or after
--     the spec's "since";
--   * a day without a mark is read from its raw rows (exact whatever it holds); its values are not kept.
-- A day is marked, and its values counted from its rows, by a writer that adds rows to it once it has its day
-- bucket. The bucket trigger ("transaction_buckets_*", which fires first: AFTER statement triggers run in name
-- order) has then built the bucket if the day holds 4 rows, under the advisory lock that covers the day (every
-- group day of a changed row, see transaction_buckets_change); the distinct trigger works under the same lock,
-- so a day's writers mark it, and add to its values, one at a time. A mark is never removed while the day has
-- rows (retention removes those of the months it empties); a writer with a transaction snapshot marks none.
--
-- The conversion: the days marked are the day buckets of the groups some spec counts in (their values are all
-- kept until now, so exact), and their values copied to a new table, transaction_distinct_values. Writers of
-- "transactions" wait from the first statement to the end: one read of the old table (docs/operations.md).
LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "transaction_distinct_days" (
  "clientId" TEXT NOT NULL,
  "dim" SMALLINT NOT NULL,
  "key" TEXT NOT NULL,
  "day" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "transaction_distinct_days_pkey" PRIMARY KEY ("clientId", "dim", "key", "day")
);

INSERT INTO "transaction_distinct_days" ("clientId", "dim", "key", "day")
SELECT b."clientId", b."dim", b."key", b."start" FROM "transaction_buckets" b
WHERE b."minutes" = 1440
  AND EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp WHERE sp."clientId" = b."clientId" AND sp."dim" = b."dim");

-- the marked days' values, in a new table. The old one, "transaction_distinct", is left as it is, unread and
-- unwritten from this commit on: a screening's read statement that began before the commit runs the previous
-- functions with its snapshot, and reads every day's values from there, complete; renamed or dropped here, its
-- name would lead that statement to a table whose rows its snapshot cannot see (an empty read: a countDistinct
-- too low). A later migration drops it (docs/operations.md).
CREATE TABLE "transaction_distinct_values" (
  "clientId" TEXT NOT NULL,
  "dim" SMALLINT NOT NULL,
  "key" TEXT NOT NULL,
  "field" SMALLINT NOT NULL,
  "day" TIMESTAMPTZ(3) NOT NULL,
  "value" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  CONSTRAINT "transaction_distinct_values_pkey" PRIMARY KEY ("clientId", "dim", "key", "field", "day", "value")
) WITH (fillfactor = 80);
INSERT INTO "transaction_distinct_values" ("clientId", "dim", "key", "field", "day", "value", "n")
SELECT d."clientId", d."dim", d."key", d."field", d."day", d."value", d."n" FROM "transaction_distinct" d
WHERE EXISTS (
  SELECT 1 FROM "transaction_distinct_days" m
  WHERE m."clientId" = d."clientId" AND m."dim" = d."dim" AND m."key" = d."key" AND m."day" = d."day")
ORDER BY 1, 2, 3, 4, 5, 6;

-- Builds the values of newly marked days (client, dim, key, day) for every spec of their client and dim: the
-- day's rows at or after the spec's "since". One static branch per group column (its index; the day's month
-- pruned at run time).
CREATE FUNCTION "transaction_distinct_days_fill"(p_client TEXT[], p_dim SMALLINT[], p_key TEXT[], p_day TIMESTAMPTZ[])
RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO "transaction_distinct_values" AS d ("clientId", "dim", "key", "field", "day", "value", "n")
  SELECT r."clientId", r."dim", r."key", r."field", r."day", r."value", count(*)
  FROM (
    SELECT m."clientId", m."dim", m."key", sp."field", m."day",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "value"
    FROM unnest(p_client, p_dim, p_key, p_day) AS m("clientId", "dim", "key", "day")
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = m."clientId" AND sp."dim" = m."dim"
    JOIN "transactions" t ON t."clientId" = m."clientId" AND t."occurredAt" >= greatest(m."day", sp."since")
      AND t."occurredAt" < m."day" + interval '24 hours'
      AND m."dim" = 1 AND t."userId" = m."key"
    UNION ALL
    SELECT m."clientId", m."dim", m."key", sp."field", m."day",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END
    FROM unnest(p_client, p_dim, p_key, p_day) AS m("clientId", "dim", "key", "day")
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = m."clientId" AND sp."dim" = m."dim"
    JOIN "transactions" t ON t."clientId" = m."clientId" AND t."occurredAt" >= greatest(m."day", sp."since")
      AND t."occurredAt" < m."day" + interval '24 hours' AND m."dim" = 2 AND t."merchantId" = m."key"
    UNION ALL
    SELECT m."clientId", m."dim", m."key", sp."field", m."day",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END
    FROM unnest(p_client, p_dim, p_key, p_day) AS m("clientId", "dim", "key", "day")
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = m."clientId" AND sp."dim" = m."dim"
    JOIN "transactions" t ON t."clientId" = m."clientId" AND t."occurredAt" >= greatest(m."day", sp."since")
      AND t."occurredAt" < m."day" + interval '24 hours' AND m."dim" = 3 AND t."accountId" = m."key"
    UNION ALL
    SELECT m."clientId", m."dim", m."key", sp."field", m."day",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END
    FROM unnest(p_client, p_dim, p_key, p_day) AS m("clientId", "dim", "key", "day")
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = m."clientId" AND sp."dim" = m."dim"
    JOIN "transactions" t ON t."clientId" = m."clientId" AND t."occurredAt" >= greatest(m."day", sp."since")
      AND t."occurredAt" < m."day" + interval '24 hours' AND m."dim" = 4 AND t."userDeviceId" = m."key"
    UNION ALL
    SELECT m."clientId", m."dim", m."key", sp."field", m."day",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END
    FROM unnest(p_client, p_dim, p_key, p_day) AS m("clientId", "dim", "key", "day")
    JOIN "transaction_distinct_specs" sp ON sp."clientId" = m."clientId" AND sp."dim" = m."dim"
    JOIN "transactions" t ON t."clientId" = m."clientId" AND t."occurredAt" >= greatest(m."day", sp."since")
      AND t."occurredAt" < m."day" + interval '24 hours' AND m."dim" = 5 AND t."cardFingerprint" = m."key"
  ) r
  WHERE r."value" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6;
$fn$;

-- Applies changes: netted per whole row first (a status update, or any change of columns not kept here, nets to
-- nothing); then, per (spec, key, day, value) of a marked day, for the rows at or after the spec's "since",
-- upserted in key order (concurrent writers lock rows in one order), rows brought to 0 deleted; then the days
-- without a mark that gained rows and have their day bucket are marked and their values counted from their rows
-- (this statement's included). A writer with a transaction snapshot (retention's REPEATABLE READ) marks no day,
-- and probes the days it sees without a mark: one marked after its snapshot fails it with 40001, to be retried,
-- instead of keeping values this change should have changed.
CREATE OR REPLACE FUNCTION "transaction_distinct_apply"(changes "transaction_distinct_change"[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  zc TEXT[];
  zd SMALLINT[];
  zk TEXT[];
  zf SMALLINT[];
  zday TIMESTAMPTZ[];
  zv TEXT[];
  -- the group days of the change that some spec counts in: client, dim, key, day, whether rows were added,
  -- whether it is marked
  gc TEXT[];
  gd SMALLINT[];
  gk TEXT[];
  gday TIMESTAMPTZ[];
  gadded BOOLEAN[];
  gmarked BOOLEAN[];
BEGIN
  changes := ARRAY(
    SELECT ROW(c."clientId", c."userId", c."merchantId", c."accountId", c."userDeviceId", c."cardFingerprint",
      c."occurredAt", sum(c."sign")::int)::"transaction_distinct_change"
    FROM unnest(changes) AS c
    GROUP BY c."clientId", c."userId", c."merchantId", c."accountId", c."userDeviceId", c."cardFingerprint",
      c."occurredAt"
    HAVING sum(c."sign") <> 0);
  IF cardinality(changes) = 0 THEN
    RETURN;
  END IF;
  SELECT array_agg(g."clientId"), array_agg(g."dim"), array_agg(g."key"), array_agg(g."day"), array_agg(g."added"),
    array_agg(EXISTS (SELECT 1 FROM "transaction_distinct_days" m WHERE m."clientId" = g."clientId"
      AND m."dim" = g."dim" AND m."key" = g."key" AND m."day" = g."day"))
  INTO gc, gd, gk, gday, gadded, gmarked
  FROM (
    SELECT n."clientId", x."dim", x."key", date_trunc('day', n."occurredAt", 'UTC') AS "day", bool_or(n."sign" > 0) AS "added"
    FROM unnest(changes) n
    CROSS JOIN LATERAL (VALUES (1::smallint, n."userId"), (2::smallint, n."merchantId"), (3::smallint, n."accountId"),
      (4::smallint, n."userDeviceId"), (5::smallint, n."cardFingerprint")) AS x("dim", "key")
    WHERE x."key" IS NOT NULL AND EXISTS (SELECT 1 FROM "transaction_distinct_specs" sp
      WHERE sp."clientId" = n."clientId" AND sp."dim" = x."dim")
    GROUP BY 1, 2, 3, 4
  ) g;
  IF gc IS NULL THEN
    RETURN;
  END IF;

  IF true = ANY (gmarked) THEN
    WITH delta AS (
      SELECT n."clientId", sp."dim", x."key", sp."field", date_trunc('day', n."occurredAt", 'UTC') AS "day", x."value",
        sum(n."sign")::int AS "n"
      FROM unnest(changes) n
      JOIN "transaction_distinct_specs" sp ON sp."clientId" = n."clientId" AND n."occurredAt" >= sp."since"
      CROSS JOIN LATERAL (SELECT
        CASE sp."dim" WHEN 1 THEN n."userId" WHEN 2 THEN n."merchantId" WHEN 3 THEN n."accountId"
          WHEN 4 THEN n."userDeviceId" ELSE n."cardFingerprint" END AS "key",
        CASE sp."field" WHEN 1 THEN n."userId" WHEN 2 THEN n."merchantId" WHEN 3 THEN n."accountId"
          WHEN 4 THEN n."userDeviceId" ELSE n."cardFingerprint" END AS "value") x
      WHERE x."key" IS NOT NULL AND x."value" IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6
      HAVING sum(n."sign") <> 0
    ), marked AS (
      SELECT g."clientId", g."dim", g."key", g."day" FROM unnest(gc, gd, gk, gday, gmarked) AS g("clientId", "dim", "key", "day", "marked")
      WHERE g."marked"
    ), up AS (
      INSERT INTO "transaction_distinct_values" AS d ("clientId", "dim", "key", "field", "day", "value", "n")
      SELECT e.* FROM delta e
      JOIN marked m ON m."clientId" = e."clientId" AND m."dim" = e."dim" AND m."key" = e."key" AND m."day" = e."day"
      ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT ("clientId", "dim", "key", "field", "day", "value") DO UPDATE SET "n" = d."n" + excluded."n"
      RETURNING d."clientId", d."dim", d."key", d."field", d."day", d."value", d."n"
    )
    SELECT array_agg(up."clientId"), array_agg(up."dim"), array_agg(up."key"), array_agg(up."field"),
      array_agg(up."day"), array_agg(up."value")
    INTO zc, zd, zk, zf, zday, zv
    FROM up WHERE up."n" <= 0;
    IF zc IS NOT NULL THEN
      DELETE FROM "transaction_distinct_values" d
      USING unnest(zc, zd, zk, zf, zday, zv) AS z("clientId", "dim", "key", "field", "day", "value")
      WHERE d."clientId" = z."clientId" AND d."dim" = z."dim" AND d."key" = z."key" AND d."field" = z."field"
        AND d."day" = z."day" AND d."value" = z."value" AND d."n" <= 0;
    END IF;
  END IF;

  IF false = ANY (gmarked) THEN
    IF current_setting('transaction_isolation') = 'read committed' THEN
      -- the unmarked days that gained rows and have their day bucket (built by this statement's bucket trigger,
      -- or earlier): marked, then counted from their rows
      WITH made AS (
        INSERT INTO "transaction_distinct_days" AS m ("clientId", "dim", "key", "day")
        SELECT g."clientId", g."dim", g."key", g."day"
        FROM unnest(gc, gd, gk, gday, gadded, gmarked) AS g("clientId", "dim", "key", "day", "added", "marked")
        WHERE NOT g."marked" AND g."added" AND EXISTS (
          SELECT 1 FROM "transaction_buckets" b WHERE b."clientId" = g."clientId" AND b."dim" = g."dim"
            AND b."key" = g."key" AND b."minutes" = 1440 AND b."start" = g."day")
        ORDER BY 1, 2, 3, 4
        ON CONFLICT DO NOTHING
        RETURNING m."clientId", m."dim", m."key", m."day"
      )
      SELECT array_agg(made."clientId"), array_agg(made."dim"), array_agg(made."key"), array_agg(made."day")
      INTO zc, zd, zk, zday FROM made;
      IF zc IS NOT NULL THEN
        -- values a day kept before it lost its mark (retention removes the marks of the months it empties, seen
        -- from its snapshot), stale since: its values are counted afresh
        DELETE FROM "transaction_distinct_values" d
        USING unnest(zc, zd, zk, zday) AS z("clientId", "dim", "key", "day")
        JOIN "transaction_distinct_specs" sp ON sp."clientId" = z."clientId" AND sp."dim" = z."dim"
        WHERE d."clientId" = z."clientId" AND d."dim" = z."dim" AND d."key" = z."key" AND d."field" = sp."field"
          AND d."day" = z."day";
        PERFORM "transaction_distinct_days_fill"(zc, zd, zk, zday);
      END IF;
    ELSE
      BEGIN
        INSERT INTO "transaction_distinct_days" ("clientId", "dim", "key", "day")
        SELECT g."clientId", g."dim", g."key", g."day"
        FROM unnest(gc, gd, gk, gday, gmarked) AS g("clientId", "dim", "key", "day", "marked")
        WHERE NOT g."marked"
        ORDER BY 1, 2, 3, 4
        ON CONFLICT DO NOTHING;
        RAISE EXCEPTION 'distinct day probe' USING ERRCODE = 'BKT02';
      EXCEPTION WHEN SQLSTATE 'BKT02' THEN
        NULL;
      END;
    END IF;
  END IF;
END
$fn$;

CREATE OR REPLACE FUNCTION "transaction_distinct_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "transaction_distinct_values", "transaction_distinct_days";
  RETURN NULL;
END
$fn$;

-- Counts one client's rows of the given specs with "occurredAt" >= each spec's "since", on the marked days
-- only (the caller holds the lock and has removed what was there). The rows are counted per value first, then
-- matched to the marks on plain columns: joined to the marks row by row, the plan matched each row to every
-- mark of its day (at 10,000,000 rows, 51,592 marks over 30 days: it ran for more than 15 minutes).
CREATE OR REPLACE FUNCTION "transaction_distinct_fill"(client TEXT, dims SMALLINT[], fields SMALLINT[]) RETURNS void
LANGUAGE sql AS $fn$
  INSERT INTO "transaction_distinct_values" ("clientId", "dim", "key", "field", "day", "value", "n")
  SELECT v."clientId", v."dim", v."key", v."field", v."day", v."value", v."n"
  FROM (
    SELECT t."clientId", sp."dim", x."key", sp."field", date_trunc('day', t."occurredAt", 'UTC') AS "day",
      x."value", count(*)::int AS "n"
    FROM "transaction_distinct_specs" sp
    JOIN unnest(dims, fields) AS w("dim", "field") ON w."dim" = sp."dim" AND w."field" = sp."field"
    JOIN "transactions" t ON t."clientId" = sp."clientId" AND t."occurredAt" >= sp."since"
    CROSS JOIN LATERAL (SELECT
      CASE sp."dim" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "key",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "value") x
    WHERE sp."clientId" = client AND x."key" IS NOT NULL AND x."value" IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6
  ) v
  JOIN "transaction_distinct_days" m ON m."clientId" = v."clientId" AND m."dim" = v."dim" AND m."key" = v."key"
    AND m."day" = v."day";
$fn$;

-- Every spec of one client (or of every client: NULL) counted from all its rows, "since" set to -infinity: the
-- days holding 4 rows or more marked (as the bucket rebuild keeps their buckets) and their values counted. For
-- operators, and after a bulk load with the triggers disabled (bench/screening.ts). Holds writers out for its
-- duration (two reads of the client's rows).
CREATE OR REPLACE FUNCTION "transaction_distinct_rebuild"(client TEXT) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  c TEXT;
BEGIN
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  FOR c IN SELECT DISTINCT sp."clientId" FROM "transaction_distinct_specs" sp
           WHERE client IS NULL OR sp."clientId" = client LOOP
    UPDATE "transaction_distinct_specs" SET "since" = '-infinity' WHERE "clientId" = c;
    DELETE FROM "transaction_distinct_values" WHERE "clientId" = c;
    DELETE FROM "transaction_distinct_days" WHERE "clientId" = c;
    INSERT INTO "transaction_distinct_days" ("clientId", "dim", "key", "day")
    SELECT t."clientId", dd."dim", x."key", date_trunc('day', t."occurredAt", 'UTC')
    FROM (SELECT DISTINCT sp."dim" FROM "transaction_distinct_specs" sp WHERE sp."clientId" = c) dd
    JOIN "transactions" t ON t."clientId" = c
    CROSS JOIN LATERAL (SELECT CASE dd."dim" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
      WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "key") x
    WHERE x."key" IS NOT NULL
    GROUP BY 1, 2, 3, 4
    HAVING count(*) >= 4;
    -- the fill's plan needs to know how many marks there are
    ANALYZE "transaction_distinct_days";
    PERFORM "transaction_distinct_fill"(c,
      ARRAY(SELECT sp."dim" FROM "transaction_distinct_specs" sp WHERE sp."clientId" = c ORDER BY sp."dim", sp."field"),
      ARRAY(SELECT sp."field" FROM "transaction_distinct_specs" sp WHERE sp."clientId" = c ORDER BY sp."dim", sp."field"));
  END LOOP;
END
$fn$;

-- The distinct values of "field" among one group's transactions in (p_from, p_to], with their row counts: the
-- marked whole UTC days at or after the spec's "since" from transaction_distinct_values, the rest (the two ragged days,
-- the unmarked days, every day before "since", the whole window without a spec) from the raw rows. A NULL key is
-- in no group: no rows. STABLE and generic plans, static statements per group column: as
-- transaction_window_totals, for the same reasons (one snapshot with the calling statement; a plan per call would
-- cost more than the read).
CREATE OR REPLACE FUNCTION "transaction_window_values"(
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
  -- the marked whole days read from transaction_distinct_values; raw rows: [ra, rb) pairs
  days TIMESTAMPTZ[] := '{}';
  ra TIMESTAMPTZ[];
  rb TIMESTAMPTZ[];
  a TIMESTAMPTZ;
  d TIMESTAMPTZ;
BEGIN
  IF p_key IS NULL OR lo >= hi THEN
    RETURN;
  END IF;
  SELECT sp."since" INTO since FROM "transaction_distinct_specs" sp
  WHERE sp."clientId" = p_client AND sp."dim" = p_dim AND sp."field" = p_field;
  IF since IS NOT NULL THEN
    d1 := greatest(lo, since);
    IF date_trunc('day', d1, 'UTC') < d1 THEN
      d1 := date_trunc('day', d1, 'UTC') + interval '24 hours';
    END IF;
    d2 := date_trunc('day', hi, 'UTC');
    IF d1 < d2 THEN
      days := ARRAY(SELECT m."day" FROM "transaction_distinct_days" m
        WHERE m."clientId" = p_client AND m."dim" = p_dim AND m."key" = p_key AND m."day" >= d1 AND m."day" < d2
        ORDER BY 1);
    END IF;
  END IF;
  ra := '{}';
  rb := '{}';
  a := lo;
  FOREACH d IN ARRAY days LOOP
    IF a < d THEN
      ra := ra || a;
      rb := rb || d;
    END IF;
    a := d + interval '24 hours';
  END LOOP;
  IF a < hi THEN
    ra := ra || a;
    rb := rb || hi;
  END IF;
  -- one static statement per group column (its index); OFFSET 0 keeps each raw range its own index scan
  IF p_dim = 1 THEN
    RETURN QUERY SELECT x."v", sum(x."c")::bigint FROM (
      SELECT dv."value" AS "v", dv."n"::bigint AS "c" FROM "transaction_distinct_values" dv
       WHERE dv."clientId" = p_client AND dv."dim" = p_dim AND dv."key" = p_key AND dv."field" = p_field
         AND dv."day" = ANY (days)
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
      SELECT dv."value" AS "v", dv."n"::bigint AS "c" FROM "transaction_distinct_values" dv
       WHERE dv."clientId" = p_client AND dv."dim" = p_dim AND dv."key" = p_key AND dv."field" = p_field
         AND dv."day" = ANY (days)
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
      SELECT dv."value" AS "v", dv."n"::bigint AS "c" FROM "transaction_distinct_values" dv
       WHERE dv."clientId" = p_client AND dv."dim" = p_dim AND dv."key" = p_key AND dv."field" = p_field
         AND dv."day" = ANY (days)
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
      SELECT dv."value" AS "v", dv."n"::bigint AS "c" FROM "transaction_distinct_values" dv
       WHERE dv."clientId" = p_client AND dv."dim" = p_dim AND dv."key" = p_key AND dv."field" = p_field
         AND dv."day" = ANY (days)
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
      SELECT dv."value" AS "v", dv."n"::bigint AS "c" FROM "transaction_distinct_values" dv
       WHERE dv."clientId" = p_client AND dv."dim" = p_dim AND dv."key" = p_key AND dv."field" = p_field
         AND dv."day" = ANY (days)
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

ANALYZE "transaction_distinct_values";
ANALYZE "transaction_distinct_days";
