// Aggregates read from the time buckets (transaction_buckets, kept by triggers) against the plain SQL over
// the raw rows, for randomised histories: many rows in one minute, back-dated and future times, null groups
// and base amounts, multi-row inserts, updates of amount, time, group and status, deletes, resubmissions
// (the screened record as a virtual row), windows from seconds to 400 days ending on and off bucket bounds.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import type { TAggregateDefinition } from "@/lib/rules/schemas";
import { windowMs } from "@/lib/rules/schemas";
import { rawWindowReason, readsRawWindow } from "@/lib/rules/aggregate-cost";
import { aggregateKey, computeAggregates } from "@/lib/screening/aggregates";
import { createTestClient } from "@/tests/factories";
import { BUCKET_MISMATCHES_SQL } from "@/tests/support/bucket-check";
import { seededRandom } from "@/tests/support/seeded-random";

const SEED = Number(process.env.AGGREGATE_SEED ?? 20261127);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// a fixed instant on whole-day bounds makes bucket edges easy to hit; the history spreads around it
const NOW = Date.UTC(2026, 10, 20, 12, 0, 0, 0);

const random = seededRandom;

const DIMS = ["userId", "merchantId", "accountId", "userDeviceId", "card.cardFingerprint"] as const;
const COLUMN: Record<(typeof DIMS)[number], string> = {
  userId: "userId",
  merchantId: "merchantId",
  accountId: "accountId",
  userDeviceId: "userDeviceId",
  "card.cardFingerprint": "cardFingerprint",
};
const WINDOWS = ["59s", "1m", "37m", "1h", "90m", "24h", "25h", "7d", "30d", "400d"];
const FUNCTIONS: Array<Pick<TAggregateDefinition, "function" | "field">> = [
  { function: "count" },
  { function: "sum", field: "amount" },
  { function: "avg", field: "amount" },
  { function: "min", field: "amount" },
  { function: "max", field: "amount" },
  { function: "sum", field: "baseAmount" },
  { function: "avg", field: "baseAmount" },
  { function: "min", field: "baseAmount" },
  { function: "max", field: "baseAmount" },
];

type TRow = {
  id: string;
  userId: string | null;
  merchantId: string | null;
  accountId: string | null;
  userDeviceId: string | null;
  cardFingerprint: string | null;
  amount: string;
  baseAmount: string | null;
  occurredAt: string;
};

function makeRow(rnd: () => number, id: string, hotMinute: number): TRow {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const r = rnd();
  // a third in one busy minute, some exactly on bucket bounds, the rest over 45 days around NOW
  const at =
    r < 0.33
      ? hotMinute + Math.floor(rnd() * MINUTE)
      : r < 0.45
        ? Math.floor((NOW - rnd() * 10 * DAY) / HOUR) * HOUR + pick([0, 1, -1, MINUTE])
        : NOW - Math.floor(rnd() * 45 * DAY) + Math.floor(rnd() * 2 * DAY);
  const amount = pick([0, 0.01, 5, 9999.99, 1234.5, Math.round(rnd() * 100_000) / 100]);
  return {
    id,
    userId: pick(["u1", "u2", "u3", null]),
    merchantId: pick(["m1", "m2", null]),
    accountId: pick(["a1", "a2", "a3"]),
    userDeviceId: pick(["d1", "d2", null, null]),
    cardFingerprint: pick(["f1", "f2", "f3", null]),
    amount: amount.toFixed(2),
    baseAmount: rnd() < 0.2 ? null : (amount * pick([1, 0.5, 1.1])).toFixed(8),
    occurredAt: new Date(at).toISOString(),
  };
}

async function insertRows(clientId: string, rows: TRow[]) {
  await prisma.$executeRawUnsafe(
    `INSERT INTO "transactions" ("clientId", "id", "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint",
       "status", "currencyCode", "amount", "baseAmount", "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
     SELECT $1, r."id", r."userId", r."merchantId", r."accountId", r."userDeviceId", r."cardFingerprint", 'PENDING', 'EUR',
       r."amount"::numeric, r."baseAmount"::numeric, r."occurredAt"::timestamptz, jsonb_build_object('id', r."id"), 'h', 'low', 'ALLOW', now()
     FROM jsonb_to_recordset($2::jsonb) AS r("id" text, "userId" text, "merchantId" text, "accountId" text, "userDeviceId" text,
       "cardFingerprint" text, "amount" text, "baseAmount" text, "occurredAt" text)`,
    clientId,
    JSON.stringify(rows),
  );
}

/** The reference: the aggregate as plain SQL over the raw rows (minus the screened id, plus the virtual row). */
async function reference(
  clientId: string,
  spec: TAggregateDefinition,
  groupValue: string,
  timestamp: number,
  screened?: TRow,
): Promise<number | null> {
  const column = COLUMN[spec.groupBy as (typeof DIMS)[number]];
  const fn =
    spec.function === "count"
      ? "count(*)"
      : spec.function === "sum"
        ? `coalesce(sum(t."${spec.field}"), 0)`
        : `${spec.function}(t."${spec.field}")`;
  const rows = await prisma.$queryRawUnsafe<Array<{ v: number | null }>>(
    `SELECT (${fn})::float8 AS v FROM (
       SELECT "id", "${column}" AS g, "amount", "baseAmount", "occurredAt" FROM "transactions" WHERE "clientId" = $1 AND "id" <> $5
       UNION ALL SELECT r."id", r."${column}", r."amount"::numeric, r."baseAmount"::numeric, r."occurredAt"::timestamptz
       FROM jsonb_to_recordset($6::jsonb) AS r("id" text, "${column}" text, "amount" text, "baseAmount" text, "occurredAt" text)
     ) t WHERE t.g = $2 AND t."occurredAt" > $3::timestamptz AND t."occurredAt" <= $4::timestamptz`,
    clientId,
    groupValue,
    new Date(timestamp - windowMs(spec.window)).toISOString(),
    new Date(timestamp).toISOString(),
    screened?.id ?? "",
    JSON.stringify(screened ? [screened] : []),
  );
  return rows[0]!.v;
}

