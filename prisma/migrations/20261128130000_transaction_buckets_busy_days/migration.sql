-- A group's day keeps its bucket only once it holds 4 transactions or more (a *busy* day); a quieter day is read
-- from its raw rows, at most 3 of them.
--
-- Why: every group's every active day had its bucket, and most groups are quiet. At 10,000,000 stored
-- transactions (500,000 users, each with a card, a device and an account) 29.4 of the 29.8 million buckets were
-- days of one user, card, device or account holding 1.4 transactions on average: 7.4 GB of buckets and key
-- against 4.6 GB of transactions, no cheaper to read than the rows they copy, and four bucket writes on every
-- screening. The database no longer fitted the machine's memory, and the screenings waited on reads
-- (docs/benchmarks.md, "Buckets of busy days only").
--
-- The rule, kept by the writers:
--   * a day bucket that exists is exact (as before: count and sums, extremes unless stale);
--   * a day without a bucket is read from its rows (so it is exact whatever it holds), and holds fewer than 4
--     of them as long as its writers read committed: every writer of a group's day first takes a
--     transaction-scoped advisory lock that covers that day (see transaction_buckets_change), then adds its
--     change to the bucket, or, when the day has none and gained rows, counts the day's rows (its own and
--     every committed one) and builds the bucket from them once they are 4 or more. A bucket whose rows are
--     later removed stays (it is exact). A writer with a transaction snapshot builds none.
-- Dense days (48, their hours) and dense hours (60, their minutes) are as before; a day built dense at once
-- gets its hours from its rows.
--
-- The conversion is a swap: the busy days' buckets (and the hours and minutes under them) copied to a new table,
-- the old one dropped. Writers of "transactions" wait from the first statement to the end (the copy must
-- see every bucket), and screenings' reads of the buckets from the rename to the end: 9.6 s in all at
-- 10,000,000 rows (docs/operations.md). The previous release's code calls the same functions, replaced below.
LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "transaction_buckets_busy" (LIKE "transaction_buckets" INCLUDING DEFAULTS) WITH (fillfactor = 80);
INSERT INTO "transaction_buckets_busy" SELECT * FROM "transaction_buckets" WHERE "minutes" <> 1440 OR "count" >= 4 OR "denseXid" IS NOT NULL;
ALTER TABLE "transaction_buckets" RENAME TO "transaction_buckets_all_days";
ALTER TABLE "transaction_buckets_busy" RENAME TO "transaction_buckets";
DROP TABLE "transaction_buckets_all_days";
ALTER TABLE "transaction_buckets" ADD CONSTRAINT "transaction_buckets_pkey" PRIMARY KEY ("clientId", "dim", "key", "minutes", "start");

