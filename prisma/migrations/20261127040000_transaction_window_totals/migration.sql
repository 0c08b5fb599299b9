-- The totals of one group's transactions in a window (from, to], read from transaction_buckets: the whole days
-- from day buckets; on each ragged day, hour buckets if the group's day is dense, else its raw rows; on each
-- ragged hour of a dense day, minute buckets if the hour is dense, else its raw rows; the raw rows of the ragged
-- minutes. One call per aggregate (lib/screening/aggregates.ts): it runs at most four small statements, whose
-- plans PL/pgSQL keeps per connection, instead of every part of the window being a branch of the screening's
-- read statement (whose executor start-up then cost about 1 ms per aggregate, whether a part was read or not).
--
-- The window's last ragged minute, on a dense hour, is read as its minute bucket less the rows after `to` (the
-- present, at screening time: next to none), not as its rows, which on a busy group are thousands: unless
-- p_extremes (min or max wanted, which a difference cannot give).
--
-- Out: "n" rows; "v" rows with a value of the field ("amount", or "baseAmount" when p_base); "s" their sum
-- (NULL when nothing was read); "mn", "mx" their extremes, unknown when "stale" (a removed extreme, see the buckets
-- migration). A NULL key is in no group: zero rows.
CREATE FUNCTION "transaction_window_totals"(
  p_client TEXT, p_dim SMALLINT, p_key TEXT, p_base BOOLEAN, p_extremes BOOLEAN, p_from TIMESTAMPTZ,
  p_to TIMESTAMPTZ, OUT "n" BIGINT, OUT "v" BIGINT, OUT "s" NUMERIC, OUT "mn" NUMERIC, OUT "mx" NUMERIC, OUT "stale" BOOLEAN)
-- STABLE matters: its statements run on the calling statement's snapshot, so the buckets and the raw rows it
-- reads (and subtracts) agree; VOLATILE, each would take its own. Its statements keep their generic plans: a
-- plan made for each call's values prunes the month partitions of "transactions" at planning time, so it
-- looks cheaper and PostgreSQL would plan every statement on every call (about 1 ms a call).
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
  lo TIMESTAMPTZ := p_from + interval '1 millisecond';
  hi TIMESTAMPTZ := p_to + interval '1 millisecond';
  d1 TIMESTAMPTZ;
  d2 TIMESTAMPTZ;
  -- the ragged days' parts, then the ragged hours' parts of dense days: [a, b) pairs
  days TIMESTAMPTZ[] := '{}';
  hours TIMESTAMPTZ[] := '{}';
  dense TIMESTAMPTZ[];
  starts TIMESTAMPTZ[];
  -- what is read: buckets of grain bm starting in [ba, bb), raw rows in [ra, rb)
  bm SMALLINT[] := '{}';
  ba TIMESTAMPTZ[] := '{}';
  bb TIMESTAMPTZ[] := '{}';
  ra TIMESTAMPTZ[] := '{}';
  rb TIMESTAMPTZ[] := '{}';
  -- raw rows taken out: those after the window's end in its last minute's bucket
  sa TIMESTAMPTZ[] := '{}';
  sb TIMESTAMPTZ[] := '{}';
  sg INT[];
  a TIMESTAMPTZ;
  b TIMESTAMPTZ;
  c1 TIMESTAMPTZ;
  c2 TIMESTAMPTZ;
  rn BIGINT;
  rv BIGINT;
  rs NUMERIC;
  rmn NUMERIC;
  rmx NUMERIC;
