import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery, databaseUrl } from "@/tests/pg-admin";

// Migration 20261127060100_webhook_deliveries_partitioned converts a database with deliveries and attempts:
// every row is still there, each in its month's partition, and what the old tables enforced for the previous
// release still holds (23505 on a second delivery of an outbox event to a subscription, 23503 on an attempt of
// a missing delivery, a delivery's attempts deleted with it).

const MIGRATION = "20261127060100_webhook_deliveries_partitioned";
const dir = path.resolve("prisma/migrations");
const name = `rss_wp_${randomBytes(6).toString("hex")}`;
const migrations = readdirSync(dir)
  .filter((m) => /^\d{14}_/.test(m))
  .sort();
let db: pg.Client;

async function apply(list: string[]) {
  for (const m of list) await db.query(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
}
const count = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);
const partOf = async (table: string, id: string) =>
  (
    await db.query<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM ${table} WHERE id = $1`, [
      id,
    ])
  ).rows;

// the previous release's inserts (lib/screening/sql/webhook-rows.ts, lib/webhooks/record-delivery-attempt.ts)
const insertDelivery = (id: string, outboxEventId: string, subscriptionId = "s1", createdAt?: string) =>
  db.query(
    `INSERT INTO "webhook_deliveries" ("id", "clientId", "subscriptionId", "outboxEventId", "eventType", "body",
       "nextAttemptAt"${createdAt ? `, "createdAt"` : ""})
     VALUES ($1, 'c1', $2, $3, 'transaction.screened', '{}', now()${createdAt ? ", $4" : ""})`,
    createdAt ? [id, subscriptionId, outboxEventId, createdAt] : [id, subscriptionId, outboxEventId],
  );
const insertAttempt = (deliveryId: string, attempt: number, startedAt: string) =>
  db.query(
    `INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus", error)
     SELECT gen_random_uuid()::text, a."deliveryId", a.attempt, a."startedAt", 5, 500, NULL
     FROM (VALUES ($1::text, $2::int, $3::timestamptz)) AS a("deliveryId", attempt, "startedAt")
     WHERE NOT EXISTS (SELECT 1 FROM webhook_attempts w WHERE w."deliveryId" = a."deliveryId" AND w.attempt = a.attempt)`,
    [deliveryId, attempt, startedAt],
  );

beforeAll(async () => {
  await adminQuery(`CREATE DATABASE "${name}"`);
  db = new pg.Client({ connectionString: databaseUrl(name) });
  await db.connect();
  await apply(migrations.filter((m) => m < MIGRATION));
}, 120_000);

afterAll(async () => {
  await db.end();
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe(`migration ${MIGRATION}`, () => {
  it("keeps every delivery and attempt, partitions both by month and keeps their keys and cascade", async () => {
    // 6 months (2025-05 .. 2025-10) x 5 deliveries, 2 attempts each, the second of a month's last delivery in the
    // next month; one delivery on a month's first instant
    const months = Array.from({ length: 6 }, (_, i) => `2025-${String(5 + i).padStart(2, "0")}`);
    for (const m of months)
      for (let k = 0; k < 5; k++) {
        const id = `d-${m}-${k}`;
        const createdAt =
          k === 0 ? `${m}-01T00:00:00Z` : k === 4 ? `${m}-28T23:59:00Z` : `${m}-1${k}T10:00:00Z`;
        await insertDelivery(id, `e-${m}-${k}`, "s1", createdAt);
        await insertAttempt(id, 1, createdAt);
        await insertAttempt(id, 2, k === 4 ? `${m}-28T23:59:00Z` : createdAt);
      }
    await db.query(
      `UPDATE webhook_attempts SET "startedAt" = "startedAt" + interval '4 days'
       WHERE "deliveryId" LIKE '%-4' AND attempt = 2`,
    );
    const deliveriesBefore = (await db.query(`SELECT * FROM webhook_deliveries ORDER BY id`)).rows;
    const attemptsBefore = (await db.query(`SELECT * FROM webhook_attempts ORDER BY id`)).rows;
    expect([deliveriesBefore.length, attemptsBefore.length]).toEqual([30, 60]);

    await apply(migrations.filter((m) => m >= MIGRATION));

    // every row, unchanged
    expect((await db.query(`SELECT * FROM webhook_deliveries ORDER BY id`)).rows).toEqual(deliveriesBefore);
    expect((await db.query(`SELECT * FROM webhook_attempts ORDER BY id`)).rows).toEqual(attemptsBefore);
    expect(await count(`SELECT count(*) AS n FROM webhook_delivery_keys`)).toBe(30);

    // partitioned by range, one partition per month of data to three months ahead, each row in its month's
    const { rows: keys } = await db.query<{ table: string; key: string }>(
      `SELECT p.partrelid::regclass::text AS table, pg_get_partkeydef(p.partrelid) AS key FROM pg_partitioned_table p
       WHERE p.partrelid IN ('webhook_deliveries'::regclass, 'webhook_attempts'::regclass) ORDER BY 1`,
    );
    expect(keys).toEqual([
      { table: "webhook_attempts", key: 'RANGE ("startedAt")' },
      { table: "webhook_deliveries", key: 'RANGE ("createdAt")' },
    ]);
    const { rows: placed } = await db.query<{ part: string; month: string }>(
      `SELECT DISTINCT tableoid::regclass::text AS part, to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY_MM') AS month
       FROM webhook_deliveries UNION ALL
       SELECT DISTINCT tableoid::regclass::text, to_char("startedAt" AT TIME ZONE 'UTC', 'YYYY_MM') FROM webhook_attempts`,
    );
    expect(placed).toHaveLength(6 + 7);
    for (const p of placed) expect(p.part).toMatch(new RegExp(`^webhook_(deliveries|attempts)_p${p.month}$`));
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
    const aheadName = `${ahead.getUTCFullYear()}_${String(ahead.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(
      await count(`SELECT count(*) AS n FROM pg_class WHERE relname = ANY($1)`, [
        [`webhook_deliveries_p${aheadName}`, `webhook_attempts_p${aheadName}`],
      ]),
    ).toBe(2);
    // every index of the old tables, on the new ones
    const { rows: indexes } = await db.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('webhook_deliveries', 'webhook_attempts') ORDER BY 1`,
    );
    expect(indexes.map((i) => i.name)).toEqual([
      "webhook_attempts_deliveryId_attempt_idx",
      "webhook_attempts_pkey",
      "webhook_deliveries_clientId_createdAt_idx",
      "webhook_deliveries_pending_due_idx",
      "webhook_deliveries_pkey",
      "webhook_deliveries_subscriptionId_createdAt_idx",
    ]);

    // a new delivery lands in its month's partition
    await insertDelivery("new-1", "e-new-1");
    const now = new Date();
    const thisMonth = `${now.getUTCFullYear()}_${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(await partOf("webhook_deliveries", "new-1")).toEqual([
      { part: `webhook_deliveries_p${thisMonth}` },
    ]);

    // a second delivery of an outbox event to a subscription: 23505, as on the old unique index, in any month;
    // another subscription of the same event is another delivery
    await expect(insertDelivery("dup-1", "e-2025-07-2")).rejects.toMatchObject({ code: "23505" });
    await expect(insertDelivery("dup-2", "e-2025-07-2", "s1", "2025-09-01T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
    });
    await insertDelivery("other-sub", "e-2025-07-2", "s2");
    // a delivery id used again: 23505 too (the old primary key)
    await expect(
      insertDelivery("d-2025-07-2", "e-other", "s1", "2025-10-01T00:00:00Z"),
    ).rejects.toMatchObject({
      code: "23505",
    });
    // the key does not change
    await expect(
      db.query(`UPDATE webhook_deliveries SET "outboxEventId" = 'x' WHERE id = 'd-2025-06-1'`),
    ).rejects.toMatchObject({ code: "23514" });

    // the previous release's updates by id; an attempt of a missing delivery: 23503, as the foreign key did
    const updated = await db.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = 3, "updatedAt" = now() WHERE id = 'd-2025-06-1'`,
    );
    expect(updated.rowCount).toBe(1);
    await insertAttempt("d-2025-06-1", 3, "2025-06-11T10:05:00Z");
    expect(await count(`SELECT count(*) AS n FROM webhook_attempts WHERE "deliveryId" = 'd-2025-06-1'`)).toBe(
      3,
    );
    await expect(insertAttempt("missing", 1, "2025-06-11T10:05:00Z")).rejects.toMatchObject({
      code: "23503",
      constraint: "webhook_attempts_deliveryId_fkey",
    });
    await expect(
      db.query(`UPDATE webhook_attempts SET "deliveryId" = 'missing' WHERE "deliveryId" = 'd-2025-06-1'`),
    ).rejects.toMatchObject({ code: "23503" });

    // a delivery moved to another month keeps its attempts; a deleted one takes its attempts with it
    await db.query(
      `UPDATE webhook_deliveries SET "createdAt" = '2025-10-15T00:00:00Z' WHERE id = 'd-2025-05-2'`,
    );
    expect(await partOf("webhook_deliveries", "d-2025-05-2")).toEqual([
      { part: "webhook_deliveries_p2025_10" },
    ]);
    expect(await count(`SELECT count(*) AS n FROM webhook_attempts WHERE "deliveryId" = 'd-2025-05-2'`)).toBe(
      2,
    );
    const deleted = await db.query(
      `DELETE FROM webhook_deliveries WHERE id IN ('d-2025-08-4', 'd-2025-09-0')`,
    );
    expect(deleted.rowCount).toBe(2);
    expect(
      await count(
        `SELECT count(*) AS n FROM webhook_attempts WHERE "deliveryId" IN ('d-2025-08-4', 'd-2025-09-0')`,
      ),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM webhook_attempts`)).toBe(60 + 1 - 4);
    // its outbox event may be delivered to that subscription again
    await insertDelivery("again", "e-2025-08-4");

    // a delivery of a month without a partition goes to the default one with its attempts, and moves out (with
    // its key; its attempts stay) when month_partitions_ensure makes its month, as for every partitioned table
    await insertDelivery("far", "e-far", "s1", "2031-02-03T04:05:06Z");
    await insertAttempt("far", 1, "2031-02-03T04:05:07Z");
    expect(await partOf("webhook_deliveries", "far")).toEqual([{ part: "webhook_deliveries_default" }]);
    const { rows: made } = await db.query<{ p: string }>(`SELECT p FROM month_partitions_ensure(3, now()) p`);
    expect(made.map((r) => r.p).sort()).toEqual(["webhook_attempts_p2031_02", "webhook_deliveries_p2031_02"]);
    expect(await partOf("webhook_deliveries", "far")).toEqual([{ part: "webhook_deliveries_p2031_02" }]);
    expect(await count(`SELECT count(*) AS n FROM webhook_attempts WHERE "deliveryId" = 'far'`)).toBe(1);
    await expect(insertDelivery("far-2", "e-far")).rejects.toMatchObject({ code: "23505" });
    await insertAttempt("far", 2, "2031-02-03T04:06:07Z");

    // month_partitions_ensure makes the months of every partitioned table (alerts: 20261127060000)
    const { rows: partitioned } = await db.query<{ table: string }>(
      `SELECT p.partrelid::regclass::text AS table FROM pg_partitioned_table p ORDER BY 1`,
    );
    const tables = partitioned.map((p) => p.table);
    expect(tables).toEqual(
      expect.arrayContaining(["decisions", "transactions", "webhook_attempts", "webhook_deliveries"]),
    );
    const { rows: madeAhead } = await db.query<{ p: string }>(
      `SELECT p FROM month_partitions_ensure(0, '2033-05-10T00:00:00Z') p`,
    );
    expect(madeAhead.map((r) => r.p).sort()).toEqual(tables.map((t) => `${t}_p2033_05`));

    // TRUNCATE of the deliveries empties the attempts and the keys (the foreign key refused it without them)
    await db.query(`TRUNCATE webhook_deliveries`);
    expect(await count(`SELECT count(*) AS n FROM webhook_attempts`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM webhook_delivery_keys`)).toBe(0);
    await insertDelivery("d-2025-07-2", "e-2025-07-2");
    await insertAttempt("d-2025-07-2", 1, new Date().toISOString());
    // and of both tables at once, as the foreign key required
    await db.query(`TRUNCATE webhook_attempts, webhook_deliveries`);
    expect(await count(`SELECT count(*) AS n FROM webhook_delivery_keys`)).toBe(0);
    await insertDelivery("d-2025-07-2", "e-2025-07-2");
  }, 120_000);
});
