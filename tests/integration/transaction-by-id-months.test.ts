// A request that names a stored transaction by id costs the same whatever the number of month partitions of
// "transactions": /v1/transaction/update (with and without transactionUpdateMonitoring), GET
// /v1/transaction/{id} and GET /v1/users/transactions/{id} find the row's month in "transaction_keys" (migration
// 20261128100000_transaction_keys_occurred_at) instead of probing every month's index. Counted in the shared
// buffers of every statement PostgreSQL runs for the request (auto_explain), not timed. And the keys keep the
// row's time through inserts, changes of time, moves to another month and months made from the default
// partition, including on a database converted by the migration.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgPool, prisma } from "@/lib/db";
import { readStoredTransaction } from "@/lib/transactions/read-stored-transaction";
import * as screenRoute from "@/app/v1/transaction/route";
import * as getRoute from "@/app/v1/transaction/[id]/route";
import * as updateRoute from "@/app/v1/transaction/update/route";
import * as userRoute from "@/app/v1/users/transactions/[transactionId]/route";
import { call, createTestClient } from "@/tests/factories";
import { adminQuery, databaseUrl } from "@/tests/pg-admin";
import { type TStatementPlan, watchStatements } from "@/tests/support/statement-buffers";

const plans: TStatementPlan[] = [];
let db: pg.Client;
const apiKeys: Record<"on" | "off", string> = {} as never;

beforeAll(async () => {
  // before the pool's first connection: every connection reports its plans
  watchStatements(pgPool(), (plan) => plans.push(plan));
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  for (const [mode, features] of [
    ["on", ["transactionUpdateMonitoring"]],
    ["off", []],
  ] as const) {
    const { apiKey } = await createTestClient({ features: [...features] });
    apiKeys[mode] = apiKey;
    for (let i = 0; i < 6; i++) {
      const res = await call(screenRoute.POST, {
        apiKey,
        body: {
          id: `t${i}`,
          user: { id: `u${i}`, timestamp: Date.now() - 60_000 },
          status: "PENDING",
          currencyCode: "USD",
          amount: 10 + i,
          timestamp: Date.now() - 1000,
        },
      });
      expect(res.status).toBe(200);
    }
  }
});
afterAll(async () => {
  await db.end();
});

/** Shared buffers of every statement (nested ones too) that `work` makes PostgreSQL run. */
async function buffersOf(work: () => Promise<unknown>): Promise<number> {
  plans.length = 0;
  await work();
  return plans.reduce((sum, p) => sum + p.buffers, 0);
}

const requests = {
  "update, monitored": (id: string) =>
    call(updateRoute.POST, { apiKey: apiKeys.on, body: { transactionId: id, status: "APPROVED" } }),
  "update, not monitored": (id: string) =>
    call(updateRoute.POST, { apiKey: apiKeys.off, body: { transactionId: id, status: "APPROVED" } }),
  "the stored assessment": (id: string) => call(getRoute.GET, { apiKey: apiKeys.off, params: { id } }),
  "the transaction's user": (id: string) =>
    call(userRoute.GET, { apiKey: apiKeys.off, params: { transactionId: id } }),
};

describe("requests by transaction id", () => {
  it("read no more with 36 more month partitions, and still find the row", async () => {
    const measure = async (id: string) => {
      const out: Record<string, number> = {};
      for (const [name, request] of Object.entries(requests)) {
        // once to plan and cache, then counted
        expect((await request(`t${Number(id.slice(1)) + 3}`)).status).toBe(200);
        out[name] = await buffersOf(async () => expect((await request(id)).status).toBe(200));
      }
      return out;
    };
    const before = await measure("t0");
    const { rows: made } = await db.query<{ n: number }>(
      `SELECT count(*) FILTER (WHERE "month_partition_create"('transactions', 'occurredAt', m, 'transaction_keys',
         '"clientId", "id", "occurredAt"'))::int AS n
       FROM generate_series(timestamptz '2019-01-01 00:00Z', timestamptz '2021-12-01 00:00Z', interval '1 month') m`,
    );
    expect(made[0]!.n).toBe(36);
    const after = await measure("t1");
    for (const name of Object.keys(requests)) {
      // an index probe per month when every month was read: about 70 more, not a handful
      expect(after[name]! - before[name]!, name).toBeLessThan(12);
    }
    // the updates were applied, each with its history row
    const { rows } = await db.query<{ status: string; updates: number }>(
      `SELECT t.status, (SELECT count(*)::int FROM transaction_updates u
                          WHERE u."clientId" = t."clientId" AND u."transactionId" = t.id AND u.status = 'APPROVED') AS updates
       FROM transactions t WHERE t.id IN ('t0', 't1') ORDER BY t."clientId", t.id`,
    );
    expect(rows.map((r) => r.status)).toEqual(["APPROVED", "APPROVED", "APPROVED", "APPROVED"]);
    expect(rows.map((r) => r.updates)).toEqual([1, 1, 1, 1]);
    for (const request of Object.values(requests)) expect((await request("t-unknown")).status).toBe(404);
  });
});

const TX_COLUMNS = `("clientId", id, "userId", status, "currencyCode", amount, "occurredAt", data, "bodyHash",
  "riskLevel", "recommendedAction", "assessedAt")`;
const insertTx = (c: pg.Client, clientId: string, id: string, occurredAt: string) =>
  c.query(
    `INSERT INTO transactions ${TX_COLUMNS} VALUES ($1, $2, 'u1', 'APPROVED', 'EUR', 10, $3, '{}', 'h', 'low', 'ALLOW', now())`,
    [clientId, id, occurredAt],
  );