function close(actual: number | null, expected: number | null): boolean {
  if (actual === null || expected === null) return actual === expected;
  return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
}

async function compareMany(
  clientId: string,
  rnd: () => number,
  rows: TRow[],
  checks: number,
  label: string,
  /** one group and window ends inside a given hour (its dense hour's minutes and ragged minutes) */
  focus?: { dim: (typeof DIMS)[number]; group: string; hour: number },
): Promise<number> {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  let compared = 0;
  for (let k = 0; k < checks; k++) {
    const dim = focus?.dim ?? pick([...DIMS]);
    const column = COLUMN[dim];
    const window = pick(WINDOWS);
    const r = rnd();
    const inFocus = focus && focus.hour + Math.floor(rnd() * HOUR);
    const timestamp = inFocus
      ? // the window's end, or (as long a window later) its start, in the hour
        inFocus + (rnd() < 0.5 ? 0 : windowMs(window))
      : r < 0.3
        ? NOW
        : r < 0.5
          ? new Date(pick(rows).occurredAt).getTime() + pick([0, 1, -1])
          : r < 0.65
            ? Math.floor((NOW - rnd() * 20 * DAY) / DAY) * DAY + pick([0, 1, -1, HOUR, MINUTE])
            : NOW - Math.floor(rnd() * 40 * DAY);
    // a resubmission of a stored id with other values, or a new record, or none
    const s = rnd();
    const screened =
      s < 0.25
        ? { ...makeRow(rnd, pick(rows).id, NOW - 5 * MINUTE), occurredAt: new Date(timestamp).toISOString() }
        : s < 0.4
          ? { ...makeRow(rnd, `new-${k}`, NOW), occurredAt: new Date(timestamp).toISOString() }
          : undefined;
    const groupValue =
      focus?.group ??
      (screened?.[column as keyof TRow] as string | null | undefined) ??
      pick(["u1", "u2", "m1", "m2", "m-single", "a1", "a2", "d1", "d2", "f1", "f2", "f3"]);
    // the screened record's own value is its group
    if (screened) Object.assign(screened, { [column]: groupValue });
    const specs = FUNCTIONS.map(
      (f) => ({ ...f, over: "transaction", groupBy: dim, window }) as TAggregateDefinition,
    );
    const values = await computeAggregates(prisma, {
      clientId,
      subject: screened ? "transaction" : "user",
      subjectId: screened?.id ?? groupValue,
      timestamp,
      variables: screened ? {} : { user: { [dim]: groupValue, card: { cardFingerprint: groupValue } } },
      aggregates: specs.map((spec) => ({ spec })),
      screened: screened
        ? {
            over: "transaction",
            row: { ...screened, clientId, status: "PENDING", currencyCode: "EUR", data: { id: screened.id } },
          }
        : undefined,
    });
    for (const spec of specs) {
      const expected = await reference(clientId, spec, groupValue, timestamp, screened);
      const got = values.get(aggregateKey(spec));
      const actual = got && "value" in got ? got.value : undefined;
      const ok = actual !== undefined && close(actual, expected);
      if (!ok) {
        throw new Error(
          `${label}: ${spec.function}(${spec.field ?? ""}) by ${dim}=${groupValue} over ${window} to ${new Date(timestamp).toISOString()}` +
            `${screened ? ` screened ${JSON.stringify(screened)}` : ""}: buckets ${JSON.stringify(got)}, raw ${expected} (seed ${SEED})`,
        );
      }
      compared++;
    }
  }
  return compared;
}

/**
 * Every bucket holds what its rows hold; every group's day has its bucket; a dense day's hours, and a dense
 * hour's minutes, add up to it. With the counts of dense days and of dense and sparse hours.
 */
