-- transaction_window_totals counts the raw rows of a count-only call from the group's index alone.
--
-- Why: a count aggregate (rows per merchant over 30 d, per card over 24 h, per user over 1 h) read the amount
-- of every raw row of its window's ragged parts and quiet days, so each row cost its heap page. At 10,000,000
-- stored transactions those pages are rarely in shared buffers: the oldest ragged part of a merchant's 30-day
-- count alone read about 9 heap pages per screening from outside them (bench/profile-statements.ts,
-- docs/benchmarks.md, "Counts from the index"). The count needs no column outside the group's index
-- ("clientId", <group>, "occurredAt"), so PostgreSQL counts those rows by an index-only scan, reading a heap page
-- only for rows on pages not yet marked all-visible (the newest ones, until VACUUM).
--
-- The signature is unchanged, so the previous release calls the function as before: p_base NULL (which it never
-- passes) asks for the count only. Then "v" is the count, "s" stays what the buckets give, and p_extremes must be
-- false. Everything else is 20261128130000's function.

CREATE OR REPLACE FUNCTION "transaction_window_totals"(
  p_client TEXT, p_dim SMALLINT, p_key TEXT, p_base BOOLEAN, p_extremes BOOLEAN, p_from TIMESTAMPTZ,
  p_to TIMESTAMPTZ, OUT "n" BIGINT, OUT "v" BIGINT, OUT "s" NUMERIC, OUT "mn" NUMERIC, OUT "mx" NUMERIC, OUT "stale" BOOLEAN)
-- STABLE: its statements run on the calling statement's snapshot, so the buckets and the raw rows it reads (and
-- subtracts) agree. Generic plans: see 20261127090000.
-- p_base: whether the totals are of "baseAmount" (true) or "amount" (false); NULL: the count only (n, and v = n)
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
  IF cardinality(ra) > 0 AND p_base IS NULL THEN
    -- only the count: each range counted from the group column's index alone (an index-only scan, no heap page
    -- read for a row on an all-visible page)
    IF p_dim = 1 THEN
      SELECT coalesce(sum(r."sign" * x."n"), 0) INTO rn
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT count(*) AS "n" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b") x;
    ELSIF p_dim = 2 THEN
      SELECT coalesce(sum(r."sign" * x."n"), 0) INTO rn
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT count(*) AS "n" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."merchantId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b") x;
    ELSIF p_dim = 3 THEN
      SELECT coalesce(sum(r."sign" * x."n"), 0) INTO rn
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT count(*) AS "n" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."accountId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b") x;
    ELSIF p_dim = 4 THEN
      SELECT coalesce(sum(r."sign" * x."n"), 0) INTO rn
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT count(*) AS "n" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."userDeviceId" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b") x;
    ELSE
      SELECT coalesce(sum(r."sign" * x."n"), 0) INTO rn
        FROM unnest(ra, rb, rg) AS r("a", "b", "sign") CROSS JOIN LATERAL (
          SELECT count(*) AS "n" FROM "transactions" t
           WHERE t."clientId" = p_client AND t."cardFingerprint" = p_key AND t."occurredAt" >= r."a" AND t."occurredAt" < r."b") x;
    END IF;
    n := n + rn;
    v := v + rn;
    RETURN;
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