const keysOf = async (c: pg.Client, clientId: string) =>
  (
    await c.query<{ id: string; at: string; row: string | null }>(
      `SELECT k.id, to_char(k."occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at,
         (SELECT to_char(t."occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM transactions t
           WHERE t."clientId" = k."clientId" AND t.id = k.id) AS row
       FROM transaction_keys k WHERE k."clientId" = $1 ORDER BY k.id`,
      [clientId],
    )
  ).rows;

// the current month and the next have partitions (the job driver makes them ahead); 2015 has none
const at = (monthsAhead: number, day: number, hour: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, day, hour)).toISOString();
};

describe("transaction_keys.occurredAt", () => {
  it("is read again when the row's time changed between the key and the row", async () => {
    const { clientId } = await createTestClient();
    await insertTx(db, clientId, "r1", at(0, 3, 10));
    let reads = 0;
    const found = await readStoredTransaction(prisma, clientId, "r1", async (where) => {
      // a resubmission that replaces the row with another time, between the key's read and the row's
      if (reads++ === 0)
        await db.query(`UPDATE transactions SET "occurredAt" = $2 WHERE "clientId" = $1 AND id = 'r1'`, [
          clientId,
          at(1, 2, 9),
        ]);
      return prisma.transaction.findUnique({ where, select: { id: true, occurredAt: true } });
    });
    expect(reads).toBe(2);
    expect(found?.row.occurredAt.toISOString()).toBe(at(1, 2, 9));
    const unknown = await readStoredTransaction(prisma, clientId, "r-unknown", (where) =>
      prisma.transaction.findUnique({ where }),
    );
    expect(unknown).toBeNull();
  });

  it("follows the row: insert, a new time in its month or in another, a month made from the default partition, delete", async () => {
    const { clientId } = await createTestClient();
    const shown = (iso: string) => iso.slice(0, 16).replace("T", " ");
    await insertTx(db, clientId, "k1", at(0, 3, 10));
    await insertTx(db, clientId, "k2", at(0, 4, 10));
    await insertTx(db, clientId, "k3", "2015-01-05T10:00:00.000Z");
    await db.query(`UPDATE transactions SET "occurredAt" = $2 WHERE "clientId" = $1 AND id = 'k1'`, [
      clientId,
      at(0, 20, 8),
    ]);
    await db.query(`UPDATE transactions SET "occurredAt" = $2 WHERE "clientId" = $1 AND id = 'k2'`, [
      clientId,
      at(1, 2, 9),
    ]);
    const { rows: moved } = await db.query<{ part: string }>(
      `SELECT tableoid::regclass::text AS part FROM transactions WHERE "clientId" = $1 ORDER BY id`,
      [clientId],
    );
    expect(moved.map((m) => m.part)).toEqual([
      `transactions_p${at(0, 1, 0).slice(0, 7).replace("-", "_")}`,
      `transactions_p${at(1, 1, 0).slice(0, 7).replace("-", "_")}`,
      "transactions_default",
    ]);
    const { rows: made } = await db.query<{ p: string }>(
      `SELECT p FROM month_partitions_ensure(0, timestamptz '2015-01-15 00:00Z') p WHERE p LIKE 'transactions%'`,
    );
    expect(made.map((m) => m.p)).toEqual(["transactions_p2015_01"]);
    expect(await keysOf(db, clientId)).toEqual([
      { id: "k1", at: shown(at(0, 20, 8)), row: shown(at(0, 20, 8)) },
      { id: "k2", at: shown(at(1, 2, 9)), row: shown(at(1, 2, 9)) },
      { id: "k3", at: "2015-01-05 10:00", row: "2015-01-05 10:00" },
    ]);
    // a used id is still refused, and a delete takes its key along
    await expect(insertTx(db, clientId, "k1", at(0, 9, 10))).rejects.toMatchObject({
      code: "23505",
      constraint: "transaction_keys_pkey",
    });
    await db.query(`DELETE FROM transactions WHERE "clientId" = $1 AND id = 'k2'`, [clientId]);
    expect((await keysOf(db, clientId)).map((k) => k.id)).toEqual(["k1", "k3"]);
  });

  it("is filled by the migration for the rows already stored", async () => {
    const dir = path.resolve("prisma/migrations");
    const all = readdirSync(dir)
      .filter((m) => /^\d{14}_/.test(m))
      .sort();
    const LAST_BEFORE = "20261128060000_job_wakeup_after_commit";
    const name = `rss_tk_${randomBytes(6).toString("hex")}`;
    await adminQuery(`CREATE DATABASE "${name}"`);
    const old = new pg.Client({ connectionString: databaseUrl(name) });
    await old.connect();
    try {
      const apply = async (list: string[]) => {
        for (const m of list) await old.query(readFileSync(path.join(dir, m, "migration.sql"), "utf8"));
      };
      await apply(all.filter((m) => m <= LAST_BEFORE));
      await old.query(
        `INSERT INTO clients (id, name, type, "updatedAt") VALUES ('c1', 'c1', 'consumer', now())`,
      );
      await insertTx(old, "c1", "a", "2026-09-03 10:00Z");
      await insertTx(old, "c1", "b", "2015-01-05 10:00Z");
      await apply(all.filter((m) => m > LAST_BEFORE));
      expect(await keysOf(old, "c1")).toEqual([
        { id: "a", at: "2026-09-03 10:00", row: "2026-09-03 10:00" },
        { id: "b", at: "2015-01-05 10:00", row: "2015-01-05 10:00" },
      ]);
      await expect(insertTx(old, "c1", "a", "2026-11-01 10:00Z")).rejects.toMatchObject({ code: "23505" });
      const { rows } = await old.query(`SELECT "row" ->> 'id' AS id FROM "transaction_versioned"('c1', 'b')`);
      expect(rows).toEqual([{ id: "b" }]);
    } finally {
      await old.end();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});
