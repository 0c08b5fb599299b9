-- Pre-aggregated time buckets of transactions, so that an aggregate's cost does not grow with its window
-- (read by lib/screening/aggregates.ts; see lib/screening/README.md, "Aggregates over time buckets").
--
-- A bucket: client, group dimension, group value, grain (1440, 60 or 1 minutes, aligned in UTC) and start,
-- with the count of transactions in it and the count, sum, min and max of "amount" and "baseAmount".
-- Dimensions: 1 "userId", 2 "merchantId", 3 "accountId", 4 "userDeviceId", 5 "cardFingerprint".
--
-- Every group has day buckets. A group's day becomes dense when it holds 48 transactions ("denseXid" set on its
-- day bucket, never unset): its hour buckets are built from its rows at that moment and kept from then on. An
-- hour of a dense day becomes dense at 60 transactions, and its minute buckets are kept the same way. A sparse
-- day (fewer than 48) or hour (fewer than 60) is read from its raw rows. So storage stays about one row per
-- group and active day, plus the hours of busy days and the minutes of busy hours.
--
-- The only writer is the statement triggers below, so every writer of "transactions" keeps the buckets
-- exact. Every change to a group's day takes its day bucket's row lock first, so the hour and minute
-- buckets of that day have one writer at a time. A removed value that may have been its bucket's minimum or
-- maximum makes the bucket's extremes unknown ("extremaStale"): min and max over such a bucket read the raw
-- rows. Counts and sums are always exact.
CREATE TABLE "transaction_buckets" (
  "clientId" TEXT NOT NULL,
  "dim" SMALLINT NOT NULL,
  "key" TEXT NOT NULL,
  "minutes" SMALLINT NOT NULL,
  "start" TIMESTAMPTZ(3) NOT NULL,
  "count" BIGINT NOT NULL,
  "amountSum" NUMERIC NOT NULL,
  "amountMin" NUMERIC,
  "amountMax" NUMERIC,
  "baseCount" BIGINT NOT NULL,
  "baseSum" NUMERIC NOT NULL,
  "baseMin" NUMERIC,
  "baseMax" NUMERIC,
  "extremaStale" BOOLEAN NOT NULL DEFAULT false,
  -- day and hour buckets: the transaction that made it dense (its hours, or minutes, are kept since)
  "denseXid" BIGINT,
  CONSTRAINT "transaction_buckets_pkey" PRIMARY KEY ("clientId", "dim", "key", "minutes", "start")
) WITH (fillfactor = 80);

-- A transaction row's part in the buckets: sign -1 for a row removed (or its old version), +1 for one added.
CREATE TYPE "transaction_bucket_change" AS (
  "clientId" TEXT,
  "userId" TEXT,
  "merchantId" TEXT,
  "accountId" TEXT,
  "userDeviceId" TEXT,
  "cardFingerprint" TEXT,
  "occurredAt" TIMESTAMPTZ,
  "amount" NUMERIC,
  "baseAmount" NUMERIC,
  "sign" INT
);

-- The net change of one bucket (see transaction_bucket_net).
CREATE TYPE "transaction_bucket_net_row" AS (
  "clientId" TEXT,
  "dim" SMALLINT,
  "key" TEXT,
  "minutes" SMALLINT,
  "start" TIMESTAMPTZ,
  "count" BIGINT,
  "amountSum" NUMERIC,
  "amountMin" NUMERIC,
  "amountMax" NUMERIC,
  "baseCount" BIGINT,
  "baseSum" NUMERIC,
  "baseMin" NUMERIC,
  "baseMax" NUMERIC,
  "stale" BOOLEAN
);

-- A dense day (minutes 1440) or hour (60), and the transaction that made it so.
CREATE TYPE "transaction_bucket_period" AS (
  "clientId" TEXT,
  "dim" SMALLINT,
  "key" TEXT,
  "minutes" SMALLINT,
  "start" TIMESTAMPTZ,
  "denseXid" BIGINT
);

