// Reviewer dashboard data loads at volume: seeds a scratch PostgreSQL database with N transactions
// (default 1,000,000 over 30 days, N/10 users), N/10 alerts using generate_series (placed by the database in
// N/50 cases, 5 alerts each) and one busy user with 10,000 transactions over the same 30 days, then times the
// functions behind the overview, case inbox and case page, alerts queue, transactions list, transaction page
// and user page.
// Usage: npx tsx bench/dashboard-seed.ts
// Environment: DASHBOARD_BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench),
// DASHBOARD_BENCH_ROWS (transactions of the bench client, default 1000000),
// DASHBOARD_BENCH_REUSE=1 to time an already seeded database again.
import pg from "pg";
import { freshDatabase } from "./fresh-database";

const DB_URL =
  process.env.DASHBOARD_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench";
const TRANSACTIONS = Number(process.env.DASHBOARD_BENCH_ROWS ?? 1_000_000);
if (!Number.isInteger(TRANSACTIONS / 50_000) || TRANSACTIONS < 50_000)
  throw new Error("DASHBOARD_BENCH_ROWS: a multiple of 50000");
const USERS = Math.floor(TRANSACTIONS / 10);
const ALERTS = Math.floor(TRANSACTIONS / 10);
// The seeded rows span 30 days whatever their number.
const STEP_SECONDS = (30 * 86_400) / TRANSACTIONS;
// A user with a long history, for the user page: 10,000 transactions over the same 30 days.
// Every BUSY_EVERY-th row (offset 1, so none of them has one of the alerts below) is theirs, spread through the
// table as a real customer's are.
const BUSY_USER = "user-busy";
const BUSY_TRANSACTIONS = 10_000;
const BUSY_EVERY = TRANSACTIONS / BUSY_TRANSACTIONS;
const userOf = (g: string) =>
  `CASE WHEN ${g} % ${BUSY_EVERY} = 1 THEN '${BUSY_USER}' ELSE 'user-' || (${g} % ${USERS}) END`;
// every 5th transaction of the newer half has an alert: N/50 users with 5 alerts each, so N/50 cases
const ALERT_EVERY = 5;
const RUNS = 7;

