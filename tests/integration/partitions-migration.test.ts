import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery, databaseUrl } from "@/tests/pg-admin";
import { BUCKET_MISMATCHES_SQL } from "@/tests/support/bucket-check";

// The partitioning migration converts a database with data: applied after the release before it (the
// buckets' migration), with transactions of several months and clients, alerts, decisions and webhook
// deliveries with attempts, every row is still there afterwards, transactions, decisions and alerts are
// partitioned by month, and what the previous release relies on still holds (23505 on a duplicate id,
// updates by id, an alert's key).

const LAST_BEFORE = "20261127010000_transaction_buckets";
const dir = path.resolve("prisma/migrations");
const name = `rss_tp_${randomBytes(6).toString("hex")}`;
const migrations = readdirSync(dir)
  .filter((m) => /^\d{14}_/.test(m))
  .sort();
let db: pg.Client;

async function apply(list: string[]) {
  for (const m of list) await db.query(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
}
const count = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

const TX_COLUMNS = `("clientId", id, "userId", "merchantId", status, "currencyCode", amount, "baseAmount", "occurredAt",
  data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")`;
const insertTx = (clientId: string, id: string, userId: string, occurredAt: string, amount = 10) =>
  db.query(
    `INSERT INTO transactions ${TX_COLUMNS}
     VALUES ($1, $2, $3, 'm1', 'APPROVED', 'EUR', $4, $4, $5, '{}', 'h', 'low', 'ALLOW', now())`,
    [clientId, id, userId, amount, occurredAt],
  );

beforeAll(async () => {
  await adminQuery(`CREATE DATABASE "${name}"`);
  db = new pg.Client({ connectionString: databaseUrl(name) });
  await db.connect();
  await apply(migrations.filter((m) => m <= LAST_BEFORE));
}, 120_000);

afterAll(async () => {
  await db.end();
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe("migrations partitioning transactions, decisions and alerts by month", () => {
  it("keeps every row, partitions by month and keeps what the previous release relies on", async () => {
    for (const c of ["c1", "c2"])
      await db.query(`INSERT INTO clients (id, name, type, "updatedAt") VALUES ($1, $1, 'consumer', now())`, [
        c,
      ]);
    // 2 clients x 4 users x 9 months (2025-03 .. 2025-11), 3 a month each, some on a month's first instant
    const months = Array.from({ length: 9 }, (_, i) => `2025-${String(3 + i).padStart(2, "0")}`);
    for (const c of ["c1", "c2"])
      for (const [i, m] of months.entries())
        for (let u = 0; u < 4; u++)
          for (let k = 0; k < 3; k++)
            await insertTx(
              c,
              `${c}-${m}-${u}-${k}`,
              `u${u}`,
              k === 0 ? `${m}-01T00:00:00Z` : `${m}-${10 + k}T0${u}:30:00Z`,
              i * 100 + u * 10 + k,
            );
    await db.query(
      `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
         level, reason, "recommendedAction", "createdAt")
       SELECT 'a-' || t.id, t."clientId", t.id, t."userId", 'R1', 'r1', 'v1', 'Rule', 'high', 'r', 'REVIEW', t."occurredAt"
       FROM transactions t WHERE t.id LIKE '%-0'`,
    );
    await db.query(
      `INSERT INTO decisions (id, "clientId", "subjectType", "subjectId", "riskLevel", "recommendedAction", evaluated,
         aggregates, input, response, "durationMs", "createdAt")
       SELECT 'd-' || t.id, t."clientId", 'transaction', t.id, 'low', 'ALLOW', '[]', '{}', '{}', '{}', 1, t."occurredAt"
       FROM transactions t`,
    );
    await db.query(
      `INSERT INTO webhook_deliveries (id, "clientId", "subscriptionId", "outboxEventId", "eventType", body, "createdAt")
       SELECT 'w-' || t.id, t."clientId", 's1', 'e-' || t.id, 'transaction.screened', '{}', t."occurredAt"
       FROM transactions t WHERE t.id LIKE '%-1'`,
    );
    await db.query(
      `INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus")
       SELECT 'wa-' || w.id || '-' || n, w.id, n, w."createdAt", 5, 500 FROM webhook_deliveries w, generate_series(1, 2) n`,
    );
    const before = {
      transactions: await count(`SELECT count(*) AS n FROM transactions`),
      alerts: await count(`SELECT count(*) AS n FROM alerts`),
      decisions: await count(`SELECT count(*) AS n FROM decisions`),
      deliveries: await count(`SELECT count(*) AS n FROM webhook_deliveries`),
      attempts: await count(`SELECT count(*) AS n FROM webhook_attempts`),
    };
    expect(before).toEqual({ transactions: 216, alerts: 72, decisions: 216, deliveries: 72, attempts: 144 });
    const rowsBefore = await db.query(`SELECT * FROM transactions ORDER BY "clientId", id`);
    const decisionsBefore = await db.query(`SELECT * FROM decisions ORDER BY id`);
    const alertsBefore = await db.query(`SELECT * FROM alerts ORDER BY id`);
    const bucketsBefore = await db.query(`SELECT * FROM transaction_buckets ORDER BY 1, 2, 3, 4, 5`);
    expect(await count(BUCKET_MISMATCHES_SQL.replace('"mismatches"', "n"))).toBe(0);

    await apply(migrations.filter((m) => m > LAST_BEFORE));

    // every row, unchanged; the buckets as they were, less the quiet days' (fewer than 4 rows: read from their rows
    // since 20261128130000_transaction_buckets_busy_days)
    expect((await db.query(`SELECT * FROM transactions ORDER BY "clientId", id`)).rows).toEqual(
      rowsBefore.rows,
    );
    expect((await db.query(`SELECT * FROM decisions ORDER BY id`)).rows).toEqual(decisionsBefore.rows);
    expect((await db.query(`SELECT * FROM alerts ORDER BY id`)).rows).toEqual(alertsBefore.rows);
    const busy = bucketsBefore.rows.filter(
      (b: { minutes: number; count: string; denseXid: string | null }) =>
        b.minutes !== 1440 || Number(b.count) >= 4 || b.denseXid !== null,
    );
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length).toBeLessThan(bucketsBefore.rows.length);
    expect((await db.query(`SELECT * FROM transaction_buckets ORDER BY 1, 2, 3, 4, 5`)).rows).toEqual(busy);
    expect({
      transactions: await count(`SELECT count(*) AS n FROM transactions`),
      alerts: await count(`SELECT count(*) AS n FROM alerts`),
      decisions: await count(`SELECT count(*) AS n FROM decisions`),
      deliveries: await count(`SELECT count(*) AS n FROM webhook_deliveries`),
      attempts: await count(`SELECT count(*) AS n FROM webhook_attempts`),
    }).toEqual(before);
    expect(await count(`SELECT count(*) AS n FROM transaction_keys`)).toBe(216);

    // partitioned by range of "occurredAt", one partition per month of data up to three months ahead, and
    // each month's rows in its own partition (none in the default one)
    const { rows: part } = await db.query<{ strategy: string; key: string }>(
      `SELECT p.partstrat AS strategy, pg_get_partkeydef(p.partrelid) AS key
       FROM pg_partitioned_table p WHERE p.partrelid = 'transactions'::regclass`,
    );
    expect(part).toEqual([{ strategy: "r", key: 'RANGE ("occurredAt")' }]);
    const { rows: parts } = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'transactions'::regclass ORDER BY 1`,
    );
    const names = parts.map((p) => p.name);
    expect(names).toContain("transactions_default");
    for (const m of months) expect(names).toContain(`transactions_p${m.replace("-", "_")}`);
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
    expect(names).toContain(
      `transactions_p${ahead.getUTCFullYear()}_${String(ahead.getUTCMonth() + 1).padStart(2, "0")}`,
    );
    const { rows: decisionsPart } = await db.query<{ key: string }>(
      `SELECT pg_get_partkeydef(p.partrelid) AS key FROM pg_partitioned_table p
       WHERE p.partrelid = 'decisions'::regclass`,
    );
    expect(decisionsPart).toEqual([{ key: 'RANGE ("createdAt")' }]);
    const { rows: alertsPlaced } = await db.query<{ part: string; month: string }>(
      `SELECT DISTINCT tableoid::regclass::text AS part, to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY_MM') AS month
       FROM alerts ORDER BY 1`,
    );
    expect(alertsPlaced).toHaveLength(9);
    for (const p of alertsPlaced) expect(p.part).toBe(`alerts_p${p.month}`);
    expect(
      (
        await db.query(
          `SELECT DISTINCT tableoid::regclass::text AS part FROM decisions
           WHERE to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY_MM') = '2025_07'`,
        )
      ).rows,
    ).toEqual([{ part: "decisions_p2025_07" }]);
    const { rows: placed } = await db.query<{ part: string; month: string; n: string }>(
      `SELECT tableoid::regclass::text AS part, to_char("occurredAt" AT TIME ZONE 'UTC', 'YYYY_MM') AS month,
         count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(placed).toHaveLength(9);
    for (const p of placed) expect(p.part).toBe(`transactions_p${p.month}`);

    // the previous release's insert of an id already used: 23505, also for another month
    await expect(insertTx("c1", "c1-2025-05-1-1", "u1", "2025-05-20T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
    });
    await expect(insertTx("c1", "c1-2025-05-1-1", "u1", "2025-10-20T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
    });
    // another client may use the same id
    await insertTx("c2", "c1-2025-05-1-1", "u1", "2025-05-20T00:00:00Z");

    // an update by (clientId, id) that moves the row to another month: moved, its key kept, buckets exact
    const moved = await db.query(
      `UPDATE transactions SET "occurredAt" = '2025-09-15T12:00:00Z', amount = 777 WHERE "clientId" = 'c1' AND id = 'c1-2025-04-2-2'`,
    );
    expect(moved.rowCount).toBe(1);
    const { rows: after } = await db.query<{ part: string }>(
      `SELECT tableoid::regclass::text AS part FROM transactions WHERE "clientId" = 'c1' AND id = 'c1-2025-04-2-2'`,
    );
    expect(after).toEqual([{ part: "transactions_p2025_09" }]);
    await expect(insertTx("c1", "c1-2025-04-2-2", "u2", "2025-04-12T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
    });
    // a row of a month without a partition goes to the default partition, and moves out when its month is made
    await insertTx("c1", "far-future", "u1", "2031-02-03T04:05:06Z", 5);
    await insertTx("c2", "far-past", "u1", "2001-01-01T00:00:00Z", 6);
    expect(
      await count(`SELECT count(*) AS n FROM transactions_default WHERE id IN ('far-future', 'far-past')`),
    ).toBe(2);
    const { rows: made } = await db.query<{ p: string }>(`SELECT p FROM month_partitions_ensure(3, now()) p`);
    expect(made.map((r) => r.p).sort()).toEqual(["transactions_p2001_01", "transactions_p2031_02"]);
    // alerts too, their keys kept while they move
    await db.query(
      `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
         level, reason, "recommendedAction", "createdAt")
       VALUES ('a-far-future', 'c1', 'far-future', 'u1', 'R1', 'r1', 'v1', 'Rule', 'high', 'r', 'REVIEW', '2031-02-03T04:05:06Z')`,
    );
    expect(await count(`SELECT count(*) AS n FROM alerts_default`)).toBe(1);
    const keysBefore = await count(`SELECT count(*) AS n FROM alert_keys`);
    expect((await db.query(`SELECT p FROM month_partitions_ensure(3, now()) p`)).rows).toEqual([
      { p: "alerts_p2031_02" },
    ]);
    expect(await count(`SELECT count(*) AS n FROM alerts_default`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM alert_keys`)).toBe(keysBefore);
    await db.query(`DELETE FROM alerts WHERE id = 'a-far-future'`);
    expect(await count(`SELECT count(*) AS n FROM alert_keys`)).toBe(keysBefore - 1);
    expect(await count(`SELECT count(*) AS n FROM transactions_default`)).toBe(0);
    expect(
      (await db.query(`SELECT tableoid::regclass::text AS part FROM transactions WHERE id = 'far-future'`))
        .rows,
    ).toEqual([{ part: "transactions_p2031_02" }]);
    await expect(insertTx("c1", "far-future", "u1", "2025-06-01T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
    });
    expect((await db.query(`SELECT p FROM month_partitions_ensure(3, now()) p`)).rows).toEqual([]);
    // a deleted transaction's id may be used again
    await db.query(`DELETE FROM transactions WHERE "clientId" = 'c2' AND id = 'far-past'`);
    await insertTx("c2", "far-past", "u1", "2025-06-01T00:00:00Z");
    // the key does not change
    await expect(
      db.query(`UPDATE transactions SET id = 'renamed' WHERE "clientId" = 'c1' AND id = 'far-future'`),
    ).rejects.toMatchObject({ code: "23514" });

    expect(await count(`SELECT count(*) AS n FROM transaction_keys`)).toBe(
      await count(`SELECT count(*) AS n FROM transactions`),
    );

    // alerts: their key is kept by alert_keys; a second alert of a transaction and rule is skipped, with a
    // target-less ON CONFLICT (the previous release) as without one, and joins no case; the conflict target of
    // the release before the expand step has no unique index to name any more (the contract)
    expect(await count(`SELECT count(*) AS n FROM alert_keys`)).toBe(72);
    const alertCount = () => count(`SELECT coalesce(sum("alertCount"), 0) AS n FROM cases`);
    const casesBefore = await alertCount();
    const alert = (id: string, conflict: string) =>
      db.query(
        `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
           level, reason, "recommendedAction")
         VALUES ($1, 'c1', 'c1-2025-05-1-0', 'u1', 'R1', 'r1', 'v1', 'Rule', 'high', 'r', 'REVIEW') ${conflict}
         RETURNING id`,
        [id],
      );
    await expect(
      alert("dup-1", `ON CONFLICT ("clientId", "transactionId", "ruleRef") DO NOTHING`),
    ).rejects.toMatchObject({ code: "42P10" });
    expect((await alert("dup-2", "ON CONFLICT DO NOTHING")).rows).toEqual([]);
    expect((await alert("dup-3", "")).rows).toEqual([]);
    expect(await alertCount()).toBe(casesBefore);
    expect(
      (
        await db.query(
          `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
             level, reason, "recommendedAction")
           VALUES ('new-1', 'c1', 'c1-2025-05-1-0', 'u1', 'R2', 'r2', 'v1', 'Rule', 'high', 'r', 'REVIEW') RETURNING id`,
        )
      ).rows,
    ).toEqual([{ id: "new-1" }]);
    expect(await alertCount()).toBe(casesBefore + 1);
    expect(await count(`SELECT count(*) AS n FROM alert_keys`)).toBe(73);
    expect(await count(BUCKET_MISMATCHES_SQL.replace('"mismatches"', "n"))).toBe(0);
  }, 120_000);
});
