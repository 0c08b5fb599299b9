// countDistinct read from the distinct values per day (transaction_distinct_values, kept by triggers for the pairs in
// transaction_distinct_specs) against plain SQL over the raw rows, for randomised histories: several groups and
// values, null groups and values, rows before and after the spec's `since` (added mid-history, then rebuilt),
// back-dated and future times, multi-row inserts, updates of status, time, group and value, deletes,
// resubmissions (the screened record as a virtual row), windows of 1 h to 400 d on and off day bounds.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { saveRule } from "@/lib/admin/save-rule";
import type { TSessionUser } from "@/lib/auth/session";
import { importRules } from "@/lib/rules/import-rules";
import type { TAggregateDefinition } from "@/lib/rules/schemas";
import { windowMs } from "@/lib/rules/schemas";
import { distinctPlan, rawWindowReason, readsRawWindow } from "@/lib/rules/aggregate-cost";
import { aggregateKey, computeAggregates } from "@/lib/screening/aggregates";
import { createTestClient } from "@/tests/factories";
import { DISTINCT_MISMATCHES_SQL } from "@/tests/support/bucket-check";
import { seededRandom } from "@/tests/support/seeded-random";

const SEED = Number(process.env.AGGREGATE_SEED ?? 20261127);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const random = seededRandom;

const DIMS = ["userId", "merchantId", "accountId", "userDeviceId", "card.cardFingerprint"] as const;
type TDim = (typeof DIMS)[number];
const COLUMN: Record<TDim, string> = {
  userId: "userId",
  merchantId: "merchantId",
  accountId: "accountId",
  userDeviceId: "userDeviceId",
  "card.cardFingerprint": "cardFingerprint",
};
const VALUES: Record<TDim, Array<string | null>> = {
  userId: ["u1", "u2", "u3", "u4", "u5", null],
  merchantId: ["m1", "m2", "m3", null],
  accountId: ["a1", "a2", "a3", "a4"],
  userDeviceId: ["d1", "d2", "d3", null, null],
  "card.cardFingerprint": ["f1", "f2", "f3", "f4", null],
};
const WINDOWS = ["1h", "24h", "25h", "7d", "30d", "400d"];

type TRow = {
  id: string;
  userId: string | null;
  merchantId: string | null;
  accountId: string | null;
  userDeviceId: string | null;
  cardFingerprint: string | null;
  occurredAt: string;
};

const pickFrom =
  (rnd: () => number) =>
  <T>(xs: readonly T[]) =>
    xs[Math.floor(rnd() * xs.length)]!;

function makeRow(rnd: () => number, id: string, at: number): TRow {
  const pick = pickFrom(rnd);
  return {
    id,
    userId: pick(VALUES.userId),
    merchantId: pick(VALUES.merchantId),
    accountId: pick(VALUES.accountId),
    userDeviceId: pick(VALUES.userDeviceId),
    cardFingerprint: pick(VALUES["card.cardFingerprint"]),
    occurredAt: new Date(at).toISOString(),
  };
}

async function insertRows(clientId: string, rows: TRow[]) {
  await prisma.$executeRawUnsafe(
    `INSERT INTO "transactions" ("clientId", "id", "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint",
       "status", "currencyCode", "amount", "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
     SELECT $1, r."id", r."userId", r."merchantId", r."accountId", r."userDeviceId", r."cardFingerprint", 'PENDING', 'EUR',
       1, r."occurredAt"::timestamptz, jsonb_build_object('id', r."id"), 'h', 'low', 'ALLOW', now()
     FROM jsonb_to_recordset($2::jsonb) AS r("id" text, "userId" text, "merchantId" text, "accountId" text,
       "userDeviceId" text, "cardFingerprint" text, "occurredAt" text)`,
    clientId,
    JSON.stringify(rows),
  );
}

async function storedRows(clientId: string): Promise<TRow[]> {
  return prisma.$queryRawUnsafe<TRow[]>(
    `SELECT "id", "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint",
       to_char("occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"
     FROM "transactions" WHERE "clientId" = $1`,
    clientId,
  );
}

