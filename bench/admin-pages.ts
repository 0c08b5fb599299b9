// Admin dashboard data loads at volume: rules list with hit counts (100,000 alerts), webhook
// delivery log (100,000 deliveries, 3 attempts each), API keys, and a backtest batch over 1,000,000
// transactions. Reuses the reviewer bench database when it is seeded (bench/dashboard-seed.ts),
// otherwise seeds one with generate_series.
// Usage: npx vitest run --config bench/admin-pages.config.ts
// (through vitest rather than tsx: tsx's ESM loader cannot load next-auth's CJS provider that the
// session module imports.)
// Environment: ADMIN_BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench).
import pg from "pg";
import { freshDatabase } from "./fresh-database";

const DB_URL =
  process.env.ADMIN_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench";
const RUNS = 7;
const DELIVERIES = 100_000;

function log(msg: string) {
  console.log(`[admin-bench] ${msg}`);
}

async function sql(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function seededClient(): Promise<string | null> {
  try {
    const { rows } = await sql(DB_URL, `SELECT client_id FROM bench_state LIMIT 1`);
    return (rows[0] as { client_id: string } | undefined)?.client_id ?? null;
  } catch {
    return null;
  }
}

async function seedBase(): Promise<string> {
  await freshDatabase(DB_URL);
  const { createClient } = await import("@/lib/clients/create-client");
  const { seedDemoRules } = await import("@/lib/rules/demo-rules");
  const { prisma } = await import("@/lib/db");
  const { clientId } = await createClient({ name: "Admin bench", type: "consumer", features: [] });
  await seedDemoRules(clientId);
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", status, "currencyCode", amount, "occurredAt", data, "bodyHash",
      "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${clientId}', 'tx-' || g, 'user-' || (g % 100000), 'APPROVED', 'EUR', (g % 20000) + 0.5,
      now() - (g * interval '2.592 seconds'),
      jsonb_build_object('id', 'tx-' || g, 'userId', 'user-' || (g % 100000), 'amount', (g % 20000) + 0.5,
        'currencyCode', 'EUR', 'status', 'APPROVED', 'timestamp', 0),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(0, 999999) g`);
  const rules = await prisma.rule.findMany({
    where: { clientId, subject: "transaction" },
    include: { versions: true },
  });
  const values = rules.map((r, i) => `(${i}, '${r.id}', '${r.ruleId}', '${r.versions[0]!.id}')`).join(",");
  await prisma.$executeRawUnsafe(`
    WITH r(i, ref, rid, vid) AS (VALUES ${values})
    INSERT INTO alerts (id, "clientId", "transactionId", "ruleRef", "ruleId", "ruleVersionId", "ruleName", level, reason,
      "recommendedAction", "createdAt")
    SELECT 'alert-' || g, '${clientId}', 'tx-' || (g * 10), r.ref, r.rid, r.vid, r.rid, 'high', 'seeded', 'REVIEW',
      now() - (g * 10 * interval '2.592 seconds')
    FROM generate_series(0, 99999) g JOIN r ON r.i = g % ${rules.length}`);
  await sql(
    DB_URL,
    `CREATE TABLE IF NOT EXISTS bench_state (client_id text); INSERT INTO bench_state VALUES ('${clientId}')`,
  );
  return clientId;
}

async function seedDeliveries(clientId: string): Promise<void> {
  const { rows } = await sql(
    DB_URL,
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE "clientId" = '${clientId}'`,
  );
  if ((rows[0] as { n: number }).n >= DELIVERIES) return;
  await sql(
    DB_URL,
    `INSERT INTO webhook_subscriptions (id, "clientId", url, events, "secretEncrypted")
     VALUES ('bench-sub', '${clientId}', 'https://hooks.example.test/bench', ARRAY['transaction.screened'], 'not-a-sealed-secret')
     ON CONFLICT DO NOTHING`,
  );
  // 2 % failed, 1 % pending, the rest delivered; spread over 30 days
  await sql(
    DB_URL,
    `INSERT INTO webhook_deliveries (id, "clientId", "subscriptionId", "outboxEventId", "eventType", body, status, attempts, "createdAt", "updatedAt")
     SELECT 'del-' || g, '${clientId}', 'bench-sub', 'ob-' || g, 'transaction.screened', '{}',
       CASE WHEN g % 50 = 0 THEN 'failed' WHEN g % 100 = 1 THEN 'pending' ELSE 'delivered' END, 3,
       now() - g * interval '25.92 seconds', now()
     FROM generate_series(0, ${DELIVERIES - 1}) g`,
  );
  await sql(
    DB_URL,
    `INSERT INTO webhook_attempts (id, "deliveryId", attempt, "startedAt", "durationMs", "responseStatus")
     SELECT 'att-' || g || '-' || a, 'del-' || g, a, now(), 40 + a, CASE WHEN a = 3 AND g % 50 <> 0 THEN 200 ELSE 500 END
     FROM generate_series(0, ${DELIVERIES - 1}) g, generate_series(1, 3) a`,
  );
  await sql(DB_URL, `VACUUM ANALYZE webhook_deliveries`);
  await sql(DB_URL, `VACUUM ANALYZE webhook_attempts`);
}

const DECISIONS = 300_000;

