// What a request that names a stored transaction by id costs as months of history are kept. "transactions" is
// partitioned by month of "occurredAt", which an id does not give: a statement by ("clientId", "id") alone is
// planned over every month partition on each execution. The service looks the row's time up in
// "transaction_keys" first (migration 20261128100000_transaction_keys_occurred_at), so that one partition is
// planned and read. In process, one call at a time, on a database made afresh with 2,000 stored transactions
// of the current month, then older month partitions added for each step:
//
//   npx tsx bench/by-id-months.ts
//
// Each step times /v1/transaction/update without and with transactionUpdateMonitoring, GET /v1/transaction/{id}
// (the stored assessment), and for comparison the update statement by id alone, as the service sent it before.
// BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_bench_months, dropped and created),
// BENCH_MONTHS (default 5,65: month partitions of "transactions" at each step), BENCH_CALLS (default 500).
import { performance } from "node:perf_hooks";
import pg from "pg";
import { freshDatabase } from "./fresh-database";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench_months";
const STEPS = (process.env.BENCH_MONTHS ?? "5,65").split(",").map(Number);
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const ROWS = 2_000;
for (const n of [...STEPS, CALLS]) {
  if (!Number.isInteger(n) || n < 1)
    throw new Error("BENCH_MONTHS and BENCH_CALLS must be whole numbers above 0");
}
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_SECRET_KEY ??= "bench-webhook-key-0123456789";

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main() {
  await freshDatabase(DB_URL);
  const db = new pg.Client({ connectionString: DB_URL });
  await db.connect();
  process.env.DATABASE_URL = DB_URL;

  const { createClient } = await import("@/lib/clients/create-client");
  const { authenticateApiKey } = await import("@/lib/auth/api-keys");
  const { pgPool } = await import("@/lib/db");
  const { updateTransaction } = await import("@/lib/screening/update-transaction");
  const { getTransactionAssessment } = await import("@/lib/transactions/get-transaction-assessment");
  const { ZTransactionUpdate } = await import("@/lib/transactions/schemas");

  const clients = {
    off: await createClient({ name: "Updates", type: "consumer", features: [] }),
    on: await createClient({
      name: "Monitored updates",
      type: "consumer",
      features: ["transactionUpdateMonitoring"],
    }),
  };
  for (const { clientId } of Object.values(clients)) {
    await db.query(
      `INSERT INTO transactions ("clientId", id, "userId", status, "currencyCode", amount, "occurredAt", data,
         "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
       SELECT $1, 't' || i, 'u' || (i % 200), 'PENDING', 'EUR', i, date_trunc('month', now()) + i * interval '1 second',
         jsonb_build_object('id', 't' || i, 'status', 'PENDING'), 'h', 'LOW', 'ALLOW', now()
       FROM generate_series(1, ${ROWS}) i`,
      [clientId],
    );
  }
  await db.query("VACUUM ANALYZE");
  const context = {
    off: (await authenticateApiKey(clients.off.apiKey))!,
    on: (await authenticateApiKey(clients.on.apiKey))!,
  };
  const pool = pgPool();
  let n = 0;
  const nextId = () => `t${1 + (n++ % ROWS)}`;
  const body = () =>
    ZTransactionUpdate.parse({ transactionId: nextId(), status: n % 2 ? "APPROVED" : "DECLINED" });
  const requests: Record<string, () => Promise<unknown>> = {
    "update, not monitored": () => updateTransaction({ client: context.off, body: body() }),
    "update, monitored": () => updateTransaction({ client: context.on, body: body() }),
    "stored assessment (GET /v1/transaction/{id})": () =>
      getTransactionAssessment({ clientId: clients.off.clientId, id: nextId() }),
    "the update statement by id alone (before)": () =>
      pool.query(`UPDATE "transactions" t SET "status" = $3 WHERE t."clientId" = $1 AND t."id" = $2`, [
        clients.off.clientId,
        nextId(),
        "APPROVED",
      ]),
  };

  const rows: string[] = [];
  for (const months of STEPS) {
    // older months' partitions until "transactions" has `months` of them
    await db.query(
      `SELECT "month_partition_create"('transactions', 'occurredAt', m, 'transaction_keys', '"clientId", "id", "occurredAt"')
       FROM generate_series(date_trunc('month', now(), 'UTC') - interval '1 month', date_trunc('month', now(), 'UTC') - interval '240 months', interval '-1 month') m
       WHERE to_regclass('transactions_p' || to_char(m AT TIME ZONE 'UTC', 'YYYY_MM')) IS NULL
       LIMIT greatest(0, $1::int - (SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'transactions' AND c.relname LIKE 'transactions_p%'))`,
      [months],
    );
    const { rows: count } = await db.query(
      `SELECT count(*)::int AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'transactions' AND c.relname LIKE 'transactions_p%'`,
    );
    for (const [what, request] of Object.entries(requests)) {
      for (let i = 0; i < 20; i++) await request();
      const ms: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        await request();
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
      const row = `| ${count[0]!.n} | ${what} | ${quantile(ms, 0.5).toFixed(2)} | ${quantile(ms, 0.95).toFixed(2)} | ${mean.toFixed(2)} |`;
      console.log(row);
      rows.push(row);
    }
  }
  console.log(`\n${CALLS} calls each, one at a time, in process (ms per call):\n`);
  console.log("| month partitions | request | p50 ms | p95 ms | mean ms |\n|---:|---|---:|---:|---:|");
  for (const row of rows) console.log(row);
  await pool.end();
  await db.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