async function bucketChecks(clientId: string) {
  const checks = await prisma.$queryRawUnsafe<
    Array<{
      wrong: bigint;
      missingDays: bigint;
      incomplete: bigint;
      dense: bigint;
      denseHours: bigint;
      sparseHours: bigint;
    }>
  >(
    `WITH b AS (SELECT * FROM "transaction_buckets" WHERE "clientId" = $1),
       raw AS (
         SELECT b."dim", b."key", b."minutes", b."start", b."count", b."amountSum", b."baseCount", b."baseSum",
           (SELECT ROW(count(*), coalesce(sum(t."amount"), 0), count(t."baseAmount"), coalesce(sum(t."baseAmount"), 0))
            FROM "transactions" t WHERE t."clientId" = $1
              AND CASE b."dim" WHEN 1 THEN t."userId" WHEN 2 THEN t."merchantId" WHEN 3 THEN t."accountId"
                WHEN 4 THEN t."userDeviceId" ELSE t."cardFingerprint" END = b."key"
              AND t."occurredAt" >= b."start" AND t."occurredAt" < b."start" + b."minutes" * interval '1 minute') AS r
         FROM b),
       -- the busy days (4 rows or more): each must have its bucket
       days AS (
         SELECT k."dim", k."key", date_trunc('day', t."occurredAt", 'UTC') AS "start" FROM "transactions" t
         CROSS JOIN LATERAL (VALUES (1::smallint, t."userId"), (2::smallint, t."merchantId"), (3::smallint, t."accountId"),
           (4::smallint, t."userDeviceId"), (5::smallint, t."cardFingerprint")) AS k("dim", "key")
         WHERE t."clientId" = $1 AND k."key" IS NOT NULL
         GROUP BY 1, 2, 3 HAVING count(*) >= 4)
       SELECT
         (SELECT count(*) FROM raw WHERE r IS DISTINCT FROM ROW("count", "amountSum", "baseCount", "baseSum")) AS wrong,
         (SELECT count(*) FROM days d WHERE NOT EXISTS (SELECT 1 FROM b WHERE b."minutes" = 1440 AND b."dim" = d."dim"
            AND b."key" = d."key" AND b."start" = d."start")) AS "missingDays",
         (SELECT count(*) FROM b d WHERE d."minutes" IN (1440, 60) AND d."denseXid" IS NOT NULL
            AND d."count" <> (SELECT coalesce(sum(h."count"), 0) FROM b h WHERE h."minutes" = CASE d."minutes" WHEN 1440 THEN 60 ELSE 1 END
              AND h."dim" = d."dim" AND h."key" = d."key"
              AND h."start" >= d."start" AND h."start" < d."start" + d."minutes" * interval '1 minute')) AS incomplete,
         (SELECT count(*) FROM b WHERE "minutes" = 1440 AND "denseXid" IS NOT NULL) AS dense,
         (SELECT count(*) FROM b WHERE "minutes" = 60 AND "denseXid" IS NOT NULL) AS "denseHours",
         (SELECT count(*) FROM b WHERE "minutes" = 60 AND "denseXid" IS NULL) AS "sparseHours"`,
    clientId,
  );
  return checks;
}

/** One merchant's rows at the given times, the i-th with id `<prefix><i>` and amount i + 1. */
async function insertMerchantRows(clientId: string, merchantId: string, prefix: string, times: number[]) {
  await insertRows(
    clientId,
    times.map((t, i) => ({
      id: `${prefix}${i}`,
      userId: null,
      merchantId,
      accountId: null,
      userDeviceId: null,
      cardFingerprint: null,
      amount: String(i + 1),
      baseAmount: null,
      occurredAt: new Date(t).toISOString(),
    })),
  );
}

/**
 * transaction_window_totals of one merchant over (from, to] as [count, sum] (and [min, max] with extremes), beside
 * the same from the amounts of the rows in it.
 */
async function windowTotals(
  clientId: string,
  merchantId: string,
  extremes: boolean,
  from: number,
  to: number,
  inWindow: number[],
): Promise<{ answer: number[]; expected: number[] }> {
  const [got] = await prisma.$queryRawUnsafe<
    Array<{ n: bigint; s: string | null; mn: string | null; mx: string | null }>
  >(
    `SELECT "n", "s"::text, "mn"::text, "mx"::text FROM "transaction_window_totals"($1, 2::smallint,
       $2, false, $3, $4::timestamptz, $5::timestamptz)`,
    clientId,
    merchantId,
    extremes,
    new Date(from).toISOString(),
    new Date(to).toISOString(),
  );
  const answer = [Number(got!.n), got!.s === null ? 0 : Number(got!.s)];
  if (extremes) answer.push(Number(got!.mn ?? NaN), Number(got!.mx ?? NaN));
  const expected = [inWindow.length, inWindow.reduce((a, v) => a + v, 0)];
  if (!extremes) {
    // the count-only call (p_base NULL) of the same window: n, and v = n
    const [count] = await prisma.$queryRawUnsafe<Array<{ n: bigint; v: bigint }>>(
      `SELECT "n", "v" FROM "transaction_window_totals"($1, 2::smallint, $2, NULL, false, $3::timestamptz, $4::timestamptz)`,
      clientId,
      merchantId,
      new Date(from).toISOString(),
      new Date(to).toISOString(),
    );
    answer.push(Number(count!.n), Number(count!.v));
    expected.push(inWindow.length, inWindow.length);
  }
  if (extremes)
    expected.push(
      inWindow.length ? Math.min(...inWindow) : NaN,
      inWindow.length ? Math.max(...inWindow) : NaN,
    );
  return { answer, expected };
}

