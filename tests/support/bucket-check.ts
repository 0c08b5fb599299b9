// The transaction buckets against plain SQL over the raw rows: the number of buckets that disagree. A bucket
// must hold its rows' count and sums (an emptied one: zero), and their extremes unless marked stale; every
// day with 4 rows or more has its bucket (a quieter day may have one, if it had 4 once), every hour with rows of a
// dense day too, and every minute of a dense hour.
export const BUCKET_MISMATCHES_SQL = `
  WITH raw AS (
    SELECT t."clientId", k."dim", k."key", g."minutes", g."start", count(*) AS "count",
      sum(t."amount") AS "amountSum", min(t."amount") AS "amountMin", max(t."amount") AS "amountMax",
      count(t."baseAmount") AS "baseCount", coalesce(sum(t."baseAmount"), 0) AS "baseSum",
      min(t."baseAmount") AS "baseMin", max(t."baseAmount") AS "baseMax"
    FROM "transactions" t
    CROSS JOIN LATERAL (VALUES (1::smallint, t."userId"), (2::smallint, t."merchantId"), (3::smallint, t."accountId"),
      (4::smallint, t."userDeviceId"), (5::smallint, t."cardFingerprint")) AS k("dim", "key")
    CROSS JOIN LATERAL (VALUES (1440::smallint, date_trunc('day', t."occurredAt", 'UTC')),
      (60::smallint, date_trunc('hour', t."occurredAt", 'UTC')),
      (1::smallint, date_trunc('minute', t."occurredAt", 'UTC'))) AS g("minutes", "start")
    WHERE k."key" IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5
  )
  SELECT count(*)::int AS "mismatches"
  FROM "transaction_buckets" b
  FULL JOIN raw r ON r."clientId" = b."clientId" AND r."dim" = b."dim" AND r."key" = b."key"
    AND r."minutes" = b."minutes" AND r."start" = b."start"
  WHERE CASE
    WHEN b."clientId" IS NULL THEN (r."minutes" = 1440 AND r."count" >= 4) OR EXISTS (
      SELECT 1 FROM "transaction_buckets" p WHERE p."clientId" = r."clientId" AND p."dim" = r."dim"
        AND p."key" = r."key" AND p."denseXid" IS NOT NULL
        AND p."minutes" = CASE WHEN r."minutes" = 60 THEN 1440 ELSE 60 END
        AND p."start" = date_trunc(CASE WHEN r."minutes" = 60 THEN 'day' ELSE 'hour' END, r."start", 'UTC'))
    ELSE b."count" <> coalesce(r."count", 0) OR b."amountSum" <> coalesce(r."amountSum", 0)
      OR b."baseCount" <> coalesce(r."baseCount", 0) OR b."baseSum" <> coalesce(r."baseSum", 0)
      OR (NOT b."extremaStale" AND (b."amountMin" IS DISTINCT FROM r."amountMin"
        OR b."amountMax" IS DISTINCT FROM r."amountMax" OR b."baseMin" IS DISTINCT FROM r."baseMin"
        OR b."baseMax" IS DISTINCT FROM r."baseMax"))
  END`;

// The distinct values per day (transaction_distinct_values) against a recount of the raw rows of the marked days
// (transaction_distinct_days): the number of rows that disagree, are missing or should not be there (a spec
// counts the rows at or after its "since"; a day without a mark keeps no values).
export const DISTINCT_MISMATCHES_SQL = `
  WITH raw AS (
    SELECT t."clientId", sp."dim", x."key", sp."field", date_trunc('day', t."occurredAt", 'UTC') AS "day", x."value",
      count(*)::int AS "n"
    FROM "transaction_distinct_specs" sp
    JOIN "transactions" t ON t."clientId" = sp."clientId" AND t."occurredAt" >= sp."since"
    CROSS JOIN LATERAL (SELECT
      CASE sp."dim" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "key",
      CASE sp."field" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
        WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END AS "value") x
    JOIN "transaction_distinct_days" m ON m."clientId" = t."clientId" AND m."dim" = sp."dim" AND m."key" = x."key"
      AND m."day" = date_trunc('day', t."occurredAt", 'UTC')
    WHERE x."value" IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6
  )
  SELECT count(*)::int AS "mismatches"
  FROM "transaction_distinct_values" d
  FULL JOIN raw r ON r."clientId" = d."clientId" AND r."dim" = d."dim" AND r."key" = d."key"
    AND r."field" = d."field" AND r."day" = d."day" AND r."value" = d."value"
  WHERE d."n" IS DISTINCT FROM r."n"`;
