-- transaction_window_totals reads a ragged part of a bucket as the bucket less the rest of it, when the rest is
-- shorter in the past than the part. A screening's window ends at the present: its last ragged day is its day
-- bucket less the rows after the window's end (next to none), whatever the day holds, instead of the day's
-- rows so far (or, on a busy group, its hours' buckets and the current hour's rows). A window's start is read
-- from the shorter side of its bucket: about a quarter of a unit of rows on average instead of a half.
--
-- The cut, for the window's rows [lo, hi) (the window (from, to], whose bounds are exclusive and inclusive at
-- millisecond precision):
--   * whole days from day buckets; each ragged day part [a, b) of day [B0, B1): read as it is, or as the day
--     bucket with [B0, a) and [b, B1) taken out, whichever side holds less time before the present;
--   * each range so kept, on a dense day: whole hours from hour buckets and its ragged hour parts, each read as
--     it is or as its hour bucket less the rest, the same way; on a sparse day, its raw rows;
--   * each hour range so kept, on a dense hour: whole minutes from minute buckets, its ragged minute parts as they
--     are or as their minute bucket less the rest; on a sparse hour, its raw rows;
--   * a range with less than a minute before the present (the rest of the present's bucket) is read from its raw
--     rows at once: it holds no whole minute of the past.
-- Min and max (p_extremes) never take rows out: their parts are always read as they are.
--
-- Out, as before: "n" rows; "v" rows with a value of the field ("amount", or "baseAmount" when p_base); "s"
-- their sum (NULL when nothing was read); "mn", "mx" their extremes (only when p_extremes), unknown when "stale"
-- (a removed extreme, see the buckets migration). A NULL key is in no group: zero rows.
CREATE OR REPLACE FUNCTION "transaction_window_totals"(
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
  present TIMESTAMPTZ := now();
  d1 TIMESTAMPTZ;
  d2 TIMESTAMPTZ;
  -- ragged parts of one grain (pa, pb, ps: [a, b) with its sign), then the ranges kept at that grain (ka, kb, ks)
  pa TIMESTAMPTZ[] := '{}';
  pb TIMESTAMPTZ[] := '{}';
  ps INT[] := '{}';
  ka TIMESTAMPTZ[];
  kb TIMESTAMPTZ[];
  ks INT[];
  dense TIMESTAMPTZ[];
  starts TIMESTAMPTZ[];
  -- what is read: buckets of grain bm starting in [ba, bb) with sign bs, raw rows in [ra, rb) with sign rg
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
  IF d1 > d2 THEN
    pa := ARRAY[lo];
    pb := ARRAY[hi];
    ps := ARRAY[1];
  ELSE
    IF d1 < d2 THEN
      bm := ARRAY[1440::SMALLINT];
      ba := ARRAY[d1];
      bb := ARRAY[d2];
      bs := ARRAY[1];
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
  -- rest); the kept ranges on dense buckets become whole buckets and ragged parts of the next grain
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
      -- time before the present: of the part, and of the rest of its bucket
      IF NOT p_extremes
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
    -- the kept ranges' buckets that are dense: one primary-key lookup per bucket (with `start = ANY (…)` the
    -- generic plan filters every bucket of the group)
    starts := '{}';
    FOR i IN 1 .. cardinality(ka) LOOP
      IF least(kb[i], present) - ka[i] >= interval '1 minute' THEN
        starts := starts || date_trunc(CASE level WHEN 1 THEN 'day' ELSE 'hour' END, ka[i], 'UTC');
      END IF;
    END LOOP;
    dense := '{}';
    IF cardinality(starts) > 0 THEN
      SELECT coalesce(array_agg(bk."start"), '{}') INTO dense
        FROM (SELECT DISTINCT h."start" FROM unnest(starts) AS h("start")) h CROSS JOIN LATERAL (
          SELECT b0."start" FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
             AND b0."key" = p_key AND b0."minutes" = grain_minutes AND b0."start" = h."start" AND b0."denseXid" IS NOT NULL
          OFFSET 0) bk;
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
      INTO n, v, s, mn, mx, stale
      FROM unnest(bm, ba, bb, bs) AS r("m", "a", "b", "sign") CROSS JOIN LATERAL (
        SELECT * FROM "transaction_buckets" b0 WHERE b0."clientId" = p_client AND b0."dim" = p_dim
           AND b0."key" = p_key AND b0."minutes" = r."m" AND b0."start" >= r."a" AND b0."start" < r."b"
        OFFSET 0) bk;
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