-- As in 20261127040100_transaction_bucket_moves (and 20261127170000: its generic plan kept), with the bucket's
-- extremes read by a lateral subquery that stays one (OFFSET 0): pulled up into a join, its plan read the whole
-- bucket table once it was small (a hash join: 138 buffers a call on a 2,600-bucket table), where it is meant to
-- read nothing for an insert and one bucket by its key for each removal.
CREATE OR REPLACE FUNCTION "transaction_bucket_net"(changes "transaction_bucket_change"[], grains SMALLINT[])
RETURNS SETOF "transaction_bucket_net_row" LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
BEGIN
  RETURN QUERY
  WITH exploded AS (
    SELECT c."clientId", k."dim", k."key", g."minutes", g."start", c."sign", c."amount", c."baseAmount"
    FROM unnest(changes) AS c
    CROSS JOIN LATERAL (VALUES (1::smallint, c."userId"), (2::smallint, c."merchantId"), (3::smallint, c."accountId"),
      (4::smallint, c."userDeviceId"), (5::smallint, c."cardFingerprint")) AS k("dim", "key")
    CROSS JOIN LATERAL (VALUES (1440::smallint, date_trunc('day', c."occurredAt", 'UTC')),
      (60::smallint, date_trunc('hour', c."occurredAt", 'UTC')),
      (1::smallint, date_trunc('minute', c."occurredAt", 'UTC'))) AS g("minutes", "start")
    WHERE k."key" IS NOT NULL AND g."minutes" = ANY (grains)
  ), delta AS (
    SELECT e."clientId", e."dim", e."key", e."minutes", e."start",
      sum(e."sign")::bigint AS "count",
      sum(e."sign" * e."amount") AS "amountSum",
      min(e."amount") FILTER (WHERE e."sign" > 0) AS "addedAmountMin",
      max(e."amount") FILTER (WHERE e."sign" > 0) AS "addedAmountMax",
      min(e."amount") FILTER (WHERE e."sign" < 0) AS "removedAmountMin",
      max(e."amount") FILTER (WHERE e."sign" < 0) AS "removedAmountMax",
      coalesce(sum(e."sign") FILTER (WHERE e."baseAmount" IS NOT NULL), 0)::bigint AS "baseCount",
      coalesce(sum(e."sign" * e."baseAmount"), 0) AS "baseSum",
      min(e."baseAmount") FILTER (WHERE e."sign" > 0) AS "addedBaseMin",
      max(e."baseAmount") FILTER (WHERE e."sign" > 0) AS "addedBaseMax",
      min(e."baseAmount") FILTER (WHERE e."sign" < 0) AS "removedBaseMin",
      max(e."baseAmount") FILTER (WHERE e."sign" < 0) AS "removedBaseMax"
    FROM exploded e
    GROUP BY 1, 2, 3, 4, 5
  )
  SELECT d."clientId", d."dim", d."key", d."minutes", d."start", d."count", d."amountSum", d."addedAmountMin",
    d."addedAmountMax", d."baseCount", d."baseSum", d."addedBaseMin", d."addedBaseMax",
    (d."removedAmountMin" IS NOT NULL AND (b."amountMin" IS NULL OR d."removedAmountMin" <= b."amountMin")
       AND (d."addedAmountMin" IS NULL OR d."addedAmountMin" > d."removedAmountMin"))
    OR (d."removedAmountMax" IS NOT NULL AND (b."amountMax" IS NULL OR d."removedAmountMax" >= b."amountMax")
       AND (d."addedAmountMax" IS NULL OR d."addedAmountMax" < d."removedAmountMax"))
    OR (d."removedBaseMin" IS NOT NULL AND (b."baseMin" IS NULL OR d."removedBaseMin" <= b."baseMin")
       AND (d."addedBaseMin" IS NULL OR d."addedBaseMin" > d."removedBaseMin"))
    OR (d."removedBaseMax" IS NOT NULL AND (b."baseMax" IS NULL OR d."removedBaseMax" >= b."baseMax")
       AND (d."addedBaseMax" IS NULL OR d."addedBaseMax" < d."removedBaseMax"))
  FROM delta d
  -- the bucket's extremes, read only when something was removed (an insert reads no bucket here)
  LEFT JOIN LATERAL (
    SELECT b."amountMin", b."amountMax", b."baseMin", b."baseMax" FROM "transaction_buckets" b
    WHERE (d."removedAmountMin" IS NOT NULL OR d."removedBaseMin" IS NOT NULL)
      AND b."clientId" = d."clientId" AND b."dim" = d."dim" AND b."key" = d."key"
      AND b."minutes" = d."minutes" AND b."start" = d."start"
    OFFSET 0
  ) b ON true;
END
$fn$;

-- The days of a change (as transaction_bucket_net gives them) that have no bucket and gained rows: their buckets
-- built from their rows where they hold 4 or more (48 or more: dense, marked `mark`). Returns the days built dense.
-- Each day is counted first by one static statement per group column (its plan prunes the month at start), at
-- most 4 rows; only the days that reach 4 are read in full. More than 64 days (a bulk statement) are read in
-- full at once instead: a statement per day would be millions for an import of millions of rows.
CREATE FUNCTION "transaction_buckets_busy_build"(candidates "transaction_bucket_net_row"[], mark BIGINT)
RETURNS "transaction_bucket_period"[] LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  days "transaction_bucket_net_row"[] := '{}';
  made "transaction_bucket_period"[];
  c "transaction_bucket_net_row";
  rows_so_far INT;
  day_end TIMESTAMPTZ;