/** The reference: count(DISTINCT field) over the raw rows (minus the screened id, plus the virtual row). */
async function reference(
  clientId: string,
  spec: TAggregateDefinition,
  groupValue: string,
  timestamp: number,
  screened?: TRow,
): Promise<number> {
  const g = COLUMN[spec.groupBy as TDim];
  const f = COLUMN[spec.field as TDim];
  const rows = await prisma.$queryRawUnsafe<Array<{ v: number }>>(
    `SELECT count(DISTINCT t.f)::float8 AS v FROM (
       SELECT "${g}" AS g, "${f}" AS f, "occurredAt" FROM "transactions" WHERE "clientId" = $1 AND "id" <> $5
       UNION ALL SELECT r.g, r.f, r."occurredAt"::timestamptz FROM jsonb_to_recordset($6::jsonb) AS r(g text, f text, "occurredAt" text)
     ) t WHERE t.g = $2 AND t."occurredAt" > $3::timestamptz AND t."occurredAt" <= $4::timestamptz`,
    clientId,
    groupValue,
    new Date(timestamp - windowMs(spec.window)).toISOString(),
    new Date(timestamp).toISOString(),
    screened?.id ?? "",
    JSON.stringify(
      screened
        ? [{ g: screened[g as keyof TRow], f: screened[f as keyof TRow], occurredAt: screened.occurredAt }]
        : [],
    ),
  );
  return rows[0]!.v;
}

async function compareMany(
  clientId: string,
  rnd: () => number,
  rows: TRow[],
  checks: number,
  label: string,
  times: () => number,
): Promise<number> {
  const pick = pickFrom(rnd);
  let compared = 0;
  for (let k = 0; k < checks; k++) {
    const dim = pick(DIMS);
    const column = COLUMN[dim];
    const r = rnd();
    const timestamp =
      r < 0.3
        ? new Date(pick(rows).occurredAt).getTime() + pick([0, 1, -1])
        : r < 0.5
          ? Math.floor(times() / DAY) * DAY + pick([0, 1, -1, HOUR])
          : times();
    // a resubmission of a stored id with other values, or a new record, or none
    const s = rnd();
    const screened =
      s < 0.3
        ? { ...makeRow(rnd, pick(rows).id, timestamp), occurredAt: new Date(timestamp).toISOString() }
        : s < 0.45
          ? makeRow(rnd, `new-${k}`, timestamp)
          : undefined;
    const groupValue =
      (screened?.[column as keyof TRow] as string | null | undefined) ??
      pick([...VALUES[dim].filter((v): v is string => v !== null), "nobody"]);
    if (screened) Object.assign(screened, { [column]: groupValue });
    const specs = DIMS.filter((f) => f !== dim).flatMap((field) =>
      WINDOWS.map(
        (window) =>
          ({
            function: "countDistinct",
            over: "transaction",
            groupBy: dim,
            field,
            window,
          }) as TAggregateDefinition,
      ),
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
            row: {
              ...screened,
              clientId,
              status: "PENDING",
              currencyCode: "EUR",
              amount: 1,
              data: { id: screened.id },
            },
          }
        : undefined,
    });
    for (const spec of specs) {
      const expected = await reference(clientId, spec, groupValue, timestamp, screened);
      const got = values.get(aggregateKey(spec));
      const actual = got && "value" in got ? got.value : undefined;
      if (actual !== expected) {
        throw new Error(
          `${label}: countDistinct(${spec.field}) by ${dim}=${groupValue} over ${spec.window} to ${new Date(timestamp).toISOString()}` +
            `${screened ? ` screened ${JSON.stringify(screened)}` : ""}: day values ${JSON.stringify(got)}, raw ${expected} (seed ${SEED})`,
        );
      }
      compared++;
    }
  }
  return compared;
}

const mismatches = async () =>
  (await prisma.$queryRawUnsafe<Array<{ mismatches: number }>>(DISTINCT_MISMATCHES_SQL))[0]!.mismatches;

const addSpec = (clientId: string, dim: number, field: number) =>
  prisma.$executeRawUnsafe(
    `SELECT "transaction_distinct_spec_add"($1, $2::smallint, $3::smallint)`,
    clientId,
    dim,
    field,
  );