function log(msg: string) {
  console.log(`[dashboard-bench] ${msg}`);
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

async function seed(): Promise<void> {
  await freshDatabase(DB_URL);

  const { createClient } = await import("@/lib/clients/create-client");
  const { seedDemoRules } = await import("@/lib/rules/demo-rules");
  const { screenTransaction } = await import("@/lib/screening/screen-transaction");
  const { prisma } = await import("@/lib/db");
  const { clientId } = await createClient({ name: "Dashboard bench", type: "consumer", features: [] });
  // A second client's rows make every query prove it filters by client rather than scanning one tenant.
  const other = await createClient({ name: "Other tenant", type: "consumer", features: [] });
  await seedDemoRules(clientId);
  const t0 = Date.now();
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  // the month partitions of the seeded 30 days first, for every partitioned table (a row of a month without
  // its partition would go to the default one, and be moved out by the job driver's first run)
  await prisma.$executeRawUnsafe(`SELECT * FROM "month_partitions_ensure"(3, now() - interval '31 days')`);

  await prisma.$executeRawUnsafe(`
    INSERT INTO users ("clientId", id, "firstName", "lastName", email, phone, status, data, "createdAt", "updatedAt")
    SELECT '${clientId}', 'user-' || g, (array['Ana','Bruno','Chen','Dara','Eli','Fatima','Goran','Hana'])[1 + g % 8],
      'Surname' || g, 'user' || g || '@mail.test', '+3519' || lpad(g::text, 8, '0'),
      CASE WHEN g % 50 = 0 THEN 'blocked' WHEN g % 20 = 0 THEN 'inactive' ELSE 'active' END,
      jsonb_build_object('id', 'user-' || g), now() - interval '400 days' + g * interval '1 minute', now()
    FROM generate_series(0, ${USERS - 1}) g`);
  log(`users: ${USERS} (${secs()})`);

  const batch = 500_000;
  for (let start = 0; start < TRANSACTIONS; start += batch) {
    const end = Math.min(TRANSACTIONS, start + batch) - 1;
    // riskLevel mix: 80 % low, 12 % medium, 6 % high, 1.5 % very_high, 0.5 % n/a; spread over 30 days
    await prisma.$executeRawUnsafe(`
      INSERT INTO transactions ("clientId", id, "userId", "merchantId", status, direction, "paymentMethod",
        "currencyCode", amount, "occurredAt", data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt",
        "createdAt", "updatedAt")
      SELECT '${clientId}', 'tx-' || g, ${userOf("g")}, 'm' || (g % 500),
        (array['APPROVED','APPROVED','APPROVED','PENDING','DECLINED','FAILED'])[1 + g % 6],
        CASE WHEN g % 4 = 0 THEN 'payout' ELSE 'payin' END, 'card', 'EUR', (g % 20000) + 0.5,
        now() - (g * interval '${STEP_SECONDS} seconds'),
        jsonb_build_object('id', 'tx-' || g, 'userId', ${userOf("g")}, 'amount', (g % 20000) + 0.5,
          'currencyCode', 'EUR', 'status', 'APPROVED', 'paymentMethod', 'card', 'card', jsonb_build_object('bin', '411111'))
          -- the busy user pays 20 other users (the network view's counterparties)
          || CASE WHEN g % ${BUSY_EVERY} = 1 THEN jsonb_build_object('recipient', jsonb_build_object('id', 'user-' || (g % 20)))
                  ELSE '{}'::jsonb END,
        md5(g::text),
        CASE WHEN g % 200 < 160 THEN 'low' WHEN g % 200 < 184 THEN 'medium' WHEN g % 200 < 196 THEN 'high'
             WHEN g % 200 < 199 THEN 'very_high' ELSE 'n/a' END,
        CASE WHEN g % 200 < 160 THEN 'ALLOW' WHEN g % 200 < 184 THEN 'REVIEW' WHEN g % 200 < 196 THEN 'STEP_UP_ID'
             WHEN g % 200 < 199 THEN 'BLOCK' ELSE 'ALLOW' END,
        now() - (g * interval '${STEP_SECONDS} seconds'), now() - (g * interval '${STEP_SECONDS} seconds'), now()
      FROM generate_series(${start}, ${end}) g`);
    log(`transactions: ${end + 1} (${secs()})`);
  }
  await prisma.$executeRawUnsafe(`
    INSERT INTO users ("clientId", id, "firstName", "lastName", email, status, data, "createdAt", "updatedAt")
    VALUES ('${clientId}', '${BUSY_USER}', 'Busy', 'Trader', 'busy@mail.test', 'active',
      jsonb_build_object('id', '${BUSY_USER}'), now() - interval '400 days', now())`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", status, "currencyCode", amount, "occurredAt", data, "bodyHash",
      "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${other.clientId}', 'tx-' || g, 'user-' || (g % 1000), 'APPROVED', 'EUR', 10, now() - g * interval '1 minute',
      '{}'::jsonb, md5(g::text), 'very_high', 'BLOCK', now()
    FROM generate_series(0, 49999) g`);

  const rules = await prisma.rule.findMany({
    where: { clientId, subject: "transaction" },
    include: { versions: true },
  });
  const ruleRows = rules.map((r) => {
    const v = r.versions[0]!;
    return `('${r.id}', '${r.ruleId}', '${v.id}', '${v.name.replace(/'/g, "''")}', '${v.riskLevel}', '${v.recommendedAction}')`;
  });
  // Bulk generation: the per-row placement trigger is off for this one statement and the alerts are placed
  // set-based afterwards, as the cases migration places pre-existing alerts (one case per user, priority the
  // highest level, due from the first alert). Screenings below go through the trigger as usual.
  await prisma.$executeRawUnsafe(`ALTER TABLE alerts DISABLE TRIGGER alerts_place_in_case`);
  await prisma.$executeRawUnsafe(`
    WITH r(ref, rid, vid, name, level, action) AS (VALUES ${ruleRows.join(",")}),
         numbered AS (SELECT row_number() OVER () - 1 AS i, * FROM r)
    INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
      level, reason, "recommendedAction", status, "reviewedBy", "reviewedAt", "createdAt")
    SELECT 'alert-' || g, '${clientId}', 'tx-' || (g * ${ALERT_EVERY}), ${userOf(`(g * ${ALERT_EVERY})`)},
      n.ref, n.rid, n.vid, n.name,
      n.level, 'seeded', n.action,
      CASE WHEN g % 10 < 6 THEN 'open' WHEN g % 10 < 8 THEN 'cleared' WHEN g % 10 < 9 THEN 'confirmed' ELSE 'escalated' END,
      CASE WHEN g % 10 < 6 THEN NULL ELSE 'rev@demo.test' END,
      CASE WHEN g % 10 < 6 THEN NULL ELSE now() END,
      now() - (g * ${ALERT_EVERY} * interval '${STEP_SECONDS} seconds')
    FROM generate_series(0, ${ALERTS - 1}) g
    JOIN numbered n ON n.i = g % ${ruleRows.length}
    ORDER BY g DESC`);
  await prisma.$executeRawUnsafe(`
    WITH r(ref, rid, vid, name, level, action) AS (VALUES ${ruleRows.join(",")}),
         numbered AS (SELECT row_number() OVER () - 1 AS i, * FROM r)
    INSERT INTO alerts (id, "clientId", "transactionId", "userId", "ruleRef", "ruleId", "ruleVersionId", "ruleName",
      level, reason, "recommendedAction", status, "createdAt")
    SELECT 'alert-busy-' || g, '${clientId}', 'tx-' || (g * 50 * ${BUSY_EVERY} + 1), '${BUSY_USER}', n.ref, n.rid,
      n.vid, n.name, n.level, 'seeded', n.action, CASE WHEN g % 2 = 0 THEN 'open' ELSE 'cleared' END,
      now() - ((g * 50 * ${BUSY_EVERY} + 1) * interval '${STEP_SECONDS} seconds')
    FROM generate_series(0, ${BUSY_TRANSACTIONS / 50 - 1}) g
    JOIN numbered n ON n.i = g % ${ruleRows.length}`);
  await prisma.$executeRawUnsafe(`ALTER TABLE alerts ENABLE TRIGGER alerts_place_in_case`);
  log(`alerts: ${ALERTS} (${secs()})`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO cases (id, "clientId", "subjectType", "subjectId", status, priority, "dueAt", "alertCount",
      "lastAlertAt", "createdAt", "updatedAt")
    SELECT 'case-' || a."userId", '${clientId}', 'user', a."userId", 'open',
      (array_agg(a.level ORDER BY risk_rank(a.level) DESC))[1],
      min(a."createdAt") + make_interval(secs => case_sla_hours(NULL, (array_agg(a.level ORDER BY risk_rank(a.level) DESC))[1]) * 3600),
      count(*), max(a."createdAt"), min(a."createdAt"), max(a."createdAt")
    FROM alerts a WHERE a."clientId" = '${clientId}' GROUP BY a."userId"`);
  await prisma.$executeRawUnsafe(`
    UPDATE alerts SET "caseId" = 'case-' || "userId" WHERE "clientId" = '${clientId}'`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO case_events ("clientId", "caseId", type, "toStatus", "createdAt")
    SELECT "clientId", id, 'created', 'open', "createdAt" FROM cases WHERE "clientId" = '${clientId}'`);
  // A case whose alerts were all settled is closed, as a reviewer would have done, and a fifth of the rest
  // are assigned to the bench reviewer.
  const reviewer = await prisma.dashboardUser.create({
    data: { clientId, email: "bench-reviewer@bench.test", role: "reviewer", passwordHash: "-" },
  });
  await prisma.$executeRawUnsafe(`
    UPDATE cases c SET status = 'closed', outcome = 'false_positive', "closeNote" = 'seeded', "closedAt" = now()
    WHERE c."clientId" = '${clientId}'
      AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a."caseId" = c.id AND a.status IN ('open', 'escalated'))`);
  await prisma.$executeRawUnsafe(`
    UPDATE cases c SET "assigneeId" = '${reviewer.id}', status = 'in_review'
    WHERE c."clientId" = '${clientId}' AND c.status <> 'closed' AND abs(hashtext(c.id)) % 5 = 0`);
  const cases = await prisma.$queryRawUnsafe<{ status: string; n: bigint }[]>(
    `SELECT status, count(*) AS n FROM cases WHERE "clientId" = '${clientId}' GROUP BY status ORDER BY status`,
  );
  log(`cases: ${cases.map((c) => `${c.status} ${c.n}`).join(", ")} (${secs()})`);

  // A few real screenings (decision, alerts, rule versions) for the transaction page.
  const client = { id: clientId, type: "consumer" as const, features: new Set<string>(), actions: [] };
  for (let i = 0; i < 5; i++)
    await screenTransaction({
      client: client as never,
      body: {
        id: `bench-live-${i}`,
        userId: "user-7",
        status: "PENDING",
        currencyCode: "EUR",
        amount: 60_000 + i,
        timestamp: Date.now() - 1000 * (5 - i),
      } as never,
    });
  await prisma.$executeRawUnsafe("VACUUM ANALYZE");
  log(`seeded in ${secs()}`);
  await sql(DB_URL, `CREATE TABLE IF NOT EXISTS bench_state (client_id text, reviewer_id text)`);
  await sql(
    DB_URL,
    `DELETE FROM bench_state; INSERT INTO bench_state VALUES ('${clientId}', '${reviewer.id}')`,
  );
}