describe("aggregates over time buckets", () => {
  it("reads (from, to] exactly at every grain: a row at `from` is out, a row at `to` in", async () => {
    const { clientId } = await createTestClient();
    // 70 rows 50 s apart in one hour (its day and the hour turn dense), 10 more over the day, 5 the day before
    const hour = Date.UTC(2026, 10, 20, 12);
    const times = [
      ...Array.from({ length: 70 }, (_, i) => hour + i * 50_000),
      ...Array.from({ length: 10 }, (_, i) => Date.UTC(2026, 10, 20) + i * 2 * HOUR + 7 * MINUTE),
      ...Array.from({ length: 5 }, (_, i) => Date.UTC(2026, 10, 19) + i * 3 * HOUR),
    ];
    await insertMerchantRows(clientId, "m-bounds", "b", times);
    const dense = await prisma.$queryRawUnsafe<Array<{ minutes: number; n: bigint }>>(
      `SELECT "minutes", count(*) AS n FROM "transaction_buckets" WHERE "clientId" = $1 AND "dim" = 2
          AND "denseXid" IS NOT NULL GROUP BY "minutes" ORDER BY "minutes"`,
      clientId,
    );
    expect(dense.map((d) => [d.minutes, Number(d.n)])).toEqual([
      [60, 1],
      [1440, 1],
    ]);
    // every window between two rows' times, each bound on a row, a millisecond either side, or a whole unit
    const bounds = [0, 1, 2, 33, 34, 69, 71, 75, 80, 84].flatMap((i) => [
      times[i]! - 1,
      times[i]!,
      times[i]! + 1,
    ]);
    bounds.push(hour, hour + HOUR, Date.UTC(2026, 10, 20), Date.UTC(2026, 10, 19), hour + 30 * MINUTE);
    let checked = 0;
    for (const from of bounds)
      for (const to of bounds) {
        if (from >= to) continue;
        const inside = times.map((t, i) => [t, i + 1] as const).filter(([t]) => t > from && t <= to);
        const values = inside.map(([, v]) => v);
        // with min and max wanted, and without (the last minute then its bucket less the rows after `to`)
        for (const extremes of [true, false]) {
          const { answer, expected } = await windowTotals(clientId, "m-bounds", extremes, from, to, values);
          expect(answer, `(${from}, ${to}], extremes ${extremes}`).toEqual(expected);
        }
        checked++;
      }
    expect(checked).toBeGreaterThan(400);
  });

  it("reads a window that ends at the present, its bucket less the rest, with rows after the end", async () => {
    const { clientId } = await createTestClient();
    // 150 rows over the last 30 minutes (a dense hour and day, whichever hour and day they fall in), 20 over the
    // last 26 hours, and rows after the present: a second, a minute, five minutes, two hours and two days on
    const present = Date.now();
    const times = [
      ...Array.from({ length: 150 }, (_, i) => present - 30 * MINUTE + i * 12_000),
      ...Array.from({ length: 20 }, (_, i) => present - 26 * HOUR + i * 77 * MINUTE),
      ...[1000, MINUTE, 5 * MINUTE, 2 * HOUR, 2 * DAY].map((d) => present + d),
    ];
    await insertMerchantRows(clientId, "m-present", "p", times);
    const ends = [
      present - 1000,
      present - MINUTE,
      present,
      present + 1,
      times[149]!,
      times[149]! - 1,
      times[100]!,
    ];
    const lengths = [59_000, MINUTE, 37 * MINUTE, HOUR, 90 * MINUTE, DAY, 7 * DAY];
    let checked = 0;
    for (const to of ends)
      for (const length of lengths) {
        const from = to - length;
        const values = times.flatMap((t, i) => (t > from && t <= to ? [i + 1] : []));
        for (const extremes of [true, false]) {
          const { answer, expected } = await windowTotals(clientId, "m-present", extremes, from, to, values);
          expect(answer, `(${from}, ${to}], present ${present}, extremes ${extremes}`).toEqual(expected);
          checked++;
        }
      }
    expect(checked).toBe(ends.length * lengths.length * 2);
  });

  it("keeps buckets of busy days only (4 rows or more) and reads the quiet days from their rows", async () => {
    const { clientId } = await createTestClient();
    const day0 = Date.UTC(2026, 10, 1);
    // 20 days: day d holds d % 6 rows (0 to 5), one of them a dense day of 50
    const times: number[] = [];
    for (let d = 0; d < 20; d++) {
      const rows = d === 13 ? 50 : d % 6;
      for (let i = 0; i < rows; i++) times.push(day0 + d * DAY + 3 * HOUR + i * 17 * MINUTE);
    }
    await insertMerchantRows(clientId, "m-quiet", "q", times);
    const dayBuckets = async () =>
      (
        await prisma.$queryRawUnsafe<Array<{ start: Date; count: bigint }>>(
          `SELECT "start", "count" FROM "transaction_buckets" WHERE "clientId" = $1 AND "key" = 'm-quiet'
             AND "dim" = 2 AND "minutes" = 1440 ORDER BY "start"`,
          clientId,
        )
      ).map((b) => [(b.start.getTime() - day0) / DAY, Number(b.count)]);
    // only the days with 4 or more rows have a bucket
    expect(await dayBuckets()).toEqual([
      [4, 4],
      [5, 5],
      [10, 4],
      [11, 5],
      [13, 50],
      [16, 4],
      [17, 5],
    ]);

    // windows over quiet and busy days, whole and ragged, with and without extremes
    const check = async () => {
      let checked = 0;
      for (const to of [day0 + 20 * DAY, day0 + 14 * DAY + 5 * HOUR, day0 + 5 * DAY + 3 * HOUR + 20 * MINUTE])
        for (const length of [HOUR, 5 * HOUR, DAY, 3 * DAY + 7 * HOUR, 7 * DAY, 30 * DAY]) {
          const from = to - length;
          const values = times.flatMap((t, i) => (t > from && t <= to ? [i + 1] : []));
          for (const extremes of [true, false]) {
            const { answer, expected } = await windowTotals(clientId, "m-quiet", extremes, from, to, values);
            expect(answer, `(${from}, ${to}], extremes ${extremes}`).toEqual(expected);
            checked++;
          }
        }
      return checked;
    };
    expect(await check()).toBe(36);

    // a quiet day's fourth row, inserted alone, and one moved in from another day, build their days' buckets
    times.push(day0 + 3 * DAY + 9 * HOUR);
    await insertRows(clientId, [
      {
        id: "r0",
        userId: null,
        merchantId: "m-quiet",
        accountId: null,
        userDeviceId: null,
        cardFingerprint: null,
        amount: String(times.length),
        baseAmount: null,
        occurredAt: new Date(times.at(-1)!).toISOString(),
      },
    ]);
    // q0 (day 1) is now on day 9, which held 3
    times[0] = day0 + 9 * DAY + HOUR;
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = $2::timestamptz WHERE "clientId" = $1 AND "id" = 'q0'`,
      clientId,
      new Date(times[0]).toISOString(),
    );
    // a busy day that loses rows keeps its bucket, exact
    await prisma.$executeRawUnsafe(
      `DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      [
        "q" + times.findIndex((t) => t >= day0 + 16 * DAY),
        "q" + (times.findIndex((t) => t >= day0 + 16 * DAY) + 1),
      ],
    );
    const d16 = times.findIndex((t) => t >= day0 + 16 * DAY);
    times.splice(d16, 2, NaN, NaN);
    expect(await dayBuckets()).toEqual([
      [3, 4],
      [4, 4],
      [5, 5],
      [9, 4],
      [10, 4],
      [11, 5],
      [13, 50],
      [16, 2],
      [17, 5],
    ]);
    expect(await check()).toBe(36);
    expect(
      (await prisma.$queryRawUnsafe<Array<{ mismatches: number }>>(BUCKET_MISMATCHES_SQL))[0]!.mismatches,
    ).toBe(0);
  });

  it("builds a quiet day's bucket once: a writer of the same day waits for the one building it, whatever its time zone", async () => {
    const { clientId } = await createTestClient();
    const day = Date.UTC(2026, 10, 18);
    await insertMerchantRows(clientId, "m-race", "a", [day + HOUR, day + 2 * HOUR, day + 3 * HOUR]);
    const insert = `INSERT INTO "transactions" ("clientId", "id", "merchantId", "status", "currencyCode", "amount",
        "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
      VALUES ($1, $2, 'm-race', 'PENDING', 'EUR', $3, $4, '{}', 'h', 'low', 'ALLOW', now())`;
    const first = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const second = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await first.connect();
    await second.connect();
    try {
      await first.query(`SET TIME ZONE 'UTC'`);
      await second.query(`SET TIME ZONE 'Asia/Tokyo'`);
      // the fourth row of the day builds its bucket; the transaction stays open
      await first.query("BEGIN");
      await first.query(insert, [clientId, "b4", 10, new Date(day + 4 * HOUR).toISOString()]);
      // the fifth, from another session: it waits for the first at the day's lock
      const pid = (await second.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const fifth = second.query(insert, [clientId, "b5", 20, new Date(day + 5 * HOUR).toISOString()]);
      let waiting = "";
      for (let i = 0; i < 50 && waiting !== "advisory"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const { rows } = await first.query<{ wait: string | null }>(
          `SELECT wait_event AS wait FROM pg_stat_activity WHERE pid = $1`,
          [pid],
        );
        waiting = rows[0]?.wait ?? "";
      }
      expect(waiting).toBe("advisory");
      await first.query("COMMIT");
      await fifth;
    } finally {
      await first.end();
      await second.end();
    }
    const buckets = await prisma.$queryRawUnsafe<Array<{ count: bigint; amountSum: string }>>(
      `SELECT "count", "amountSum"::text AS "amountSum" FROM "transaction_buckets"
        WHERE "clientId" = $1 AND "key" = 'm-race' AND "minutes" = 1440`,
      clientId,
    );
    // the three first rows' amounts are 1, 2 and 3
    expect(buckets.map((b) => [Number(b.count), Number(b.amountSum)])).toEqual([[5, 36]]);
  });

  it("takes a bounded number of locks for a statement of thousands of groups and days, and stays exact", async () => {
    const { clientId } = await createTestClient();
    // 5,000 rows in one statement, each its own user, account, device and card (20,000 group days), over 100
    // days: a lock per group day would exhaust the server's shared lock table ("out of shared memory")
    const day = Date.UTC(2026, 7, 1);
    const rows: TRow[] = Array.from({ length: 5000 }, (_, i) => ({
      id: `bulk-${i}`,
      userId: `bu${i}`,
      merchantId: `bm${i % 7}`,
      accountId: `ba${i}`,
      userDeviceId: `bd${i}`,
      cardFingerprint: `bf${i}`,
      amount: String(i % 100),
      baseAmount: null,
      occurredAt: new Date(day + (i % 100) * DAY + i * 1000).toISOString(),
    }));
    await insertRows(clientId, rows);
    // and again over 30 days (more than 64 group days, fewer than 64 client days)
    await insertRows(
      clientId,
      rows.slice(0, 1000).map((r, i) => ({
        ...r,
        id: `bulk-b-${i}`,
        occurredAt: new Date(day + (i % 30) * DAY).toISOString(),
      })),
    );
    const stored = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "transactions" WHERE "clientId" = $1`,
      clientId,
    );
    expect(Number(stored[0]!.n)).toBe(6000);
    expect(
      (await prisma.$queryRawUnsafe<Array<{ mismatches: number }>>(BUCKET_MISMATCHES_SQL))[0]!.mismatches,
    ).toBe(0);
  });

  it("fails a transaction snapshot's change to a day whose bucket was made after it (40001), instead of missing it", async () => {
    const { clientId } = await createTestClient();
    const day = Date.UTC(2026, 10, 17);
    await insertMerchantRows(clientId, "m-snapshot", "s", [day + HOUR, day + 2 * HOUR, day + 3 * HOUR]);
    const retention = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await retention.connect();
    try {
      // as retention does: a REPEATABLE READ transaction, its snapshot taken before the day's bucket exists
      await retention.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await retention.query(`SELECT count(*) FROM "transactions" WHERE "clientId" = $1`, [clientId]);
      // the day's fourth row, from another session, builds its bucket
      await insertMerchantRows(clientId, "m-snapshot", "t", [day + 4 * HOUR]);
      const deleted = retention.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = 's0'`, [
        clientId,
      ]);
      await expect(deleted).rejects.toMatchObject({ code: "40001" });
      await retention.query("ROLLBACK");
      // retried, it takes the row out of the bucket
      await retention.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await retention.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = 's0'`, [clientId]);
      await retention.query("COMMIT");
    } finally {
      await retention.end();
    }
    const buckets = await prisma.$queryRawUnsafe<Array<{ count: bigint }>>(
      `SELECT "count" FROM "transaction_buckets" WHERE "clientId" = $1 AND "key" = 'm-snapshot' AND "minutes" = 1440`,
      clientId,
    );
    expect(buckets.map((b) => Number(b.count))).toEqual([3]);
    expect(
      (await prisma.$queryRawUnsafe<Array<{ mismatches: number }>>(BUCKET_MISMATCHES_SQL))[0]!.mismatches,
    ).toBe(0);
  });

  it("moves a row within its hour, and within its day, with the same amount, in the hour and minute buckets", async () => {
    const { clientId } = await createTestClient();
    const hour = Date.UTC(2026, 10, 21, 12);
    // 70 rows in one hour: its day and the hour are dense, so both keep finer buckets
    await insertRows(
      clientId,
      Array.from({ length: 70 }, (_, i) => ({
        id: `mv${i}`,
        userId: "u-mv",
        merchantId: "m-mv",
        accountId: null,
        userDeviceId: null,
        cardFingerprint: null,
        amount: "10",
        baseAmount: "10",
        occurredAt: new Date(hour + i * 50_000).toISOString(),
      })),
    );
    const mismatches = async () =>
      (await prisma.$queryRawUnsafe<Array<{ mismatches: number }>>(BUCKET_MISMATCHES_SQL))[0]!.mismatches;
    expect(await mismatches()).toBe(0);
    const move = (id: string, at: number) =>
      prisma.$executeRawUnsafe(
        `UPDATE "transactions" SET "occurredAt" = $3::timestamptz WHERE "clientId" = $1 AND "id" = $2`,
        clientId,
        id,
        new Date(at).toISOString(),
      );
    await move("mv0", hour + 59 * MINUTE + 30_000); // within its hour: another minute
    expect(await mismatches()).toBe(0);
    await move("mv1", hour - 5 * HOUR); // within its day: another hour
    expect(await mismatches()).toBe(0);
    await move("mv2", hour + 50_000 + 10_000); // within its minute
    expect(await mismatches()).toBe(0);
    // a status update still touches no bucket
    const before = await prisma.$queryRawUnsafe<Array<{ x: string }>>(
      `SELECT max(xmin::text::bigint)::text AS x FROM "transaction_buckets" WHERE "clientId" = $1`,
      clientId,
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "status" = 'SUCCESSFUL' WHERE "clientId" = $1 AND "id" LIKE 'mv%'`,
      clientId,
    );
    const after = await prisma.$queryRawUnsafe<Array<{ x: string }>>(
      `SELECT max(xmin::text::bigint)::text AS x FROM "transaction_buckets" WHERE "clientId" = $1`,
      clientId,
    );
    expect(after[0]!.x).toBe(before[0]!.x);
    // and the window the old functions answered wrongly: (11:59, 12:30]
    const [got] = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT "n" FROM "transaction_window_totals"($1, 2::smallint, 'm-mv', false, false, $2::timestamptz, $3::timestamptz)`,
      clientId,
      new Date(hour - MINUTE).toISOString(),
      new Date(hour + 30 * MINUTE).toISOString(),
    );
    const [raw] = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "transactions" WHERE "clientId" = $1 AND "merchantId" = 'm-mv'
          AND "occurredAt" > $2::timestamptz AND "occurredAt" <= $3::timestamptz`,
      clientId,
      new Date(hour - MINUTE).toISOString(),
      new Date(hour + 30 * MINUTE).toISOString(),
    );
    expect(Number(got!.n)).toBe(Number(raw!.n));
  });

  it("counts and sums a group's raw rows from its index alone: no heap page read per row", async () => {
    // one card's 40 rows among 4,000 of other cards, each of its rows on a heap page of its own; all quiet days
    // (one row a day), so a window over them reads raw rows only
    const { clientId } = await createTestClient();
    const start = Date.UTC(2026, 9, 1, 12);
    const rows: TRow[] = Array.from({ length: 4_000 }, (_, i) => ({
      id: `heap-${i}`,
      userId: `u-${i}`,
      merchantId: null,
      accountId: null,
      userDeviceId: null,
      cardFingerprint: i % 100 === 0 ? "f-heap" : `f-${i}`,
      amount: "10.00",
      baseAmount: "10.00",
      occurredAt: new Date(start + Math.floor(i / 100) * DAY + (i % 100) * MINUTE).toISOString(),
    }));
    await insertRows(clientId, rows);
    // VACUUM marks the pages all-visible, as autovacuum does on a table receiving inserts
    await prisma.$executeRawUnsafe(`VACUUM (ANALYZE) "transactions"`);
    const buffers = async (base: string) => {
      const [plan] = await prisma.$queryRawUnsafe<
        Array<{ "QUERY PLAN": Array<{ Plan: Record<string, number> }> }>
      >(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM "transaction_window_totals"($1, 5::smallint,
           'f-heap', ${base}, false, $2::timestamptz, $3::timestamptz)`,
        clientId,
        new Date(start - HOUR).toISOString(),
        new Date(start + 45 * DAY).toISOString(),
      );
      const top = plan!["QUERY PLAN"][0]!.Plan;
      return top["Shared Hit Blocks"]! + top["Shared Read Blocks"]!;
    };
    const [got] = await prisma.$queryRawUnsafe<Array<{ n: bigint; amounts: bigint }>>(
      `SELECT c."n", a."n" AS "amounts"
         FROM "transaction_window_totals"($1, 5::smallint, 'f-heap', NULL, false, $2::timestamptz, $3::timestamptz) c,
              "transaction_window_totals"($1, 5::smallint, 'f-heap', false, false, $2::timestamptz, $3::timestamptz) a`,
      clientId,
      new Date(start - HOUR).toISOString(),
      new Date(start + 45 * DAY).toISOString(),
    );
    expect([Number(got!.n), Number(got!.amounts)]).toEqual([40, 40]);
    // plans made and cached first (the function's statements, the catalogue): then only the reads are counted
    await buffers("NULL");
    await buffers("false");
    await buffers("true");
    const withAmounts = await buffers("false");
    const withBaseAmounts = await buffers("true");
    const countOnly = await buffers("NULL");
    // the count reads the card's index entries only, and so do the sums, since the group indexes carry "amount"
    // and "baseAmount" (INCLUDE): a heap page per row would be 40 buffers more than the count
    expect(withAmounts - countOnly).toBeLessThan(10);
    expect(withBaseAmounts - countOnly).toBeLessThan(10);
  });

  it("keeps one plan of a write's bucket changes per session (the plan cache would re-plan it on every write)", async () => {
    // The custom plan sees one or two changes, the generic one estimates 10: with buckets stored, the plan cache
    // kept planning custom plans, 0.5-0.7 ms on every screening's write (docs/benchmarks.md).
    const rows = await prisma.$queryRaw<Array<{ config: string[] | null }>>`
      SELECT proconfig AS config FROM pg_proc WHERE proname = 'transaction_bucket_net'`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.config).toContain("plan_cache_mode=force_generic_plan");
  });

  it("says which aggregates read the raw window", () => {
    const base = { over: "transaction", groupBy: "merchantId", window: "24h" } as const;
    expect(readsRawWindow({ ...base, function: "sum", field: "amount" })).toBe(false);
    expect(readsRawWindow({ ...base, function: "count" })).toBe(false);
    expect(
      readsRawWindow({ ...base, groupBy: "card.cardFingerprint", function: "max", field: "baseAmount" }),
    ).toBe(false);
    expect(rawWindowReason({ ...base, function: "count", where: "transaction.amount > 5" })).toBe(
      "a where filter reads the raw window",
    );
    // read from the distinct values per day (aggregate-distinct.test.ts)
    expect(rawWindowReason({ ...base, function: "countDistinct", field: "userId" })).toBeNull();
    expect(rawWindowReason({ ...base, groupBy: "crypto.address", function: "count" })).toMatch(
      /^grouping by crypto.address reads the raw window/,
    );
    expect(rawWindowReason({ ...base, function: "sum", field: "fee" })).toMatch(
      /^sum of fee reads the raw window/,
    );
    expect(rawWindowReason({ ...base, over: "event", function: "count" })).toBe(
      "aggregates over events read the raw window",
    );
  });

  it("answers what the raw rows answer, through inserts, updates, deletes and resubmissions", async () => {
    const { clientId } = await createTestClient({ name: "Buckets" });
    const rnd = random(SEED);
    const hotMinute = NOW - 3 * HOUR + 17 * MINUTE;
    const rows: TRow[] = [];
    // multi-row statements (a day can become dense within one), then single rows, of which 60 for one
    // merchant on one day (it becomes dense on the 48th, its hours and minutes built from the rows so far)
    for (let batch = 0; batch < 8; batch++) {
      const made = Array.from({ length: 60 }, (_, i) => makeRow(rnd, `t${batch}-${i}`, hotMinute));
      await insertRows(clientId, made);
      rows.push(...made);
    }
    const busyHour = NOW - 2 * DAY + 5 * HOUR;
    for (let i = 0; i < 150; i++) {
      const made = makeRow(rnd, `single-${i}`, hotMinute);
      if (i % 6 !== 5) {
        made.merchantId = "m-single";
        made.occurredAt = new Date(
          i < 50 ? NOW - 2 * DAY + Math.floor(rnd() * 20 * HOUR) : busyHour + Math.floor(rnd() * HOUR),
        ).toISOString();
      }
      await insertRows(clientId, [made]);
      rows.push(made);
    }
    const busy = { dim: "merchantId", group: "m-single", hour: busyHour } as const;
    let compared = await compareMany(clientId, rnd, rows, 25, "after inserts");
    compared += await compareMany(clientId, rnd, rows, 12, "after inserts, in the busy hour", busy);

    // updates: amounts (extremes removed), times (back-dated, moved across buckets), groups, status only
    const ids = (n: number) => Array.from({ length: n }, () => rows[Math.floor(rnd() * rows.length)]!.id);
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "amount" = "amount" * 2 + 1, "baseAmount" = NULL WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(30),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "amount" = 0 WHERE "clientId" = $1 AND "amount" = (SELECT max("amount") FROM "transactions" WHERE "clientId" = $1)`,
      clientId,
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = "occurredAt" - interval '3 days 7 minutes' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(25),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "userId" = 'u2', "merchantId" = NULL, "cardFingerprint" = 'f3' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(20),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "status" = 'DECLINED' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(40),
    );
    for (const id of ids(10)) {
      await prisma.$executeRawUnsafe(
        `UPDATE "transactions" SET "amount" = 0.5, "baseAmount" = 99999 WHERE "clientId" = $1 AND "id" = $2`,
        clientId,
        id,
      );
    }
    const deleted = ids(30);
    await prisma.$executeRawUnsafe(
      `DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      deleted,
    );
    const stored = await prisma.$queryRawUnsafe<TRow[]>(
      `SELECT "id", "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint", "amount"::text,
         "baseAmount"::text, to_char("occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"
       FROM "transactions" WHERE "clientId" = $1`,
      clientId,
    );
    compared += await compareMany(clientId, rnd, stored, 40, "after updates and deletes");
    compared += await compareMany(
      clientId,
      rnd,
      stored,
      12,
      "after updates and deletes, in the busy hour",
      busy,
    );

    const checks = await bucketChecks(clientId);
    expect(checks[0]).toMatchObject({ wrong: 0n, missingDays: 0n, incomplete: 0n });
    // some group's days became dense (hours kept), and some of their hours (minutes kept), others did not
    expect(Number(checks[0]!.dense)).toBeGreaterThan(0);
    expect(Number(checks[0]!.denseHours)).toBeGreaterThan(0);
    expect(Number(checks[0]!.sparseHours)).toBeGreaterThan(0);
    const stale = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "transaction_buckets" WHERE "clientId" = $1 AND "extremaStale"`,
      clientId,
    );
    // the updates removed extremes, so min and max went through the raw fallback above
    expect(Number(stale[0]!.n)).toBeGreaterThan(0);
    expect(compared).toBeGreaterThan(150);
  }, 120_000);
  it("stays exact with concurrent writers of one busy group, as its day and hours turn dense", async () => {
    const { clientId } = await createTestClient({ name: "Buckets, concurrent" });
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
    const rnd = random(SEED + 1);
    const hour = NOW - 6 * HOUR;
    try {
      // 8 writers, each row its own statement: one merchant in one hour (its day turns dense at 48, the hour at
      // 60, while the others write), users shared between writers; some rows changed or deleted as they go
      const errors: unknown[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 30; i++) {
            const row = makeRow(rnd, `w${w}-${i}`, hour);
            row.merchantId = "m-busy";
            row.userId = `u${i % 3}`;
            row.occurredAt = new Date(hour + Math.floor(rnd() * HOUR)).toISOString();
            try {
              await pool.query(
                `INSERT INTO "transactions" ("clientId", "id", "userId", "merchantId", "accountId", "userDeviceId",
                   "cardFingerprint", "status", "currencyCode", "amount", "baseAmount", "occurredAt", "data", "bodyHash",
                   "riskLevel", "recommendedAction", "assessedAt")
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', 'EUR', $8, $9, $10, '{}', 'h', 'low', 'ALLOW', now())`,
                [
                  clientId,
                  row.id,
                  row.userId,
                  row.merchantId,
                  row.accountId,
                  row.userDeviceId,
                  row.cardFingerprint,
                  row.amount,
                  row.baseAmount,
                  row.occurredAt,
                ],
              );
              if (i % 5 === 4)
                await pool.query(
                  `UPDATE "transactions" SET "amount" = "amount" + 7, "occurredAt" = "occurredAt" - interval '1 minute'
                   WHERE "clientId" = $1 AND "id" = $2`,
                  [clientId, `w${(w + 1) % 8}-${i - 2}`],
                );
              if (i % 7 === 6)
                await pool.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = $2`, [
                  clientId,
                  `w${w}-${i - 3}`,
                ]);
            } catch (err) {
              errors.push(err);
            }
          }
        }),
      );
      // no deadlock, no failed statement
      expect(errors).toEqual([]);
    } finally {
      await pool.end();
    }
    const checks = await bucketChecks(clientId);
    expect(checks[0]).toMatchObject({ wrong: 0n, missingDays: 0n, incomplete: 0n });
    expect(Number(checks[0]!.denseHours)).toBeGreaterThan(0);
    const rows = await prisma.$queryRawUnsafe<TRow[]>(
      `SELECT "id", "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint", "amount"::text,
         "baseAmount"::text, to_char("occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"
       FROM "transactions" WHERE "clientId" = $1`,
      clientId,
    );
    await compareMany(clientId, rnd, rows, 10, "after concurrent writers", {
      dim: "merchantId",
      group: "m-busy",
      hour,
    });
  }, 120_000);
});