describe("countDistinct over distinct values per day", () => {
  it("keeps the distinct values in transaction_distinct_values only: the previous table is dropped", async () => {
    const tables = await prisma.$queryRawUnsafe<Array<{ old: string | null; kept: string | null }>>(
      `SELECT to_regclass('"transaction_distinct"')::text AS old, to_regclass('"transaction_distinct_values"')::text AS kept`,
    );
    expect(tables).toEqual([{ old: null, kept: "transaction_distinct_values" }]);
  });

  it("says which countDistinct aggregates read day values", () => {
    const base = {
      function: "countDistinct",
      over: "transaction",
      groupBy: "userDeviceId",
      window: "7d",
    } as const;
    expect(distinctPlan({ ...base, field: "userId" })).toEqual({ dim: 4, field: 1 });
    expect(readsRawWindow({ ...base, field: "userId" })).toBe(false);
    expect(rawWindowReason({ ...base, field: "card.cardFingerprint" })).toBeNull();
    expect(rawWindowReason({ ...base, field: "userDeviceId" })).toMatch(
      /^countDistinct of userDeviceId by userDeviceId reads the raw window/,
    );
    expect(rawWindowReason({ ...base, field: "crypto.address" })).toMatch(
      /^countDistinct of crypto.address by userDeviceId reads the raw window/,
    );
    expect(rawWindowReason({ ...base, field: "userId", where: "transaction.amount > 5" })).toBe(
      "a where filter reads the raw window",
    );
    expect(rawWindowReason({ ...base, over: "event", field: "userId" })).toBe(
      "aggregates over events read the raw window",
    );
  });

  it("registers the pair of an eligible countDistinct when a rule version is written, once", async () => {
    const { clientId } = await createTestClient({ name: "Distinct specs" });
    const rule = (id: string, aggregates: Record<string, unknown>) => ({
      id,
      name: id,
      subject: "transaction",
      status: "active",
      riskLevel: "high",
      recommendedAction: "REVIEW",
      reason: "r",
      condition: "true",
      aggregates,
    });
    const specs = () =>
      prisma.$queryRawUnsafe<Array<{ dim: number; field: number; since: Date }>>(
        `SELECT "dim", "field", "since" FROM "transaction_distinct_specs" WHERE "clientId" = $1 ORDER BY 1, 2`,
        clientId,
      );
    await importRules({
      clientId,
      rules: [
        rule("R-FILTERED", {
          a: {
            function: "countDistinct",
            over: "transaction",
            groupBy: "userDeviceId",
            field: "userId",
            window: "7d",
            where: "transaction.amount > 5",
          },
          b: {
            function: "countDistinct",
            over: "transaction",
            groupBy: "crypto.address",
            field: "userId",
            window: "7d",
          },
          c: { function: "count", over: "transaction", groupBy: "userId", window: "7d" },
        }),
      ],
    });
    expect(await specs()).toEqual([]);
    // a future-dated row stored before the spec: its day holds one row, so it keeps no values (it is read from
    // its rows)
    const ahead = new Date(Date.now() + 3 * DAY).toISOString();
    const row = (id: string, userId: string) => ({
      id,
      userId,
      merchantId: null,
      accountId: "a1",
      userDeviceId: "d1",
      cardFingerprint: null,
      occurredAt: ahead,
    });
    await insertRows(clientId, [row("ahead", "u1")]);
    const shared = {
      function: "countDistinct",
      over: "transaction",
      groupBy: "userDeviceId",
      field: "userId",
      window: "7d",
    };
    await importRules({
      clientId,
      rules: [rule("R-DEVICE", { a: shared, b: { ...shared, window: "30d" } })],
    });
    const first = await specs();
    expect(first.map((s) => [s.dim, s.field])).toEqual([[4, 1]]);
    expect(await mismatches()).toBe(0);
    const dayValues = () =>
      prisma.$queryRawUnsafe<Array<{ value: string; n: number }>>(
        `SELECT "value", "n" FROM "transaction_distinct_values" WHERE "clientId" = $1 AND "dim" = 4 AND "key" = 'd1' ORDER BY 1`,
        clientId,
      );
    expect(await dayValues()).toEqual([]);
    // three more that day: it holds 4, has its day bucket, and so is marked and counted from its rows
    await insertRows(clientId, [row("ahead-2", "u1"), row("ahead-3", "u2")]);
    expect(await dayValues()).toEqual([]);
    await insertRows(clientId, [row("ahead-4", "u2")]);
    expect(await dayValues()).toEqual([
      { value: "u1", n: 2 },
      { value: "u2", n: 2 },
    ]);
    expect(await mismatches()).toBe(0);
    // saved again, and a draft with another pair: the first keeps its since
    await importRules({ clientId, rules: [rule("R-DEVICE", { a: shared })] });
    await importRules({
      clientId,
      rules: [rule("R-CARD", { a: { ...shared, groupBy: "card.cardFingerprint", field: "accountId" } })],
    });
    const after = await specs();
    expect(after.map((s) => [s.dim, s.field])).toEqual([
      [4, 1],
      [5, 3],
    ]);
    expect(after[0]!.since).toEqual(first[0]!.since);
  });

  it("registers the pair of a rule saved in the editor, and answers the save without it", async () => {
    const { clientId } = await createTestClient({ name: "Distinct specs, editor" });
    const admin: TSessionUser = {
      id: "du-distinct",
      clientId,
      email: "admin@distinct.test",
      name: null,
      role: "admin",
    };
    const saved = await saveRule(admin, {
      definition: {
        id: "R-EDITOR",
        name: "Editor",
        subject: "transaction",
        status: "draft",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: "r",
        condition: "aggregates.users > 3",
        aggregates: {
          users: {
            function: "countDistinct",
            over: "transaction",
            groupBy: "merchantId",
            field: "userId",
            window: "7d",
          },
        },
      },
    });
    expect(Object.keys(saved).sort()).toEqual([
      "liveVersion",
      "ruleId",
      "ruleRef",
      "status",
      "version",
      "versionId",
    ]);
    const rows = await prisma.$queryRawUnsafe<Array<{ dim: number; field: number }>>(
      `SELECT "dim", "field" FROM "transaction_distinct_specs" WHERE "clientId" = $1`,
      clientId,
    );
    expect(rows).toEqual([{ dim: 2, field: 1 }]);
  });

  it("answers what the raw rows answer, with the spec added mid-history, then rebuilt", async () => {
    const { clientId } = await createTestClient({ name: "Distinct" });
    const rnd = random(SEED);
    const pick = pickFrom(rnd);
    const T0 = Date.now();
    // history before the spec: 40 days back, a few days ahead (future-dated), some on day bounds
    const at = (from: number, span: number) => {
      const r = rnd();
      return r < 0.15
        ? Math.floor((from + rnd() * span) / DAY) * DAY + pick([0, 1, -1])
        : from + Math.floor(rnd() * span);
    };
    const rows: TRow[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const made = Array.from({ length: 50 }, (_, i) =>
        makeRow(rnd, `h${batch}-${i}`, i % 10 === 0 ? at(T0, 5 * DAY) : at(T0 - 40 * DAY, 40 * DAY)),
      );
      await insertRows(clientId, made);
      rows.push(...made);
    }
    for (let dim = 1; dim <= 5; dim++)
      for (let field = 1; field <= 5; field++) if (dim !== field) await addSpec(clientId, dim, field);
    const [{ since }] = (await prisma.$queryRawUnsafe<Array<{ since: Date }>>(
      `SELECT min("since") AS since FROM "transaction_distinct_specs" WHERE "clientId" = $1`,
      clientId,
    )) as [{ since: Date }];
    const S = since.getTime();
    expect(S).toBeGreaterThanOrEqual(T0);
    // the future-dated rows of the history were counted, the rest will be read raw
    expect(await mismatches()).toBe(0);
    // after the spec: 20 days of rows (single and multi-row statements), and back-dated ones before `since`
    for (let batch = 0; batch < 6; batch++) {
      const made = Array.from({ length: 40 }, (_, i) =>
        makeRow(rnd, `a${batch}-${i}`, i % 8 === 0 ? at(S - 10 * DAY, 10 * DAY) : at(S, 20 * DAY)),
      );
      await insertRows(clientId, made);
      rows.push(...made);
    }
    for (let i = 0; i < 20; i++) {
      const made = makeRow(rnd, `s-${i}`, at(S, 20 * DAY));
      await insertRows(clientId, [made]);
      rows.push(made);
    }
    expect(await mismatches()).toBe(0);
    const times = () => (rnd() < 0.8 ? S + Math.floor(rnd() * 22 * DAY) : S - Math.floor(rnd() * 30 * DAY));
    let compared = await compareMany(clientId, rnd, rows, 25, "after inserts", times);

    // a status update touches no day row
    const xmax = async () =>
      (
        await prisma.$queryRawUnsafe<Array<{ x: string | null }>>(
          `SELECT max(xmin::text::bigint)::text AS x FROM "transaction_distinct_values" WHERE "clientId" = $1`,
          clientId,
        )
      )[0]!.x;
    const before = await xmax();
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "status" = 'DECLINED' WHERE "clientId" = $1 AND "id" LIKE 'a%'`,
      clientId,
    );
    expect(await xmax()).toBe(before);

    // updates: time (across days, and across `since` both ways), group, value; deletes
    const ids = (n: number) => Array.from({ length: n }, () => pick(rows).id);
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = "occurredAt" - interval '3 days 7 minutes' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(25),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = "occurredAt" + interval '9 days' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(20),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = "occurredAt" + interval '2 hours' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(20),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "userId" = 'u2', "merchantId" = NULL, "cardFingerprint" = 'f3' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(20),
    );
    for (const id of ids(10))
      await prisma.$executeRawUnsafe(
        `UPDATE "transactions" SET "userDeviceId" = $3, "accountId" = 'a9' WHERE "clientId" = $1 AND "id" = $2`,
        clientId,
        id,
        pick(["d1", "d9", null]),
      );
    await prisma.$executeRawUnsafe(
      `DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(30),
    );
    expect(await mismatches()).toBe(0);
    let stored = await storedRows(clientId);
    compared += await compareMany(clientId, rnd, stored, 30, "after updates and deletes", times);

    // rebuilt: every day from the day values
    await prisma.$executeRawUnsafe(`SELECT "transaction_distinct_rebuild"($1)`, clientId);
    const rebuilt = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "transaction_distinct_specs" WHERE "clientId" = $1 AND "since" <> '-infinity'`,
      clientId,
    );
    expect(Number(rebuilt[0]!.n)).toBe(0);
    expect(await mismatches()).toBe(0);
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "occurredAt" = "occurredAt" - interval '30 days', "userId" = 'u5' WHERE "clientId" = $1 AND "id" = ANY($2)`,
      clientId,
      ids(15),
    );
    expect(await mismatches()).toBe(0);
    stored = await storedRows(clientId);
    compared += await compareMany(clientId, rnd, stored, 25, "after the rebuild", times);
    expect(compared).toBeGreaterThan(1500);
    // the day values were read: windows of whole days after `since` hold rows
    const days = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "transaction_distinct_values" WHERE "clientId" = $1`,
      clientId,
    );
    expect(Number(days[0]!.n)).toBeGreaterThan(500);
    // and both kinds of day were there: marked days (values kept) and quiet days with rows (read raw), per group
    // column
    const kinds = await prisma.$queryRawUnsafe<Array<{ dim: number; marked: bigint; quiet: bigint }>>(
      `WITH g AS (
         SELECT DISTINCT x."dim", x."key", date_trunc('day', t."occurredAt", 'UTC') AS "day"
         FROM "transactions" t
         CROSS JOIN LATERAL (VALUES (1, t."userId"), (2, t."merchantId"), (3, t."accountId"), (4, t."userDeviceId"),
           (5, t."cardFingerprint")) AS x("dim", "key")
         WHERE t."clientId" = $1 AND x."key" IS NOT NULL)
       SELECT g."dim", count(m."key") AS marked, count(*) - count(m."key") AS quiet
       FROM g LEFT JOIN "transaction_distinct_days" m ON m."clientId" = $1 AND m."dim" = g."dim" AND m."key" = g."key"
         AND m."day" = g."day"
       GROUP BY 1 ORDER BY 1`,
      clientId,
    );
    expect(kinds.map((k) => k.dim)).toEqual([1, 2, 3, 4, 5]);
    for (const k of kinds) {
      expect(Number(k.marked), `dim ${k.dim}`).toBeGreaterThan(0);
      expect(Number(k.quiet), `dim ${k.dim}`).toBeGreaterThan(0);
    }
  }, 180_000);

  it("takes a resubmitted id's stored value out, whether its day is whole or ragged", async () => {
    const { clientId } = await createTestClient({ name: "Distinct resubmission" });
    await addSpec(clientId, 4, 1);
    const D = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    const row = (id: string, userId: string, t: number): TRow => ({
      id,
      userId,
      merchantId: null,
      accountId: null,
      userDeviceId: "d-r",
      cardFingerprint: null,
      occurredAt: new Date(t).toISOString(),
    });
    // r1 (u1) alone on its whole day D+1; r2 (u1) alone on the window's last, ragged day; u2 on another day
    await insertRows(clientId, [
      row("r1", "u1", D + DAY + HOUR),
      row("r2", "u1", D + 5 * DAY + HOUR),
      row("r3", "u2", D + 2 * DAY),
    ]);
    const spec = {
      function: "countDistinct",
      over: "transaction",
      groupBy: "userDeviceId",
      field: "userId",
      window: "7d",
    } as TAggregateDefinition;
    const screen = async (resubmitted: TRow, timestamp: number) => {
      const values = await computeAggregates(prisma, {
        clientId,
        subject: "transaction",
        subjectId: resubmitted.id,
        timestamp,
        variables: {},
        aggregates: [{ spec }],
        screened: {
          over: "transaction",
          row: { ...resubmitted, clientId, status: "PENDING", currencyCode: "EUR", amount: 1, data: {} },
        },
      });
      return values.get(aggregateKey(spec));
    };
    const end = D + 5 * DAY + 2 * HOUR;
    expect(await screen(row("new", "u3", end), end)).toEqual({ value: 3 });
    // r1 and r2 resubmitted with another user: u1 is still r2's (then r1's), and u3 comes in
    expect(await screen(row("r1", "u3", end), end)).toEqual({ value: 3 });
    expect(await screen(row("r2", "u3", end), end)).toEqual({ value: 3 });
    // both of u1's rows gone: one resubmitted, the other moved out of the group
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "userDeviceId" = 'd-x' WHERE "clientId" = $1 AND "id" = 'r2'`,
      clientId,
    );
    expect(await screen(row("r1", "u3", end), end)).toEqual({ value: 2 });
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "userDeviceId" = 'd-r' WHERE "clientId" = $1 AND "id" = 'r2'`,
      clientId,
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "transactions" SET "userDeviceId" = 'd-x' WHERE "clientId" = $1 AND "id" = 'r1'`,
      clientId,
    );
    expect(await screen(row("r2", "u3", end), end)).toEqual({ value: 2 });
    // resubmitted out of the window: its stored value goes, nothing comes in
    expect(await screen(row("r2", "u1", end - 8 * DAY), end)).toEqual({ value: 1 });
    // a group of its own: the record counts itself
    expect(await screen({ ...row("r9", "u1", end), userDeviceId: "d-none" }, end)).toEqual({ value: 1 });
  });

  it("stays exact with concurrent writers of one group, and a spec added while they write", async () => {
    // A row moved to another month's partition by one writer's UPDATE while another updates or deletes it fails
    // that statement with 40001 (the moved tuple cannot be locked); a writer runs it again, as the screenings'
    // writes do (lib/screening/sql/guarded-write.ts). Only near a month's end do the moved rows cross months.
    const movedRowRetried = async (run: () => Promise<unknown>): Promise<void> => {
      for (let attempt = 1; ; attempt++) {
        try {
          await run();
          return;
        } catch (err) {
          if (attempt < 5 && (err as { code?: string }).code === "40001") continue;
          throw err;
        }
      }
    };
    const { clientId } = await createTestClient({ name: "Distinct, concurrent" });
    await addSpec(clientId, 2, 1);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 9 });
    const rnd = random(SEED + 1);
    const start = Date.now() + HOUR;
    const errors: unknown[] = [];
    try {
      // 8 writers, each insert in its own transaction held open a moment: one merchant, users shared between
      // writers (the same day rows), some rows moved or deleted as they go; the device pair is added meanwhile.
      // One statement per transaction, as the screenings write (two statements over shared day rows, like
      // shared buckets, can deadlock)
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          const row = makeRow(rnd, `w${w}-${i}`, start + Math.floor(rnd() * 2 * DAY));
          const conn = await pool.connect();
          try {
            await conn.query("BEGIN");
            await conn.query(
              `INSERT INTO "transactions" ("clientId", "id", "userId", "merchantId", "accountId", "userDeviceId",
                 "cardFingerprint", "status", "currencyCode", "amount", "occurredAt", "data", "bodyHash", "riskLevel",
                 "recommendedAction", "assessedAt")
               VALUES ($1, $2, $3, 'm-busy', $4, $5, $6, 'PENDING', 'EUR', 1, $7, '{}', 'h', 'low', 'ALLOW', now())`,
              [
                clientId,
                row.id,
                `u${i % 3}`,
                row.accountId,
                row.userDeviceId,
                row.cardFingerprint,
                row.occurredAt,
              ],
            );
            await conn.query("SELECT pg_sleep(0.005)");
            await conn.query("COMMIT");
            if (i % 5 === 4)
              await movedRowRetried(() =>
                conn.query(
                  `UPDATE "transactions" SET "occurredAt" = "occurredAt" + interval '1 day', "userId" = 'u9'
                   WHERE "clientId" = $1 AND "id" = $2`,
                  [clientId, `w${(w + 1) % 8}-${i - 2}`],
                ),
              );
            if (i % 7 === 6)
              await movedRowRetried(() =>
                conn.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = $2`, [
                  clientId,
                  `w${w}-${i - 3}`,
                ]),
              );
          } catch (err) {
            errors.push(err);
            await conn.query("ROLLBACK");
          } finally {
            conn.release();
          }
        }
      });
      const adder = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await pool.query(`SELECT "transaction_distinct_spec_add"($1, 4::smallint, 1::smallint)`, [clientId]);
      })();
      await Promise.all([...writers, adder]);
    } finally {
      await pool.end();
    }
    // no deadlock, no failed statement, and every row counted once
    expect(errors).toEqual([]);
    expect(await mismatches()).toBe(0);
    const counted = await prisma.$queryRawUnsafe<Array<{ dim: number; n: bigint }>>(
      `SELECT "dim", sum("n") AS n FROM "transaction_distinct_values" WHERE "clientId" = $1 GROUP BY 1 ORDER BY 1`,
      clientId,
    );
    expect(counted.length).toBe(2);
  }, 120_000);

  it("keeps a quiet day's values nowhere, and a transaction snapshot's change to a day marked after it exact", async () => {
    const { clientId } = await createTestClient({ name: "Distinct, snapshot" });
    await addSpec(clientId, 2, 1);
    // a whole day after the spec's since (the days before it are read from their rows)
    const day = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    const row = (id: string, userId: string, hours: number): TRow => ({
      id,
      userId,
      merchantId: "m-snap",
      accountId: null,
      userDeviceId: null,
      cardFingerprint: null,
      occurredAt: new Date(day + hours * HOUR).toISOString(),
    });
    const values = () =>
      prisma.$queryRawUnsafe<Array<{ value: string; n: number }>>(
        `SELECT "value", "n" FROM "transaction_distinct_values" WHERE "clientId" = $1 ORDER BY 1`,
        clientId,
      );
    const read = async () =>
      (
        await prisma.$queryRawUnsafe<Array<{ value: string; n: bigint }>>(
          `SELECT "value", "n" FROM "transaction_window_values"($1, 2::smallint, 'm-snap', 1::smallint, $2::timestamptz, $3::timestamptz) ORDER BY 1`,
          clientId,
          new Date(day - DAY).toISOString(),
          new Date(day + 2 * DAY).toISOString(),
        )
      ).map((v) => [v.value, Number(v.n)]);
    // three rows: a quiet day, its values read from its rows and kept nowhere
    await insertRows(clientId, [row("s0", "u1", 1), row("s1", "u1", 2), row("s2", "u2", 3)]);
    expect(await values()).toEqual([]);
    expect(await read()).toEqual([
      ["u1", 2],
      ["u2", 1],
    ]);
    const retention = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await retention.connect();
    try {
      // as retention does: a REPEATABLE READ transaction, its snapshot taken before the day is marked
      await retention.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await retention.query(`SELECT count(*) FROM "transactions" WHERE "clientId" = $1`, [clientId]);
      // the day's fourth row, from another session: the day is marked and its values counted, s0 among them
      await insertRows(clientId, [row("s3", "u3", 4)]);
      expect(await values()).toEqual([
        { value: "u1", n: 2 },
        { value: "u2", n: 1 },
        { value: "u3", n: 1 },
      ]);
      const deleted = retention.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = 's0'`, [
        clientId,
      ]);
      await expect(deleted).rejects.toMatchObject({ code: "40001" });
      await retention.query("ROLLBACK");
      // retried, it takes s0 out of the day's values
      await retention.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await retention.query(`DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = 's0'`, [clientId]);
      await retention.query("COMMIT");
    } finally {
      await retention.end();
    }
    const after = [
      { value: "u1", n: 1 },
      { value: "u2", n: 1 },
      { value: "u3", n: 1 },
    ];
    expect(await values()).toEqual(after);
    expect(await read()).toEqual(after.map((v) => [v.value, v.n]));
    expect(await mismatches()).toBe(0);
  });

  it("counts a day marked again afresh, without the values it kept before it lost its mark", async () => {
    const { clientId } = await createTestClient({ name: "Distinct, marked again" });
    await addSpec(clientId, 2, 1);
    const day = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    const row = (id: string, userId: string, hours: number): TRow => ({
      id,
      userId,
      merchantId: "m-again",
      accountId: null,
      userDeviceId: null,
      cardFingerprint: null,
      occurredAt: new Date(day + hours * HOUR).toISOString(),
    });
    const values = () =>
      prisma.$queryRawUnsafe<Array<{ value: string; n: number }>>(
        `SELECT "value", "n" FROM "transaction_distinct_values" WHERE "clientId" = $1 ORDER BY 1`,
        clientId,
      );
    await insertRows(clientId, [
      row("r0", "u1", 1),
      row("r1", "u1", 2),
      row("r2", "u2", 3),
      row("r3", "u3", 4),
    ]);
    expect(await values()).toEqual([
      { value: "u1", n: 2 },
      { value: "u2", n: 1 },
      { value: "u3", n: 1 },
    ]);
    // the mark removed with its values left behind (as retention's snapshot can), then a change they miss
    await prisma.$executeRawUnsafe(`DELETE FROM "transaction_distinct_days" WHERE "clientId" = $1`, clientId);
    await prisma.$executeRawUnsafe(
      `DELETE FROM "transactions" WHERE "clientId" = $1 AND "id" = 'r3'`,
      clientId,
    );
    expect(await values()).toHaveLength(3);
    // a row added: the day (it has its bucket) is marked again and counted from its rows alone
    await insertRows(clientId, [row("r4", "u4", 5)]);
    expect(await values()).toEqual([
      { value: "u1", n: 2 },
      { value: "u2", n: 1 },
      { value: "u4", n: 1 },
    ]);
    expect(await mismatches()).toBe(0);
  });

  it("reads a window from the day values only for whole days at or after since", async () => {
    const { clientId } = await createTestClient({ name: "Distinct bounds" });
    const D = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
    await addSpec(clientId, 4, 1);
    // day D: u1 at 00:00, u2 at 12:00; day D+1: u3 at 00:00:00.001; day D+2: u1
    const rows: TRow[] = [
      [D, "u1"],
      [D + 12 * HOUR, "u2"],
      [D + DAY + 1, "u3"],
      [D + 2 * DAY + 5 * HOUR, "u1"],
    ].map(([t, u], i) => ({
      id: `b${i}`,
      userId: u as string,
      merchantId: null,
      accountId: null,
      userDeviceId: "d-b",
      cardFingerprint: null,
      occurredAt: new Date(t as number).toISOString(),
    }));
    await insertRows(clientId, rows);
    const times = rows.map((r) => new Date(r.occurredAt).getTime());
    const bounds = [...times.flatMap((t) => [t - 1, t, t + 1]), D - DAY, D + DAY, D + 2 * DAY, D + 3 * DAY];
    let checked = 0;
    for (const from of bounds)
      for (const to of bounds) {
        if (from >= to) continue;
        const got = await prisma.$queryRawUnsafe<Array<{ value: string; n: bigint }>>(
          `SELECT "value", "n" FROM "transaction_window_values"($1, 4::smallint, 'd-b', 1::smallint, $2::timestamptz, $3::timestamptz)
           ORDER BY 1`,
          clientId,
          new Date(from).toISOString(),
          new Date(to).toISOString(),
        );
        const expected = new Map<string, number>();
        rows.forEach((r, i) => {
          if (times[i]! > from && times[i]! <= to)
            expected.set(r.userId!, (expected.get(r.userId!) ?? 0) + 1);
        });
        expect(
          got.map((g) => [g.value, Number(g.n)]),
          `(${new Date(from).toISOString()}, ${new Date(to).toISOString()}]`,
        ).toEqual([...expected.entries()].sort());
        checked++;
      }
    expect(checked).toBeGreaterThan(100);
  });
});