BEGIN
  IF cardinality(candidates) > 64 THEN
    days := candidates;
  ELSE
    FOREACH c IN ARRAY candidates LOOP
      day_end := c."start" + interval '1 day';
      IF c."dim" = 1 THEN
        SELECT count(*) INTO rows_so_far FROM (SELECT 1 FROM "transactions" t WHERE t."clientId" = c."clientId"
          AND t."userId" = c."key" AND t."occurredAt" >= c."start" AND t."occurredAt" < day_end LIMIT 4) x;
      ELSIF c."dim" = 2 THEN
        SELECT count(*) INTO rows_so_far FROM (SELECT 1 FROM "transactions" t WHERE t."clientId" = c."clientId"
          AND t."merchantId" = c."key" AND t."occurredAt" >= c."start" AND t."occurredAt" < day_end LIMIT 4) x;
      ELSIF c."dim" = 3 THEN
        SELECT count(*) INTO rows_so_far FROM (SELECT 1 FROM "transactions" t WHERE t."clientId" = c."clientId"
          AND t."accountId" = c."key" AND t."occurredAt" >= c."start" AND t."occurredAt" < day_end LIMIT 4) x;
      ELSIF c."dim" = 4 THEN
        SELECT count(*) INTO rows_so_far FROM (SELECT 1 FROM "transactions" t WHERE t."clientId" = c."clientId"
          AND t."userDeviceId" = c."key" AND t."occurredAt" >= c."start" AND t."occurredAt" < day_end LIMIT 4) x;
      ELSE
        SELECT count(*) INTO rows_so_far FROM (SELECT 1 FROM "transactions" t WHERE t."clientId" = c."clientId"
          AND t."cardFingerprint" = c."key" AND t."occurredAt" >= c."start" AND t."occurredAt" < day_end LIMIT 4) x;
      END IF;
      IF rows_so_far >= 4 THEN
        days := days || c;
      END IF;
    END LOOP;
  END IF;
  IF cardinality(days) = 0 THEN
    RETURN '{}';
  END IF;
  WITH rows AS (
    SELECT p."clientId", p."dim", p."key", p."start", t."amount", t."baseAmount"
    FROM unnest(days) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + interval '1 day' AND p."dim" = 1 AND t."userId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."start", t."amount", t."baseAmount"
    FROM unnest(days) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + interval '1 day' AND p."dim" = 2 AND t."merchantId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."start", t."amount", t."baseAmount"
    FROM unnest(days) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + interval '1 day' AND p."dim" = 3 AND t."accountId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."start", t."amount", t."baseAmount"
    FROM unnest(days) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + interval '1 day' AND p."dim" = 4 AND t."userDeviceId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."start", t."amount", t."baseAmount"
    FROM unnest(days) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + interval '1 day' AND p."dim" = 5 AND t."cardFingerprint" = p."key"
  ), built AS (
    INSERT INTO "transaction_buckets" ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
      "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "denseXid")
    SELECT r."clientId", r."dim", r."key", 1440, r."start", count(*), sum(r."amount"), min(r."amount"),
      max(r."amount"), count(r."baseAmount"), coalesce(sum(r."baseAmount"), 0), min(r."baseAmount"),
      max(r."baseAmount"), CASE WHEN count(*) >= 48 THEN mark END
    FROM rows r
    GROUP BY r."clientId", r."dim", r."key", r."start"
    HAVING count(*) >= 4
    ORDER BY 1, 2, 3, 5
    RETURNING "clientId", "dim", "key", "minutes", "start", "denseXid"
  )
  SELECT coalesce(array_agg(ROW(b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid")::"transaction_bucket_period"), '{}')
  INTO made FROM built b WHERE b."denseXid" IS NOT NULL;
  RETURN made;
END
$fn$;

-- As in 20261127040100_transaction_bucket_moves, but a day's bucket is added to when it exists and built from
-- the day's rows when it reaches 4; the advisory locks (not the day bucket's row lock) make a day's writers, and
-- so its hour and minute buckets', one at a time.
CREATE OR REPLACE FUNCTION "transaction_buckets_change"(changes "transaction_bucket_change"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  xid BIGINT := txid_current();
  nets "transaction_bucket_net_row"[];
  days "transaction_bucket_period"[];
  hours "transaction_bucket_period"[];
  found "transaction_bucket_period"[];
  locks INT[];
  day_locks INT[];
BEGIN
  -- a row's old and new versions that agree on every group, the minute and the amounts net to nothing (a status
  -- update touches no bucket); what remains is a real change, even where a grain's totals do not move
  changes := ARRAY(
    SELECT ROW(c."clientId", c."userId", c."merchantId", c."accountId", c."userDeviceId", c."cardFingerprint",
      c."occurredAt", c."amount", c."baseAmount", sum(c."sign")::int)::"transaction_bucket_change"
    FROM unnest(changes) AS c
    GROUP BY c."clientId", c."userId", c."merchantId", c."accountId", c."userDeviceId", c."cardFingerprint",
      c."occurredAt", c."amount", c."baseAmount"
    HAVING sum(c."sign") <> 0);
  nets := ARRAY(SELECT n FROM "transaction_bucket_net"(changes, '{1440}') n);
  IF cardinality(nets) = 0 THEN
    RETURN;
  END IF;

  -- the days' locks, held to the end of the transaction, taken coarse to fine and each level in one order (of
  -- its lock keys, which two days may share), so that concurrent writers cannot deadlock: the client's, the
  -- client's days', each group's day. A writer of a few days shares the coarser ones and takes its group days';
  -- a statement of more than 64 group days (an import, one of retention's batches) takes its client days
  -- alone, exclusive, and one of more than 64 client days the client's. Every lock holds a slot of the server's
  -- shared lock table (64 per connection by default): thousands would exhaust it. The day as seconds: its text
  -- would follow the session's time zone.
  locks := ARRAY(SELECT DISTINCT hashtext(n."clientId" || '/' || n."dim" || '/' || n."key" || '/'
            || extract(epoch FROM n."start")::bigint) FROM unnest(nets) n ORDER BY 1);
  day_locks := ARRAY(SELECT DISTINCT hashtext(n."clientId" || '/' || extract(epoch FROM n."start")::bigint)
            FROM unnest(nets) n ORDER BY 1);
  IF cardinality(day_locks) > 64 THEN
    PERFORM pg_advisory_xact_lock(20261129, hashtext(c."clientId"))
    FROM (SELECT DISTINCT n."clientId" FROM unnest(nets) n ORDER BY 1) c;
  ELSE
    PERFORM pg_advisory_xact_lock_shared(20261129, hashtext(c."clientId"))
    FROM (SELECT DISTINCT n."clientId" FROM unnest(nets) n ORDER BY 1) c;
    IF cardinality(locks) > 64 THEN
      PERFORM pg_advisory_xact_lock(20261130, l."lock") FROM unnest(day_locks) AS l("lock");
    ELSE
      PERFORM pg_advisory_xact_lock_shared(20261130, l."lock") FROM unnest(day_locks) AS l("lock");
      PERFORM pg_advisory_xact_lock(20261128, l."lock") FROM unnest(locks) AS l("lock");
    END IF;
  END IF;

  WITH up AS (
    UPDATE "transaction_buckets" AS b SET
    "count" = b."count" + n."count",
    "amountSum" = b."amountSum" + n."amountSum",
    "baseCount" = b."baseCount" + n."baseCount",
    "baseSum" = b."baseSum" + n."baseSum",
    -- an emptied bucket's extremes are known again: there are none
    "amountMin" = CASE WHEN b."count" + n."count" = 0 THEN NULL ELSE least(b."amountMin", n."amountMin") END,
    "amountMax" = CASE WHEN b."count" + n."count" = 0 THEN NULL ELSE greatest(b."amountMax", n."amountMax") END,
    "baseMin" = CASE WHEN b."baseCount" + n."baseCount" = 0 THEN NULL ELSE least(b."baseMin", n."baseMin") END,
    "baseMax" = CASE WHEN b."baseCount" + n."baseCount" = 0 THEN NULL ELSE greatest(b."baseMax", n."baseMax") END,
    "extremaStale" = b."count" + n."count" <> 0 AND (b."extremaStale" OR n."stale"),
    "denseXid" = CASE WHEN b."denseXid" IS NULL AND b."count" + n."count" >= 48 THEN xid ELSE b."denseXid" END
    FROM unnest(nets) n
    WHERE b."clientId" = n."clientId" AND b."dim" = n."dim" AND b."key" = n."key" AND b."minutes" = 1440
      AND b."start" = n."start"
    RETURNING b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid"
  )
  SELECT coalesce(array_agg(ROW(up."clientId", up."dim", up."key", up."minutes", up."start", up."denseXid")::"transaction_bucket_period"), '{}')
  INTO found FROM up;
  days := ARRAY(SELECT f FROM unnest(found) f WHERE f."denseXid" IS NOT NULL);

  IF cardinality(found) < cardinality(nets) THEN
    IF current_setting('transaction_isolation') = 'read committed' THEN
      -- the days without a bucket that gained rows: built once they hold 4 (this statement sees this
      -- transaction's rows and every committed one; a writer of the same day waits at its lock, then finds the
      -- bucket)
      days := days || "transaction_buckets_busy_build"(ARRAY(
        SELECT n FROM unnest(nets) n
        WHERE n."count" > 0 AND NOT EXISTS (
          SELECT 1 FROM unnest(found) f
          WHERE f."clientId" = n."clientId" AND f."dim" = n."dim" AND f."key" = n."key" AND f."start" = n."start")), xid);
    ELSE
      -- a transaction snapshot (retention's REPEATABLE READ) does not see a bucket made after it, nor rows
      -- committed since: it builds no bucket (a later writer will), and a day without a bucket it can see is
      -- probed, so that one made meanwhile fails the transaction with 40001, to be retried, instead of missing
      -- this change (ON CONFLICT on a row the snapshot cannot see); the probe's rows are rolled back
      BEGIN
        INSERT INTO "transaction_buckets" ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
          "baseCount", "baseSum")
        SELECT n."clientId", n."dim", n."key", 1440, n."start", 0, 0, 0, 0 FROM unnest(nets) n
        WHERE NOT EXISTS (
          SELECT 1 FROM unnest(found) f
          WHERE f."clientId" = n."clientId" AND f."dim" = n."dim" AND f."key" = n."key" AND f."start" = n."start")
        ORDER BY 1, 2, 3, 5
        ON CONFLICT DO NOTHING;
        RAISE EXCEPTION 'bucket probe' USING ERRCODE = 'BKT01';
      EXCEPTION WHEN SQLSTATE 'BKT01' THEN
        NULL;
      END;
    END IF;
  END IF;
  IF cardinality(days) = 0 THEN
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(days) d WHERE d."denseXid" <> xid) THEN
    nets := ARRAY(SELECT n FROM "transaction_bucket_net"(changes, '{60,1}') n);
  ELSE
    nets := '{}';
  END IF;

  WITH up AS (
    INSERT INTO "transaction_buckets" AS b ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
    "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "extremaStale", "denseXid")
    SELECT n."clientId", n."dim", n."key", n."minutes", n."start", n."count", n."amountSum", n."amountMin",
    n."amountMax", n."baseCount", n."baseSum", n."baseMin", n."baseMax", n."stale", CASE WHEN n."count" >= 60 THEN xid END
    FROM unnest(nets) n
    JOIN unnest(days) d ON d."clientId" = n."clientId" AND d."dim" = n."dim" AND d."key" = n."key"
      AND d."start" = date_trunc('day', n."start", 'UTC') AND d."denseXid" <> xid
    WHERE n."minutes" = 60
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("clientId", "dim", "key", "minutes", "start") DO UPDATE SET
    "count" = b."count" + excluded."count",
    "amountSum" = b."amountSum" + excluded."amountSum",
    "baseCount" = b."baseCount" + excluded."baseCount",
    "baseSum" = b."baseSum" + excluded."baseSum",
    "amountMin" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE least(b."amountMin", excluded."amountMin") END,
    "amountMax" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE greatest(b."amountMax", excluded."amountMax") END,
    "baseMin" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE least(b."baseMin", excluded."baseMin") END,
    "baseMax" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE greatest(b."baseMax", excluded."baseMax") END,
    "extremaStale" = b."count" + excluded."count" <> 0 AND (b."extremaStale" OR excluded."extremaStale"),
    "denseXid" = CASE WHEN b."denseXid" IS NULL AND b."count" + excluded."count" >= 60 THEN xid ELSE b."denseXid" END
    RETURNING b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid"
  )
  SELECT coalesce(array_agg(ROW(up."clientId", up."dim", up."key", up."minutes", up."start", up."denseXid")::"transaction_bucket_period"), '{}')
  INTO hours FROM up WHERE up."denseXid" IS NOT NULL;

  INSERT INTO "transaction_buckets" AS b ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
    "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "extremaStale", "denseXid")
  SELECT n."clientId", n."dim", n."key", n."minutes", n."start", n."count", n."amountSum", n."amountMin",
    n."amountMax", n."baseCount", n."baseSum", n."baseMin", n."baseMax", n."stale", NULL
  FROM unnest(nets) n
  JOIN unnest(hours) h ON h."clientId" = n."clientId" AND h."dim" = n."dim" AND h."key" = n."key"
    AND h."start" = date_trunc('hour', n."start", 'UTC') AND h."denseXid" <> xid
  WHERE n."minutes" = 1
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("clientId", "dim", "key", "minutes", "start") DO UPDATE SET
    "count" = b."count" + excluded."count",
    "amountSum" = b."amountSum" + excluded."amountSum",
    "baseCount" = b."baseCount" + excluded."baseCount",
    "baseSum" = b."baseSum" + excluded."baseSum",
    "amountMin" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE least(b."amountMin", excluded."amountMin") END,
    "amountMax" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE greatest(b."amountMax", excluded."amountMax") END,
    "baseMin" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE least(b."baseMin", excluded."baseMin") END,
    "baseMax" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE greatest(b."baseMax", excluded."baseMax") END,
    "extremaStale" = b."count" + excluded."count" <> 0 AND (b."extremaStale" OR excluded."extremaStale");

  PERFORM "transaction_buckets_build"(ARRAY(SELECT d FROM unnest(days) d WHERE d."denseXid" = xid), xid);
  PERFORM "transaction_buckets_build"(ARRAY(SELECT h FROM unnest(hours) h WHERE h."denseXid" = xid), xid);
END
$fn$;

-- The buckets of one client (or of every client: NULL), rebuilt from its transactions: the busy days' (and the
-- hours and minutes of the dense ones). Writers must be kept out meanwhile.
CREATE OR REPLACE FUNCTION "transaction_buckets_rebuild"(client TEXT) RETURNS void LANGUAGE sql AS $fn$
  DELETE FROM "transaction_buckets" WHERE client IS NULL OR "clientId" = client;
  INSERT INTO "transaction_buckets" ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
    "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "denseXid")
  SELECT t."clientId", k."dim", k."key", 1440, date_trunc('day', t."occurredAt", 'UTC'), count(*), sum(t."amount"),
    min(t."amount"), max(t."amount"), count(t."baseAmount"), coalesce(sum(t."baseAmount"), 0), min(t."baseAmount"),
    max(t."baseAmount"), CASE WHEN count(*) >= 48 THEN 0 END
  FROM "transactions" t
  CROSS JOIN LATERAL (VALUES (1::smallint, t."userId"), (2::smallint, t."merchantId"), (3::smallint, t."accountId"),
    (4::smallint, t."userDeviceId"), (5::smallint, t."cardFingerprint")) AS k("dim", "key")
  WHERE k."key" IS NOT NULL AND (client IS NULL OR t."clientId" = client)
  GROUP BY 1, 2, 3, 4, 5
  HAVING count(*) >= 4;
  SELECT "transaction_buckets_build"(ARRAY(
    SELECT ROW(b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid")::"transaction_bucket_period"
    FROM "transaction_buckets" b
    WHERE b."minutes" = 1440 AND b."denseXid" IS NOT NULL AND (client IS NULL OR b."clientId" = client)), 0);
$fn$;

-- As in 20261127090000_transaction_window_complements, with days that may have no bucket. One statement reads the
-- group's day buckets from the window's first day to its last: the whole days' totals, and which days have a
-- bucket and which are dense (this replaces the dense days' lookup). The whole days without a bucket are read
-- from their raw rows (runs of them as one range); a ragged day part is read as its bucket less the rest only when
-- its day has one, and through its hours when that day is dense.
CREATE OR REPLACE FUNCTION "transaction_window_totals"(
  p_client TEXT, p_dim SMALLINT, p_key TEXT, p_base BOOLEAN, p_extremes BOOLEAN, p_from TIMESTAMPTZ,
  p_to TIMESTAMPTZ, OUT "n" BIGINT, OUT "v" BIGINT, OUT "s" NUMERIC, OUT "mn" NUMERIC, OUT "mx" NUMERIC, OUT "stale" BOOLEAN)
-- STABLE: its statements run on the calling statement's snapshot, so the buckets and the raw rows it reads (and
-- subtracts) agree. Generic plans: see 20261127090000.
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
  lo TIMESTAMPTZ := p_from + interval '1 millisecond';
  hi TIMESTAMPTZ := p_to + interval '1 millisecond';
  present TIMESTAMPTZ := now();
  d1 TIMESTAMPTZ;
  d2 TIMESTAMPTZ;
  -- the day buckets from the window's first day to its last, and whether each is dense
  bucketed TIMESTAMPTZ[];
  dense_days BOOLEAN[];
  pa TIMESTAMPTZ[] := '{}';
  pb TIMESTAMPTZ[] := '{}';
  ps INT[] := '{}';
  ka TIMESTAMPTZ[];
  kb TIMESTAMPTZ[];
  ks INT[];
  dense TIMESTAMPTZ[];
  starts TIMESTAMPTZ[];
  bm SMALLINT[] := '{}';
  ba TIMESTAMPTZ[] := '{}';
  bb TIMESTAMPTZ[] := '{}';
  bs INT[] := '{}';
  ra TIMESTAMPTZ[] := '{}';
  rb TIMESTAMPTZ[] := '{}';
  rg INT[] := '{}';
  grain INTERVAL;
  grain_minutes SMALLINT;
  a TIMESTAMPTZ;
  b TIMESTAMPTZ;
  g INT;
  u0 TIMESTAMPTZ;
  u1 TIMESTAMPTZ;
  c1 TIMESTAMPTZ;
  c2 TIMESTAMPTZ;
  rn BIGINT;
  rv BIGINT;
  rs NUMERIC;
  rmn NUMERIC;
  rmx NUMERIC;
  rstale BOOLEAN;
BEGIN
  n := 0;
  v := 0;
  stale := false;
  IF p_key IS NULL OR lo >= hi THEN
    RETURN;
  END IF;
  d1 := date_trunc('day', lo, 'UTC');
  IF d1 < lo THEN
    d1 := d1 + interval '1 day';
  END IF;
  d2 := date_trunc('day', hi, 'UTC');

  SELECT coalesce(sum(x."count") FILTER (WHERE x."whole"), 0),
         coalesce(sum(CASE WHEN p_base THEN x."baseCount" ELSE x."count" END) FILTER (WHERE x."whole"), 0),
         sum(CASE WHEN p_base THEN x."baseSum" ELSE x."amountSum" END) FILTER (WHERE x."whole"),
         min(CASE WHEN p_base THEN CASE WHEN x."baseCount" <> 0 THEN x."baseMin" END
                  ELSE CASE WHEN x."count" <> 0 THEN x."amountMin" END END) FILTER (WHERE x."whole"),
         max(CASE WHEN p_base THEN CASE WHEN x."baseCount" <> 0 THEN x."baseMax" END
                  ELSE CASE WHEN x."count" <> 0 THEN x."amountMax" END END) FILTER (WHERE x."whole"),
         coalesce(bool_or(x."extremaStale" AND CASE WHEN p_base THEN x."baseCount" ELSE x."count" END <> 0)
                  FILTER (WHERE x."whole"), false),
         coalesce(array_agg(x."start" ORDER BY x."start"), '{}'),
         coalesce(array_agg(x."denseXid" IS NOT NULL ORDER BY x."start"), '{}')
    INTO n, v, s, mn, mx, stale, bucketed, dense_days
    FROM (SELECT b0.*, b0."start" >= d1 AND b0."start" < d2 AS "whole" FROM "transaction_buckets" b0
           WHERE b0."clientId" = p_client AND b0."dim" = p_dim AND b0."key" = p_key AND b0."minutes" = 1440
             AND b0."start" >= date_trunc('day', lo, 'UTC') AND b0."start" < hi) x;

  IF d1 > d2 THEN
    pa := ARRAY[lo];
    pb := ARRAY[hi];
    ps := ARRAY[1];
  ELSE
    -- the whole days without a bucket: their raw rows, a run of them as one range
    a := d1;
    FOR i IN 1 .. cardinality(bucketed) LOOP
      CONTINUE WHEN bucketed[i] < d1 OR bucketed[i] >= d2;
      IF a < bucketed[i] THEN
        ra := ra || a;
        rb := rb || bucketed[i];
        rg := rg || 1;
      END IF;
      a := bucketed[i] + interval '1 day';
    END LOOP;
    IF a < d2 THEN
      ra := ra || a;
      rb := rb || d2;
      rg := rg || 1;
    END IF;
    IF lo < d1 THEN
      pa := pa || lo;
      pb := pb || d1;
      ps := ps || 1;
    END IF;
    IF d2 < hi THEN
      pa := pa || d2;
      pb := pb || hi;
      ps := ps || 1;
    END IF;
  END IF;

  -- day, hour, minute: the ragged parts of this grain become kept ranges (as they are, or their bucket less the
  -- rest, when it has one); the kept ranges on dense buckets become whole buckets and ragged parts of the next grain
  FOR level IN 1 .. 3 LOOP
    EXIT WHEN cardinality(pa) = 0;
    grain := CASE level WHEN 1 THEN interval '1 day' WHEN 2 THEN interval '1 hour' ELSE interval '1 minute' END;
    grain_minutes := CASE level WHEN 1 THEN 1440 WHEN 2 THEN 60 ELSE 1 END;
    ka := '{}';
    kb := '{}';
    ks := '{}';
    FOR i IN 1 .. cardinality(pa) LOOP
      a := pa[i];
      b := pb[i];
      g := ps[i];
      u0 := date_trunc(CASE level WHEN 1 THEN 'day' WHEN 2 THEN 'hour' ELSE 'minute' END, a, 'UTC');
      u1 := u0 + grain;
      -- time before the present: of the part, and of the rest of its bucket (a day without one: as it is;
      -- an hour or minute of a dense period always has its bucket, empty or not)
      IF NOT p_extremes AND (level > 1 OR u0 = ANY (bucketed))
         AND greatest(least(a, present) - u0, interval '0') + greatest(least(u1, present) - b, interval '0')
           < greatest(least(b, present) - a, interval '0') THEN
        bm := bm || grain_minutes;
        ba := ba || u0;
        bb := bb || u1;
        bs := bs || g;
        IF u0 < a THEN
          ka := ka || u0;
          kb := kb || a;
          ks := ks || -g;
        END IF;
        IF b < u1 THEN
          ka := ka || b;
          kb := kb || u1;
          ks := ks || -g;
        END IF;
      ELSE
        ka := ka || a;
        kb := kb || b;
        ks := ks || g;
      END IF;
    END LOOP;
    pa := '{}';
    pb := '{}';
    ps := '{}';
    IF level = 3 THEN
      ra := ra || ka;
      rb := rb || kb;
      rg := rg || ks;
      EXIT;
    END IF;
    IF level = 1 THEN
      -- the dense days, from the day buckets read above
      dense := ARRAY(SELECT d."start" FROM unnest(bucketed, dense_days) AS d("start", "dense") WHERE d."dense");
    ELSE
      -- the kept ranges' hours that are dense: one primary-key lookup per hour
      starts := '{}';
      FOR i IN 1 .. cardinality(ka) LOOP
        IF least(kb[i], present) - ka[i] >= interval '1 minute' THEN
          starts := starts || date_trunc('hour', ka[i], 'UTC');
        END IF;
      END LOOP;
      dense := '{}';
      IF cardinality(starts) > 0 THEN
        SELECT coalesce(array_agg(bk."start"), '{}') INTO dense
          FROM (SELECT DISTINCT h."start" FROM unnest(starts) AS h("start")) h CROSS JOIN LATERAL (
            SELECT b0."start" FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
               AND b0."key" = p_key AND b0."minutes" = 60 AND b0."start" = h."start" AND b0."denseXid" IS NOT NULL
            OFFSET 0) bk;
      END IF;
    END IF;
    grain := CASE level WHEN 1 THEN interval '1 hour' ELSE interval '1 minute' END;
    FOR i IN 1 .. cardinality(ka) LOOP
      a := ka[i];
      b := kb[i];
      g := ks[i];
      IF least(b, present) - a >= interval '1 minute'
         AND date_trunc(CASE level WHEN 1 THEN 'day' ELSE 'hour' END, a, 'UTC') = ANY (dense) THEN
        c1 := date_trunc(CASE level WHEN 1 THEN 'hour' ELSE 'minute' END, a, 'UTC');
        IF c1 < a THEN
          c1 := c1 + grain;
        END IF;
        c2 := date_trunc(CASE level WHEN 1 THEN 'hour' ELSE 'minute' END, b, 'UTC');
        IF c1 > c2 THEN
          pa := pa || a;
          pb := pb || b;
          ps := ps || g;
        ELSE
          IF c1 < c2 THEN
            bm := bm || CASE level WHEN 1 THEN 60::SMALLINT ELSE 1::SMALLINT END;
            ba := ba || c1;
            bb := bb || c2;
            bs := bs || g;
          END IF;
          IF a < c1 THEN
            pa := pa || a;
            pb := pb || c1;
            ps := ps || g;
          END IF;
          IF c2 < b THEN
            pa := pa || c2;
            pb := pb || b;
            ps := ps || g;
          END IF;
        END IF;
      ELSE
        ra := ra || a;
        rb := rb || b;
        rg := rg || g;
      END IF;
    END LOOP;
  END LOOP;

  IF cardinality(bm) > 0 THEN
    SELECT coalesce(sum(r."sign" * bk."count"), 0),
           coalesce(sum(r."sign" * CASE WHEN p_base THEN bk."baseCount" ELSE bk."count" END), 0),
           sum(r."sign" * CASE WHEN p_base THEN bk."baseSum" ELSE bk."amountSum" END),
           min(CASE WHEN p_base THEN CASE WHEN bk."baseCount" <> 0 THEN bk."baseMin" END
                    ELSE CASE WHEN bk."count" <> 0 THEN bk."amountMin" END END),
           max(CASE WHEN p_base THEN CASE WHEN bk."baseCount" <> 0 THEN bk."baseMax" END
                    ELSE CASE WHEN bk."count" <> 0 THEN bk."amountMax" END END),
           coalesce(bool_or(bk."extremaStale" AND CASE WHEN p_base THEN bk."baseCount" ELSE bk."count" END <> 0), false)
      INTO rn, rv, rs, rmn, rmx, rstale
      FROM unnest(bm, ba, bb, bs) AS r("m", "a", "b", "sign") CROSS JOIN LATERAL (
        SELECT * FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
           AND b0."key" = p_key AND b0."minutes" = r."m" AND b0."start" >= r."a" AND b0."start" < r."b"
        OFFSET 0) bk;
    n := n + rn;
    v := v + rv;
    s := CASE WHEN s IS NULL THEN rs WHEN rs IS NULL THEN s ELSE s + rs END;
    mn := LEAST(mn, rmn);
    mx := GREATEST(mx, rmx);
    stale := stale OR rstale;
  END IF;
  IF cardinality(ra) > 0 THEN
    -- one static statement per group column, so that each keeps its plan on that column's index; OFFSET 0
    -- keeps each range its own index scan (a join would read the group's whole history, then filter it)
    IF p_dim = 1 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 2 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."merchantId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 3 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."accountId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 4 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userDeviceId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSE
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."cardFingerprint" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    END IF;
    n := n + rn;
    v := v + rv;
    s := CASE WHEN s IS NULL THEN rs WHEN rs IS NULL THEN s ELSE s + rs END;
    mn := LEAST(mn, rmn);
    mx := GREATEST(mx, rmx);
  END IF;
END
$fn$;

-- the new table's statistics at once (its plans depend on its size; autovacuum may be off)
ANALYZE "transaction_buckets";