/** A week of decisions, each recording three evaluated rules, one of them a dry-run hit 5 % of the time. */
async function seedDecisions(clientId: string, shadowRef: string): Promise<void> {
  const { rows } = await sql(
    DB_URL,
    `SELECT count(*)::int AS n FROM decisions WHERE "clientId" = '${clientId}'`,
  );
  if ((rows[0] as { n: number }).n >= DECISIONS) return;
  await sql(
    DB_URL,
    `INSERT INTO decisions (id, "clientId", "subjectType", "subjectId", "riskLevel", "recommendedAction", evaluated, aggregates, input, response, "durationMs", "createdAt")
     SELECT 'dec-' || g, '${clientId}', 'transaction', 'tx-' || g, 'low', 'ALLOW',
       jsonb_build_array(
         jsonb_build_object('ruleId', 'A', 'ruleRef', 'a-ref', 'status', 'active', 'triggered', false),
         jsonb_build_object('ruleId', 'B', 'ruleRef', 'b-ref', 'status', 'active', 'triggered', g % 7 = 0),
         jsonb_build_object('ruleId', 'BENCH-SHADOW', 'ruleRef', '${shadowRef}', 'status', 'dry-run', 'triggered', g % 20 = 0)),
       '{}', '{}', '{}', 1.0, now() - g * interval '2.016 seconds'
     FROM generate_series(0, ${DECISIONS - 1}) g`,
  );
  await sql(DB_URL, `VACUUM ANALYZE decisions`);
}

async function time(label: string, fn: () => Promise<unknown>): Promise<void> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  log(
    `${label}: median ${samples[Math.floor(RUNS / 2)]!.toFixed(1)} ms, max ${samples[RUNS - 1]!.toFixed(1)} ms`,
  );
}

export async function runAdminBench(): Promise<void> {
  process.env.DATABASE_URL = DB_URL;
  const clientId = (await seededClient()) ?? (await seedBase());
  await seedDeliveries(clientId);
  const { prisma } = await import("@/lib/db");
  const { listRulesWithHits, SHADOW_SAMPLE } = await import("@/lib/admin/list-rules-with-hits");
  const { listWebhookDeliveries } = await import("@/lib/admin/webhooks");
  const { listApiKeys } = await import("@/lib/admin/api-keys");
  const { saveRule } = await import("@/lib/admin/save-rule");
  const { publishRule } = await import("@/lib/admin/change-rule-status");
  const { startBacktest, continueBacktest } = await import("@/lib/backtest/run-backtest");
  const user = { id: "bench-admin", clientId, email: "bench@admin.test", name: null, role: "admin" as const };
  const counts = await sql(
    DB_URL,
    `SELECT (SELECT count(*) FROM transactions WHERE "clientId" = '${clientId}')::int AS tx,
            (SELECT count(*) FROM alerts WHERE "clientId" = '${clientId}')::int AS alerts,
            (SELECT count(*) FROM webhook_deliveries WHERE "clientId" = '${clientId}')::int AS deliveries`,
  );
  log(`volume: ${JSON.stringify(counts.rows[0])}`);

  await time("rules list with 24h/7d hits (alerts only)", () => listRulesWithHits(user));
  if (!(await prisma.rule.findFirst({ where: { clientId, ruleId: "BENCH-SHADOW" } }))) {
    await saveRule(user, {
      definition: {
        id: "BENCH-SHADOW",
        name: "Bench dry-run",
        subject: "transaction",
        status: "dry-run",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: "bench",
        condition: "transaction.amount > 19000",
      },
    });
    await publishRule(user, { ruleId: "BENCH-SHADOW", version: 1, status: "dry-run" });
  }
  const shadow = await prisma.rule.findFirstOrThrow({ where: { clientId, ruleId: "BENCH-SHADOW" } });
  await seedDecisions(clientId, shadow.id);
  await time(
    `rules list with a dry-run rule (hits from the newest ${SHADOW_SAMPLE} of ${DECISIONS} decisions)`,
    () => listRulesWithHits(user),
  );
  await time("delivery log, first page (50)", () => listWebhookDeliveries(user, { limit: 50 }));
  await time("delivery log, failed only (50)", () =>
    listWebhookDeliveries(user, { limit: 50, status: "failed" }),
  );
  const page = await listWebhookDeliveries(user, { limit: 100 });
  await time("delivery log, next page by cursor", () =>
    listWebhookDeliveries(user, { limit: 50, before: page.nextCursor ?? undefined }),
  );
  await time("api keys", () => listApiKeys(user));

  if (!(await prisma.rule.findFirst({ where: { clientId, ruleId: "BENCH-BACKTEST" } }))) {
    await saveRule(user, {
      definition: {
        id: "BENCH-BACKTEST",
        name: "Bench backtest",
        subject: "transaction",
        status: "draft",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: "bench",
        condition: "transaction.amount > 15000 && aggregates.userTx24h >= 1",
        aggregates: {
          userTx24h: { function: "count", over: "transaction", groupBy: "userId", window: "24h" },
        },
      },
    });
  }
  const to = Date.now();
  const from = to - 7 * 86_400_000;
  await time("backtest start (counts the period)", () =>
    startBacktest(user, { ruleId: "BENCH-BACKTEST", from, to }),
  );
  const first = await startBacktest(user, { ruleId: "BENCH-BACKTEST", from, to });
  await time("backtest first batch (200 tx, draft only: nothing live)", () =>
    continueBacktest(user, { runId: first.id, batchSize: 200 }),
  );
  await time("backtest next batch (200 tx)", () =>
    continueBacktest(user, { runId: first.id, batchSize: 200 }),
  );
  log(`backtest period holds ${first.total} transactions`);
  await prisma.$disconnect();
}
