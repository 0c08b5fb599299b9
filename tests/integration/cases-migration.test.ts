import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery, databaseUrl } from "@/tests/pg-admin";

// The cases migration places the alerts that existed before it: one case per user (or merchant), closed
// with an outcome when every alert had been reviewed, open otherwise; and then the trigger takes over.

const MIGRATION = "20261125040000_cases";
const dir = path.resolve("prisma/migrations");
const name = `rss_tm_${randomBytes(6).toString("hex")}`;
let db: pg.Client;

async function apply(migration: string) {
  await db.query(readFileSync(path.join(dir, migration, "migration.sql"), "utf8"));
}

beforeAll(async () => {
  await adminQuery(`CREATE DATABASE "${name}"`);
  db = new pg.Client({ connectionString: databaseUrl(name) });
  await db.connect();
  const before = readdirSync(dir)
    .filter((m) => /^\d{14}_/.test(m) && m < MIGRATION)
    .sort();
  for (const m of before) await apply(m);
});

afterAll(async () => {
  await db.end();
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

describe("migration 20261125040000_cases", () => {
  it("assigns every pre-existing alert to a case of its user or merchant", async () => {
    await db.query(`INSERT INTO clients (id, name, type, "updatedAt") VALUES ('c1', 'C', 'consumer', now())`);
    const tx = (id: string, userId: string | null, merchantId: string | null) =>
      db.query(
        `INSERT INTO transactions ("clientId", id, "userId", "merchantId", status, "currencyCode", amount, "occurredAt",
           data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
         VALUES ('c1', $1, $2, $3, 'APPROVED', 'EUR', 100, now(), '{}', 'h', 'high', 'REVIEW', now())`,
        [id, userId, merchantId],
      );
    await tx("t-open-1", "u-open", null);
    await tx("t-open-2", "u-open", null);
    await tx("t-done", "u-done", null);
    await tx("t-shop", null, "shop-9");
    const alert = (
      id: string,
      transactionId: string,
      userId: string | null,
      level: string,
      status: string,
      minutesAgo: number,
    ) =>
      db.query(
        `INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
           level, reason, "recommendedAction", status, "reviewedAt", "createdAt")
         VALUES ($1, 'c1', $2, $3, $1, $1, 'v', 'Rule', $4, 'r', 'REVIEW', $5, $6, $7)`,
        [
          id,
          transactionId,
          userId,
          level,
          status,
          status === "open" ? null : at(minutesAgo - 1),
          at(minutesAgo),
        ],
      );
    await alert("a1", "t-open-1", "u-open", "medium", "cleared", 50);
    await alert("a2", "t-open-2", "u-open", "very_high", "open", 40);
    await alert("a3", "t-done", "u-done", "high", "confirmed", 30);
    await alert("a4", "t-done", "u-done", "low", "cleared", 20);
    await alert("a5", "t-shop", null, "medium", "escalated", 10);

    await apply(MIGRATION);

    const { rows: cases } = await db.query<{
      id: string;
      subjectType: string;
      subjectId: string;
      status: string;
      priority: string;
      outcome: string | null;
      alertCount: number;
      dueAt: Date;
      createdAt: Date;
    }>(`SELECT * FROM cases ORDER BY "subjectId"`);
    expect(
      cases.map((c) => [c.subjectType, c.subjectId, c.status, c.priority, c.outcome, c.alertCount]),
    ).toEqual([
      ["merchant", "shop-9", "open", "medium", null, 1],
      ["user", "u-done", "closed", "high", "confirmed_fraud", 2],
      ["user", "u-open", "open", "very_high", null, 2],
    ]);
    const open = cases.find((c) => c.subjectId === "u-open")!;
    const { rows: first } = await db.query<{ createdAt: Date }>(
      `SELECT "createdAt" FROM alerts WHERE id = 'a1'`,
    );
    expect(open.createdAt).toEqual(first[0]!.createdAt); // its first alert's time
    expect(open.dueAt.getTime() - open.createdAt.getTime()).toBe(4 * 3_600_000); // very_high default SLA
    const { rows: alerts } = await db.query<{ id: string; caseId: string | null }>(
      `SELECT id, "caseId" FROM alerts ORDER BY id`,
    );
    const bySubject = new Map(cases.map((c) => [c.subjectId, c.id]));
    expect(alerts).toEqual([
      { id: "a1", caseId: bySubject.get("u-open") },
      { id: "a2", caseId: bySubject.get("u-open") },
      { id: "a3", caseId: bySubject.get("u-done") },
      { id: "a4", caseId: bySubject.get("u-done") },
      { id: "a5", caseId: bySubject.get("shop-9") },
    ]);
    const { rows: events } = await db.query<{ caseId: string; type: string }>(
      `SELECT "caseId", type FROM case_events ORDER BY "createdAt", type`,
    );
    expect(events.filter((e) => e.caseId === bySubject.get("u-done")).map((e) => e.type)).toEqual([
      "created",
      "closed",
    ]);

    // afterwards the trigger places new alerts: u-done's case is closed, so a new one opens; u-open's is joined
    await tx("t-new", "u-done", null);
    await alert("a6", "t-new", "u-done", "low", "open", 1);
    await alert("a7", "t-open-1", "u-open", "low", "open", 1);
    const { rows: after } = await db.query<{ id: string; caseId: string }>(
      `SELECT id, "caseId" FROM alerts WHERE id IN ('a6', 'a7') ORDER BY id`,
    );
    expect(after[0]!.caseId).not.toBe(bySubject.get("u-done"));
    expect(after[1]!.caseId).toBe(bySubject.get("u-open"));
  });
});