-- The net change per bucket of every grain: count and sums, the extremes added (as min and max), and whether
-- a removed extreme (with no equal or more extreme value added) makes the bucket's extremes unknown. Read
-- fresh: a concurrent writer's add only moves an extreme outwards, and its removal marks the bucket itself.
-- A row updated without a change of its groups, time or amounts nets to nothing.
-- (PL/pgSQL, so that its plan is kept per session: a SQL function's body would be planned on every call)
CREATE FUNCTION "transaction_bucket_net"(changes "transaction_bucket_change"[], grains SMALLINT[])
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
  ) b ON true
  WHERE NOT (d."count" = 0 AND d."amountSum" = 0 AND d."baseCount" = 0 AND d."baseSum" = 0
    AND d."addedAmountMin" IS NOT DISTINCT FROM d."removedAmountMin"
    AND d."addedAmountMax" IS NOT DISTINCT FROM d."removedAmountMax"
    AND d."addedBaseMin" IS NOT DISTINCT FROM d."removedBaseMin"
    AND d."addedBaseMax" IS NOT DISTINCT FROM d."removedBaseMax");
END
$fn$;

-- The finer buckets of dense periods (a day: its hours, and the minutes of its dense hours; an hour: its
-- minutes), built from their raw rows, replacing what is there. `mark` is the "denseXid" of an hour found dense.
CREATE FUNCTION "transaction_buckets_build"(periods "transaction_bucket_period"[], mark BIGINT) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  hours "transaction_bucket_period"[];
BEGIN
  IF cardinality(periods) = 0 THEN
    RETURN;
  END IF;
  DELETE FROM "transaction_buckets" b USING unnest(periods) p
  WHERE b."clientId" = p."clientId" AND b."dim" = p."dim" AND b."key" = p."key" AND b."minutes" < p."minutes"
    AND b."start" >= p."start" AND b."start" < p."start" + p."minutes" * interval '1 minute';
  WITH rows AS (
    SELECT p."clientId", p."dim", p."key", p."minutes" AS "of", t."occurredAt", t."amount", t."baseAmount"
    FROM unnest(periods) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + p."minutes" * interval '1 minute'
      AND p."dim" = 1 AND t."userId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."minutes", t."occurredAt", t."amount", t."baseAmount"
    FROM unnest(periods) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + p."minutes" * interval '1 minute'
      AND p."dim" = 2 AND t."merchantId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."minutes", t."occurredAt", t."amount", t."baseAmount"
    FROM unnest(periods) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + p."minutes" * interval '1 minute'
      AND p."dim" = 3 AND t."accountId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."minutes", t."occurredAt", t."amount", t."baseAmount"
    FROM unnest(periods) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + p."minutes" * interval '1 minute'
      AND p."dim" = 4 AND t."userDeviceId" = p."key"
    UNION ALL
    SELECT p."clientId", p."dim", p."key", p."minutes", t."occurredAt", t."amount", t."baseAmount"
    FROM unnest(periods) p
    JOIN "transactions" t ON t."clientId" = p."clientId" AND t."occurredAt" >= p."start"
      AND t."occurredAt" < p."start" + p."minutes" * interval '1 minute'
      AND p."dim" = 5 AND t."cardFingerprint" = p."key"
  ), built AS (
    INSERT INTO "transaction_buckets" ("clientId", "dim", "key", "minutes", "start", "count", "amountSum",
      "amountMin", "amountMax", "baseCount", "baseSum", "baseMin", "baseMax", "denseXid")
    SELECT r."clientId", r."dim", r."key", CASE WHEN r."of" = 1440 THEN 60 ELSE 1 END,
      date_trunc(CASE WHEN r."of" = 1440 THEN 'hour' ELSE 'minute' END, r."occurredAt", 'UTC'), count(*),
      sum(r."amount"), min(r."amount"), max(r."amount"), count(r."baseAmount"), coalesce(sum(r."baseAmount"), 0),
      min(r."baseAmount"), max(r."baseAmount"), CASE WHEN min(r."of") = 1440 AND count(*) >= 60 THEN mark END
    FROM rows r
    GROUP BY 1, 2, 3, 4, 5
    RETURNING "clientId", "dim", "key", "minutes", "start", "denseXid"
  )
  SELECT coalesce(array_agg(ROW(h."clientId", h."dim", h."key", h."minutes", h."start", h."denseXid")::"transaction_bucket_period"), '{}')
  INTO hours FROM built h WHERE h."denseXid" IS NOT NULL;
  PERFORM "transaction_buckets_build"(hours, mark);