async function time(
  label: string,
  fn: () => Promise<unknown>,
  results: { label: string; median: number; max: number }[],
) {
  await fn(); // warm-up: plan cache, connection pool
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  const max = samples[samples.length - 1]!;
  results.push({ label, median, max });
  log(
    `${label.padEnd(58)} median ${median.toFixed(1).padStart(7)} ms   max ${max.toFixed(1).padStart(7)} ms`,
  );
}

async function main(): Promise<void> {
  process.env.DATABASE_URL = DB_URL;
  if (process.env.DASHBOARD_BENCH_REUSE !== "1") await seed();
  const state = (await sql(DB_URL, "SELECT client_id, reviewer_id FROM bench_state")).rows[0] as {
    client_id: string;
    reviewer_id: string;
  };
  const clientId = state.client_id;
  const viewer = { id: state.reviewer_id, role: "reviewer" as const };

  const { listAlerts } = await import("@/lib/alerts/list-alerts");
  const { ZListAlertsQuery } = await import("@/lib/alerts/schemas");
  const { listTransactions, ZListTransactionsQuery } = await import("@/lib/transactions/list-transactions");
  const { getTransactionDetail } = await import("@/lib/transactions/get-transaction-detail");
  const { getUserProfile } = await import("@/lib/users/get-user-profile");
  const { listUsers, ZListUsersQuery } = await import("@/lib/users/list-users");
  const { getOverview } = await import("@/lib/overview/get-overview");
  const { listCaseInbox } = await import("@/lib/cases/list-case-inbox");
  const { getCaseDetail } = await import("@/lib/cases/get-case-detail");
  const { listCases } = await import("@/lib/cases/list-cases");
  const { ZCaseInboxQuery, ZListCasesQuery } = await import("@/lib/cases/schemas");
  const { getUserNetwork } = await import("@/lib/links/get-user-network");
  const { ZNetworkQuery } = await import("@/lib/links/network-schemas");
  const { encodeCursor } = await import("@/lib/alerts/keyset-cursor");
  const { prisma } = await import("@/lib/db");

  const counts = await prisma.$queryRawUnsafe<{ t: bigint; a: bigint }[]>(
    `SELECT (SELECT count(*) FROM transactions) AS t, (SELECT count(*) FROM alerts) AS a,
       (SELECT count(*) FROM cases) AS c`,
  );
  log(
    `database: ${counts[0]!.t} transactions, ${counts[0]!.a} alerts, ${(counts[0] as { c?: bigint }).c} cases`,
  );
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
  const deep = await (async () => {
    let cursor: string | undefined;
    for (let i = 0; i < 40; i++)
      cursor =
        (await listAlerts({ clientId, query: ZListAlertsQuery.parse({ limit: "100", cursor }) }))
          .nextCursor ?? undefined;
    return cursor;
  })();

  const results: { label: string; median: number; max: number }[] = [];
  const inbox = (q: Record<string, string | undefined>) => () =>
    listCaseInbox({ clientId, query: ZCaseInboxQuery.parse(q), viewer });
  const deepCase = await (async () => {
    let cursor: string | undefined;
    for (let i = 0; i < 40; i++)
      cursor =
        (await listCaseInbox({ clientId, query: ZCaseInboxQuery.parse({ limit: "100", cursor }), viewer }))
          .nextCursor ?? undefined;
    return cursor;
  })();
  const someCase = (await inbox({})()).cases[0]!.id;
  await time("case inbox: first page (not closed, 50, due first)", inbox({}), results);
  await time("case inbox: page 41 by cursor (100/page)", inbox({ limit: "100", cursor: deepCase }), results);
  await time("case inbox: assigned to me", inbox({ assignee: "me" }), results);
  await time(
    "case inbox: unassigned, priority=high",
    inbox({ assignee: "unassigned", priority: "high" }),
    results,
  );
  await time("case inbox: overdue", inbox({ overdue: "true" }), results);
  await time("case inbox: rule=TX-LARGE-AMOUNT", inbox({ ruleId: "TX-LARGE-AMOUNT" }), results);
  await time("case inbox: userId=user-40", inbox({ userId: "user-40" }), results);
  await time(
    "case page (5 alerts, history, activity)",
    () => getCaseDetail({ clientId, caseId: someCase, viewer }),
    results,
  );
  await time(
    "GET /v1/cases first page (20, with total)",
    () => listCases({ clientId, query: ZListCasesQuery.parse({}) }),
    results,
  );
  const alerts = (q: Record<string, string | undefined>) => () =>
    listAlerts({ clientId, query: ZListAlertsQuery.parse(q), currentUserId: "x" });
  const txs = (q: Record<string, string | undefined>) => () =>
    listTransactions({ clientId, query: ZListTransactionsQuery.parse(q) });
  // the first call reads every settled hour of the windows (as after a server start); later ones the open hours
  const first = performance.now();
  await getOverview({ clientId });
  log(`overview, first call in this process: ${(performance.now() - first).toFixed(1)} ms`);
  await time(
    "overview (24 h screenings, levels, actions, open, top rules)",
    () => getOverview({ clientId }),
    results,
  );
  const { listRulesWithHits } = await import("@/lib/admin/list-rules-with-hits");
  const officer = { id: viewer.id, clientId, email: "bench@bench.test", name: null, role: "admin" as const };
  const firstRules = performance.now();
  await listRulesWithHits(officer);
  log(`rules list with hits, first call in this process: ${(performance.now() - firstRules).toFixed(1)} ms`);
  await time("rules list with 7 days of hits (computed afresh)", () => listRulesWithHits(officer), results);
  await time("alerts queue: first page (open, 50)", alerts({}), results);
  await time(
    "alerts queue: page 41 by cursor (open, 100/page)",
    alerts({ limit: "100", cursor: deep }),
    results,
  );
  const [deepAlert] = await prisma.$queryRawUnsafe<{ createdAt: Date; id: string }[]>(
    `SELECT "createdAt", id FROM alerts WHERE "clientId" = $1 AND status = 'open'
       AND "createdAt" <= now() - interval '10 days' ORDER BY "createdAt" DESC, id DESC LIMIT 1`,
    clientId,
  );
  await time(
    "alerts queue: open, by cursor 10 days deep",
    alerts({ cursor: encodeCursor({ at: deepAlert!.createdAt, id: deepAlert!.id }) }),
    results,
  );
  await time("alerts queue: level=very_high", alerts({ level: "very_high" }), results);
  await time(
    "alerts queue: rule=TX-BLOCKED-USER, all statuses",
    alerts({ ruleId: "TX-BLOCKED-USER", status: "all" }),
    results,
  );
  await time("alerts queue: escalated, last 7 days", alerts({ status: "escalated", from: weekAgo }), results);
  await time("alerts queue: assigned to me (none)", alerts({ assigned: "me" }), results);
  await time("transactions: first page (50)", txs({}), results);
  await time("transactions: riskLevel=very_high", txs({ riskLevel: "very_high" }), results);
  await time(
    "transactions: status=FAILED, riskLevel=n/a",
    txs({ status: "FAILED", riskLevel: "n/a" }),
    results,
  );
  await time("transactions: userId=user-42", txs({ userId: "user-42" }), results);
  await time("transactions: date range (one day, 7 d ago)", txs({ from: weekAgo, to: weekAgo }), results);
  await time("transactions: status=CHARGEBACK (no match)", txs({ status: "CHARGEBACK" }), results);
  // a cursor as deep as the pager can go: the row 15 (20) days back
  const cursorAt = async (days: number, where = "") => {
    const [row] = await prisma.$queryRawUnsafe<{ occurredAt: Date; id: string }[]>(
      `SELECT "occurredAt", id FROM transactions WHERE "clientId" = $1 ${where}
         AND "occurredAt" <= now() - interval '${days} days' ORDER BY "occurredAt" DESC, id DESC LIMIT 1`,
      clientId,
    );
    return encodeCursor({ at: row!.occurredAt, id: row!.id });
  };
  const deepTx = await cursorAt(15);
  const dayAgo20 = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  await time("transactions: page by cursor 15 days deep", txs({ cursor: deepTx }), results);
  await time(
    "transactions: riskLevel=n/a, status=DECLINED (no match)",
    txs({ riskLevel: "n/a", status: "DECLINED" }),
    results,
  );
  await time(
    "transactions: very_high, DECLINED, one day 20 d ago",
    txs({ riskLevel: "very_high", status: "DECLINED", from: dayAgo20, to: dayAgo20 }),
    results,
  );
  await time(
    "transactions: riskLevel=high, 15 days deep",
    txs({ riskLevel: "high", cursor: deepTx }),
    results,
  );
  await time("transactions: userId=nobody (no match)", txs({ userId: "nobody" }), results);
  await time(`transactions: userId=${BUSY_USER} (10,000)`, txs({ userId: BUSY_USER }), results);
  await time(
    `transactions: userId=${BUSY_USER}, riskLevel=n/a`,
    txs({ userId: BUSY_USER, riskLevel: "n/a" }),
    results,
  );
  await time(
    `transactions: userId=${BUSY_USER}, n/a, DECLINED (none)`,
    txs({ userId: BUSY_USER, riskLevel: "n/a", status: "DECLINED" }),
    results,
  );
  await time(
    `transactions: userId=${BUSY_USER}, 20 days deep`,
    txs({ userId: BUSY_USER, cursor: await cursorAt(20, `AND "userId" = '${BUSY_USER}'`) }),
    results,
  );
  await time(
    "transaction page (live screening, 5 rules fired)",
    () => getTransactionDetail({ clientId, transactionId: "bench-live-4" }),
    results,
  );
  await time(
    "transaction page (seeded row)",
    () => getTransactionDetail({ clientId, transactionId: "tx-123450" }),
    results,
  );
  await time(
    "user page (profile, history, comments + 50 transactions)",
    () =>
      Promise.all([
        getUserProfile({ clientId, userId: "user-7" }),
        listTransactions({ clientId, query: ZListTransactionsQuery.parse({ userId: "user-7" }) }),
      ]),
    results,
  );
  await time(
    `user page of ${BUSY_USER} (profile + 50 transactions + network)`,
    () =>
      Promise.all([
        getUserProfile({ clientId, userId: BUSY_USER }),
        listTransactions({ clientId, query: ZListTransactionsQuery.parse({ userId: BUSY_USER }) }),
        getUserNetwork({ clientId, userId: BUSY_USER, query: ZNetworkQuery.parse({ depth: "1" }) }),
      ]),
    results,
  );
  await time("users: first page", () => listUsers({ clientId, query: ZListUsersQuery.parse({}) }), results);
  await time(
    "users: search 'user4242'",
    () => listUsers({ clientId, query: ZListUsersQuery.parse({ q: "user4242" }) }),
    results,
  );
  await time(
    "users: status=blocked",
    () => listUsers({ clientId, query: ZListUsersQuery.parse({ status: "blocked" }) }),
    results,
  );
  void today;
  await prisma.$disconnect();
  console.log(
    JSON.stringify(
      results.map((r) => ({
        ...r,
        median: Math.round(r.median * 10) / 10,
        max: Math.round(r.max * 10) / 10,
      })),
    ),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
