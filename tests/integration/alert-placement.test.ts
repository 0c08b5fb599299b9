// Placing a new alert in its case (trigger place_alert_in_case) costs the same whatever the number of month
// partitions of "alerts": a repeated (transaction, rule) is skipped through "alert_keys", not looked up in
// every month. Counted in shared buffers of the insert (EXPLAIN ANALYZE), not timed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClient } from "@/tests/factories";

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

async function insertAlert(
  clientId: string,
  transactionId: string,
): Promise<{ buffers: number; rows: number }> {
  const { rows } = await db.query<{ "QUERY PLAN": Array<{ Plan: Record<string, number> }> }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
     INSERT INTO "alerts" ("id", "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId",
       "ruleName", "level", "reason", "recommendedAction")
     VALUES (gen_random_uuid()::text, $1, $2, 'u-placement', 'R-1@1', 'R-1', 'v1', 'Rule', 'high', 'why', 'REVIEW')`,
    [clientId, transactionId],
  );
  const plan = rows[0]!["QUERY PLAN"][0]!.Plan;
  return {
    buffers: (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0),
    rows: plan["Actual Rows"] ?? 0,
  };
}

describe("placing an alert in its case", () => {
  it("reads no more with 36 more month partitions, and still skips a repeated (transaction, rule)", async () => {
    const { clientId } = await createTestClient();
    await insertAlert(clientId, "t-warm");
    const before = await insertAlert(clientId, "t-1");
    // the months are made in a transaction that is rolled back: other tests keep the partitions they had
    await db.query("BEGIN");
    try {
      const { rows: made } = await db.query<{ n: number }>(
        `SELECT count(*) FILTER (WHERE "month_partition_create"('alerts', 'createdAt', m, 'alert_keys',
           '"clientId", "transactionId", "ruleRef"'))::int AS n
         FROM generate_series(timestamptz '2019-01-01 00:00Z', timestamptz '2021-12-01 00:00Z', interval '1 month') m`,
      );
      expect(made[0]!.n).toBe(36);
      const after = await insertAlert(clientId, "t-2");
      // about 3 buffers a month when every month's index was probed: 100 more, not a handful
      expect(after.buffers - before.buffers).toBeLessThan(12);
      const repeated = await insertAlert(clientId, "t-2");
      expect(repeated.rows).toBe(0);
      const { rows: cases } = await db.query<{ alertCount: number }>(
        `SELECT "alertCount" FROM "cases" WHERE "clientId" = $1 AND "subjectType" = 'user' AND "subjectId" = 'u-placement'`,
        [clientId],
      );
      expect(cases.map((c) => c.alertCount)).toEqual([3]);
    } finally {
      await db.query("ROLLBACK");
    }
  });
});