BEGIN
  n := 0;
  v := 0;
  stale := false;
  IF p_key IS NULL OR lo >= hi THEN
    RETURN;
  END IF;
  d1 := date_trunc('day', lo, 'UTC');
  IF d1 < lo THEN
    d1 := d1 + interval '24 hours';
  END IF;
  d2 := date_trunc('day', hi, 'UTC');
  IF d1 > d2 THEN
    days := ARRAY[lo, hi];
  ELSE
    IF d1 < d2 THEN
      bm := ARRAY[1440::SMALLINT];
      ba := ARRAY[d1];
      bb := ARRAY[d2];
    END IF;
    IF lo < d1 THEN
      days := days || ARRAY[lo, d1];
    END IF;
    IF d2 < hi THEN
      days := days || ARRAY[d2, hi];
    END IF;
  END IF;

  IF cardinality(days) > 0 THEN
    -- one primary-key lookup per day (with `start IN (…)` the generic plan filters every day of the group)
    SELECT coalesce(array_agg(bk."start"), '{}') INTO dense
      FROM unnest(ARRAY[date_trunc('day', days[1], 'UTC'), date_trunc('day', days[cardinality(days) - 1], 'UTC')])
        AS h("start") CROSS JOIN LATERAL (
        SELECT b0."start" FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
           AND b0."key" = p_key AND b0."minutes" = 1440 AND b0."start" = h."start" AND b0."denseXid" IS NOT NULL
        OFFSET 0) bk;
    FOR i IN 1 .. cardinality(days) BY 2 LOOP
      a := days[i];
      b := days[i + 1];
      IF date_trunc('day', a, 'UTC') = ANY (dense) THEN
        c1 := date_trunc('hour', a, 'UTC');
        IF c1 < a THEN
          c1 := c1 + interval '1 hour';
        END IF;
        c2 := date_trunc('hour', b, 'UTC');
        IF c1 > c2 THEN
          hours := hours || ARRAY[a, b];
        ELSE
          IF c1 < c2 THEN
            bm := bm || 60::SMALLINT;
            ba := ba || c1;
            bb := bb || c2;
          END IF;
          IF a < c1 THEN
            hours := hours || ARRAY[a, c1];
          END IF;
          IF c2 < b THEN
            hours := hours || ARRAY[c2, b];
          END IF;
        END IF;
      ELSE
        ra := ra || a;
        rb := rb || b;
      END IF;
    END LOOP;
  END IF;

  IF cardinality(hours) > 0 THEN
    starts := '{}';
    FOR i IN 1 .. cardinality(hours) BY 2 LOOP
      starts := starts || date_trunc('hour', hours[i], 'UTC');
    END LOOP;
    -- one primary-key lookup per hour (with `start = ANY (…)` the generic plan filters every hour of the group)
    SELECT coalesce(array_agg(bk."start"), '{}') INTO dense FROM unnest(starts) AS h("start") CROSS JOIN LATERAL (
      SELECT b0."start" FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
         AND b0."key" = p_key AND b0."minutes" = 60 AND b0."start" = h."start" AND b0."denseXid" IS NOT NULL
      OFFSET 0) bk;
    FOR i IN 1 .. cardinality(hours) BY 2 LOOP
      a := hours[i];
      b := hours[i + 1];
      c1 := date_trunc('minute', a, 'UTC');
      IF c1 < a THEN
        c1 := c1 + interval '1 minute';
      END IF;
      c2 := date_trunc('minute', b, 'UTC');
      IF date_trunc('hour', a, 'UTC') = ANY (dense) AND c1 < c2 THEN
        bm := bm || 1::SMALLINT;
        ba := ba || c1;
        bb := bb || c2;
        IF a < c1 THEN
          ra := ra || a;
          rb := rb || c1;
        END IF;
        IF c2 < b AND b = hi AND NOT p_extremes THEN
          bm := bm || 1::SMALLINT;
          ba := ba || c2;
          bb := bb || c2 + interval '1 minute';
          sa := sa || b;
          sb := sb || c2 + interval '1 minute';
        ELSIF c2 < b THEN
          ra := ra || c2;
          rb := rb || b;
        END IF;
      ELSE
        ra := ra || a;
        rb := rb || b;
      END IF;
    END LOOP;
  END IF;

  IF cardinality(bm) > 0 THEN
    SELECT coalesce(sum(bk."count"), 0),
           coalesce(sum(CASE WHEN p_base THEN bk."baseCount" ELSE bk."count" END), 0),
           sum(CASE WHEN p_base THEN bk."baseSum" ELSE bk."amountSum" END),
           min(CASE WHEN p_base THEN CASE WHEN bk."baseCount" <> 0 THEN bk."baseMin" END
                    ELSE CASE WHEN bk."count" <> 0 THEN bk."amountMin" END END),
           max(CASE WHEN p_base THEN CASE WHEN bk."baseCount" <> 0 THEN bk."baseMax" END
                    ELSE CASE WHEN bk."count" <> 0 THEN bk."amountMax" END END),
           coalesce(bool_or(bk."extremaStale" AND CASE WHEN p_base THEN bk."baseCount" ELSE bk."count" END <> 0), false)
      INTO n, v, s, mn, mx, stale
      FROM unnest(bm, ba, bb) AS r("m", "a", "b") CROSS JOIN LATERAL (
        SELECT * FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
           AND b0."key" = p_key AND b0."minutes" = r."m" AND b0."start" >= r."a" AND b0."start" < r."b"
        OFFSET 0) bk;
  END IF;

  IF cardinality(ra) + cardinality(sa) > 0 THEN
    sg := array_fill(1, ARRAY[cardinality(ra)]) || array_fill(-1, ARRAY[cardinality(sa)]);
    ra := ra || sa;
    rb := rb || sb;
    -- one static statement per group column, so that each keeps its plan on that column's index; OFFSET 0
    -- keeps each range its own index scan (a join would read the group's whole history, then filter it)
    IF p_dim = 1 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, sg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 2 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, sg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."merchantId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 3 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, sg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."accountId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSIF p_dim = 4 THEN
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, sg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT CASE WHEN p_base THEN t."baseAmount" ELSE t."amount" END AS "val" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userDeviceId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b"
           OFFSET 0) x;
    ELSE
      SELECT coalesce(sum(r."sign"), 0), coalesce(sum(r."sign") FILTER (WHERE x."val" IS NOT NULL), 0),
             sum(r."sign" * x."val"), min(x."val") FILTER (WHERE r."sign" > 0), max(x."val") FILTER (WHERE r."sign" > 0)
        INTO rn, rv, rs, rmn, rmx
        FROM unnest(ra, rb, sg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
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