END
$fn$;

-- Applies changes, coarse to fine: day buckets first (in key order, so concurrent writers lock them in one
-- order; a day reaching 48 transactions becomes dense), then the hour buckets of the days that were dense
-- already (an hour reaching 60 becomes dense), then the minute buckets of the hours that were dense already;
-- last, the days and hours that became dense in this transaction get their finer buckets from their raw rows
-- (which include this change; a writer of the same day waits for this one at the day bucket, then adds its own).
CREATE FUNCTION "transaction_buckets_change"(changes "transaction_bucket_change"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  xid BIGINT := txid_current();
  nets "transaction_bucket_net_row"[];
  days "transaction_bucket_period"[];
  hours "transaction_bucket_period"[];
BEGIN
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

CREATE FUNCTION "transaction_buckets_inserted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM "transaction_buckets_change"(ARRAY(
    SELECT ROW(n."clientId", n."userId", n."merchantId", n."accountId", n."userDeviceId", n."cardFingerprint",
      n."occurredAt", n."amount", n."baseAmount", 1)::"transaction_bucket_change" FROM new_rows n));
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_buckets_updated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM "transaction_buckets_change"(ARRAY(
    SELECT ROW(o."clientId", o."userId", o."merchantId", o."accountId", o."userDeviceId", o."cardFingerprint",
      o."occurredAt", o."amount", o."baseAmount", -1)::"transaction_bucket_change" FROM old_rows o
    UNION ALL
    SELECT ROW(n."clientId", n."userId", n."merchantId", n."accountId", n."userDeviceId", n."cardFingerprint",
      n."occurredAt", n."amount", n."baseAmount", 1)::"transaction_bucket_change" FROM new_rows n));
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_buckets_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM "transaction_buckets_change"(ARRAY(
    SELECT ROW(o."clientId", o."userId", o."merchantId", o."accountId", o."userDeviceId", o."cardFingerprint",
      o."occurredAt", o."amount", o."baseAmount", -1)::"transaction_bucket_change" FROM old_rows o));
  RETURN NULL;
END
$fn$;

CREATE FUNCTION "transaction_buckets_truncated"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE "transaction_buckets";
  RETURN NULL;
END
$fn$;

-- The buckets of one client (or of every client: NULL), rebuilt from its transactions: used below and after a
-- bulk load with the triggers disabled (bench/screening.ts). Writers must be kept out meanwhile.
CREATE FUNCTION "transaction_buckets_rebuild"(client TEXT) RETURNS void LANGUAGE sql AS $fn$
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
  GROUP BY 1, 2, 3, 4, 5;
  SELECT "transaction_buckets_build"(ARRAY(
    SELECT ROW(b."clientId", b."dim", b."key", b."minutes", b."start", b."denseXid")::"transaction_bucket_period"
    FROM "transaction_buckets" b
    WHERE b."minutes" = 1440 AND b."denseXid" IS NOT NULL AND (client IS NULL OR b."clientId" = client)), 0);
$fn$;

-- Triggers and the first build in one statement: the lock taken first keeps writers out until both are
-- in place, so no row is missed or counted twice (a writer of the previous release waits, then is counted
-- by the trigger). On a large history this holds writes for the build's duration; see docs/operations.md.
DO $do$
BEGIN
  LOCK TABLE "transactions" IN SHARE ROW EXCLUSIVE MODE;
  CREATE TRIGGER "transaction_buckets_inserted" AFTER INSERT ON "transactions"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_inserted"();
  CREATE TRIGGER "transaction_buckets_updated" AFTER UPDATE ON "transactions"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_updated"();
  CREATE TRIGGER "transaction_buckets_deleted" AFTER DELETE ON "transactions"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_deleted"();
  CREATE TRIGGER "transaction_buckets_truncated" AFTER TRUNCATE ON "transactions"
    FOR EACH STATEMENT EXECUTE FUNCTION "transaction_buckets_truncated"();
  PERFORM "transaction_buckets_rebuild"(NULL);
END
$do$;
