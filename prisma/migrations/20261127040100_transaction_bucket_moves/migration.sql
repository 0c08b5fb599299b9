-- The buckets missed a row moved within its day (or within its hour) with its amounts unchanged: its day's net
-- change was nothing, so the day was not touched and its hour and minute buckets were never changed (an hour
-- the same for its minutes). Now the changes are netted per whole row first (a row whose groups, time and
-- amounts are unchanged, such as a status update, still nets to nothing and touches no bucket), and every
-- bucket a remaining change reaches is upserted, even with a zero net change, so that a day (and an hour) of a
-- real change is locked and its finer buckets changed. The buckets are then rebuilt from the rows, under the
-- lock the buckets migration took (writers wait for it; about 3 minutes at 10 million rows,
-- docs/operations.md), which repairs any the old functions left wrong.

CREATE OR REPLACE FUNCTION "transaction_bucket_net"(changes "transaction_bucket_change"[], grains SMALLINT[])
RETURNS SETOF "transaction_bucket_net_row" LANGUAGE plpgsql AS $fn$
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
  ) b ON true;
END
$fn$;

CREATE OR REPLACE FUNCTION "transaction_buckets_change"(changes "transaction_bucket_change"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  xid BIGINT := txid_current();
  nets "transaction_bucket_net_row"[];
  days "transaction_bucket_period"[];
  hours "transaction_bucket_period"[];
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
  -- the days first: most groups never have a dense day, and their changes need no finer nets
  nets := ARRAY(SELECT n FROM "transaction_bucket_net"(changes, '{1440}') n);
  IF cardinality(nets) = 0 THEN
    RETURN;
  END IF;

  WITH up AS (
    INSERT INTO "transaction_buckets" AS b ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
    "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "extremaStale", "denseXid")
    SELECT n."clientId", n."dim", n."key", n."minutes", n."start", n."count", n."amountSum", n."amountMin",
    n."amountMax", n."baseCount", n."baseSum", n."baseMin", n."baseMax", n."stale", CASE WHEN n."count" >= 48 THEN xid END
    FROM unnest(nets) n WHERE n."minutes" = 1440
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("clientId", "dim", "key", "minutes", "start") DO UPDATE SET
    "count" = b."count" + excluded."count",
    "amountSum" = b."amountSum" + excluded."amountSum",
    "baseCount" = b."baseCount" + excluded."baseCount",
    "baseSum" = b."baseSum" + excluded."baseSum",
    -- an emptied bucket's extremes are known again: there are none
    "amountMin" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE least(b."amountMin", excluded."amountMin") END,
    "amountMax" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE greatest(b."amountMax", excluded."amountMax") END,
    "baseMin" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE least(b."baseMin", excluded."baseMin") END,
    "baseMax" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE greatest(b."baseMax", excluded."baseMax") END,
    "extremaStale" = b."count" + excluded."count" <> 0 AND (b."extremaStale" OR excluded."extremaStale"),
    "denseXid" = CASE WHEN b."denseXid" IS NULL AND b."count" + excluded."count" >= 48 THEN xid ELSE b."denseXid" END
    RETURNING b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid"
  )
  SELECT coalesce(array_agg(ROW(up."clientId", up."dim", up."key", up."minutes", up."start", up."denseXid")::"transaction_bucket_period"), '{}')
  INTO days FROM up WHERE up."denseXid" IS NOT NULL;
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
    -- an emptied bucket's extremes are known again: there are none
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
    -- an emptied bucket's extremes are known again: there are none
    "amountMin" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE least(b."amountMin", excluded."amountMin") END,
    "amountMax" = CASE WHEN b."count" + excluded."count" = 0 THEN NULL ELSE greatest(b."amountMax", excluded."amountMax") END,
    "baseMin" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE least(b."baseMin", excluded."baseMin") END,
    "baseMax" = CASE WHEN b."baseCount" + excluded."baseCount" = 0 THEN NULL ELSE greatest(b."baseMax", excluded."baseMax") END,
    "extremaStale" = b."count" + excluded."count" <> 0 AND (b."extremaStale" OR excluded."extremaStale");

  PERFORM "transaction_buckets_build"(ARRAY(SELECT d FROM unnest(days) d WHERE d."denseXid" = xid), xid);
  PERFORM "transaction_buckets_build"(ARRAY(SELECT h FROM unnest(hours) h WHERE h."denseXid" = xid), xid);
END
$fn$;

DO $do$
BEGIN
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  PERFORM "transaction_buckets_rebuild"(NULL);
END
$do$;
