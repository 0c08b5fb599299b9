// Links between users: server time of GET /v1/users/{userId}/links (depth 1 and 2) and of the dashboard
// network view's read, for a user whose network has about 1,000 links, in a client with 10 M stored
// transactions. Not part of the test suite (docs/benchmarks-links.md has the method and figures).
//
// Loaded once in SQL (generate_series) into BENCH_DATABASE_URL, which it keeps: BENCH_LINKS_SKIP_LOAD=1
// measures the database loaded before (after applying any new migration). The rows are the ones the
// live writer stores for such requests: each transaction's body in `data`, its device and payment method
// in `user_identifiers` (a recipient's payment method under the recipient's id) and a `user_identifier_uses`
// row per (value, user) with the first and last use and the number of transactions that carried it.
//
// - background: BENCH_LINKS_USERS users (default 200,000), each with a phone and an email (user record),
//   one device (fingerprint and IP address) and one card; BENCH_LINKS_TRANSACTIONS transactions
//   (default 10,000,000) spread over them and 700 days, one in ten to a recipient by id, one in 200,000
//   to the target; 3,000 of them share one public IP address with the target (over the cap: capped);
// - the ring: the target shares two devices, two cards, a payout bank account and a phone, each with 40
//   people (240 direct links), each of whom has a device of their own shared with 3 more people
//   (720 links at depth 2); the target paid 20 recipients (by id, by account, by wallet), two
//   transactions each; 40 of the ring have an open case, 3 are blocked.
// Measured: each call in-process (the route's own function: the server's time without HTTP), p50/p95 of
// BENCH_LINKS_RUNS (default 50) after 3 warm-up calls, the database time of its statements and the
// process's CPU time per call; BENCH_LINKS_EXPLAIN=1 prints
// EXPLAIN (ANALYZE, BUFFERS) of the depth-2 link statement.
import pg from "pg";
import { migrateDatabase } from "./fresh-database";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench_links";
process.env.DATABASE_URL = DB_URL;
const USERS = Number(process.env.BENCH_LINKS_USERS ?? 200_000);
const TRANSACTIONS = Number(process.env.BENCH_LINKS_TRANSACTIONS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_LINKS_RUNS ?? 50);
const SKIP_LOAD = process.env.BENCH_LINKS_SKIP_LOAD === "1";
const CLIENT_NAME = "links bench";
const TARGET = "ring-target";

const log = (line: string) => console.log(`[links bench] ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

function adminUrl(): string {
  const u = new URL(DB_URL);
  u.pathname = "/postgres";
  return u.toString();
}

async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

function migrate() {
  migrateDatabase(DB_URL);
}

async function load(db: pg.Client): Promise<string> {
  const name = new URL(DB_URL).pathname.slice(1);
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${name}"`);
  migrate();
  await db.connect();
  const { createClient } = await import("@/lib/clients/create-client");
  const { clientId } = await createClient({ name: CLIENT_NAME, type: "consumer", features: [] });
  const started = Date.now();
  const step = async (label: string, sql: string, values: unknown[] = []) => {
    const t = Date.now();
    await db.query(sql, values);
    log(`  ${label}: ${seconds(t)}`);
  };
  await db.query(`SET synchronous_commit = off; SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'`);
  log(`loading client ${clientId}`);
  // the history's month partitions first, so that its rows do not go to the default partition
  await db.query(`SELECT "month_partition_create"('transactions', 'occurredAt', m, 'transaction_keys', '"clientId", "id", "occurredAt"')
     FROM generate_series(date_trunc('month', now() - interval '701 days', 'UTC'), now(), interval '1 month') m`);

  // Secondary indexes of transactions are built once after the load (far cheaper than 10 M inserts into
  // each), from their own definitions.
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = 'public' AND tablename = 'transactions' AND indexname <> 'transactions_pkey'`,
  );
  for (const i of indexes.rows) await db.query(`DROP INDEX "${i.name}"`);
  // a partitioned table's index is defined `ON ONLY` the parent: made again on it and every partition
  for (const i of indexes.rows) i.def = i.def.replace(" ON ONLY ", " ON ");

  await step(
    `${USERS.toLocaleString("en")} background users`,
    `INSERT INTO "users" ("clientId", "id", "firstName", "lastName", "email", "phone", "createdAt", "updatedAt")
     SELECT $1, 'bg-' || u, 'Person', 'No ' || u, 'u' || u || '@bench.test', '+1' || lpad(u::text, 10, '0'),
       now() - interval '720 days', now() - interval '720 days'
     FROM generate_series(1, $2) u`,
    [clientId, USERS],
  );
  // Transaction g belongs to background user (g % USERS) + 1 and happened (g % 1400) half-days ago. It
  // carries the user's device (fingerprint; IP address: the first 3,000 users on one public address) and
  // card; one in ten pays a recipient by id; one in 200,000 pays the target (with the default 200,000
  // users all of them are bg-18: one sender, 50 transactions).
  const batch = 1_000_000;
  for (let start = 1; start <= TRANSACTIONS; start += batch) {
    const end = Math.min(TRANSACTIONS, start + batch - 1);
    await step(
      `transactions ${start.toLocaleString("en")}-${end.toLocaleString("en")}`,
      `INSERT INTO "transactions" ("clientId", "id", "userId", "userDeviceId", "cardFingerprint", "status", "direction",
         "paymentMethod", "currencyCode", "amount", "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
       SELECT $1, 'tx-' || g, 'bg-' || u, 'd-bg-' || u, 'card-bg-' || u, 'APPROVED', 'payin', 'card', 'USD', g % 1000, at,
         jsonb_build_object('id', 'tx-' || g, 'userId', 'bg-' || u, 'status', 'APPROVED', 'currencyCode', 'USD',
           'amount', g % 1000, 'timestamp', (extract(epoch FROM at) * 1000)::bigint, 'direction', 'payin',
           'userDevice', jsonb_build_object('id', 'd-bg-' || u, 'fingerprint', 'fp-bg-' || u,
             'ipAddress', CASE WHEN u <= 3000 THEN '203.0.113.7' ELSE 'ip-bg-' || u END),
           'card', jsonb_build_object('cardFingerprint', 'card-bg-' || u))
         || CASE WHEN g % 200000 = 17 THEN jsonb_build_object('recipient', jsonb_build_object('id', '${TARGET}'))
                 WHEN g % 10 = 0 THEN jsonb_build_object('recipient', jsonb_build_object('id', 'bg-' || ((g * 7) % $4 + 1)))
                 ELSE '{}'::jsonb END,
         md5(g::text), 'low', 'ALLOW', at
       FROM (SELECT g, g % $4 + 1 AS u, date_trunc('second', now()) - (g % 1400) * interval '12 hours' AS at
             FROM generate_series($2::bigint, $3::bigint) g) s`,
      [clientId, start, end, USERS],
    );
  }
  await step(
    "background identifiers (user records, devices, cards)",
    `INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source", "createdAt")
     SELECT $1, k.kind, CASE k.kind WHEN 'phone' THEN '+1' || lpad(u::text, 10, '0') WHEN 'email' THEN 'u' || u || '@bench.test'
                         WHEN 'deviceFingerprint' THEN 'fp-bg-' || u WHEN 'cardFingerprint' THEN 'card-bg-' || u
                         ELSE CASE WHEN u <= 3000 THEN '203.0.113.7' ELSE 'ip-bg-' || u END END,
       'bg-' || u, k.source, now() - interval '720 days'
     FROM generate_series(1, $2) u
     CROSS JOIN (VALUES ('phone', 'api'), ('email', 'api'), ('deviceFingerprint', 'device'), ('ipAddress', 'device'),
                        ('cardFingerprint', 'transaction')) k(kind, source)`,
    [clientId, USERS],
  );
  await step(
    "background uses (from the transactions)",
    `INSERT INTO "user_identifier_uses" ("clientId", "kind", "value", "userId", "firstUsedAt", "lastUsedAt", "transactionCount")
     SELECT $1, k.kind, CASE k.kind WHEN 'deviceFingerprint' THEN 'fp-bg-' || u WHEN 'cardFingerprint' THEN 'card-bg-' || u
                         ELSE CASE WHEN u <= 3000 THEN '203.0.113.7' ELSE 'ip-bg-' || u END END,
       t."userId", t.first, t.last, t.n
     FROM (SELECT "userId", substr("userId", 4)::int AS u, min("occurredAt") AS first, max("occurredAt") AS last, count(*)::int AS n
           FROM "transactions" WHERE "clientId" = $1 GROUP BY "userId") t
     CROSS JOIN (VALUES ('deviceFingerprint'), ('ipAddress'), ('cardFingerprint')) k(kind)`,
    [clientId],
  );

  // The ring: who carries which value in how many transactions (txs) or on their user record (txs 0).
  await step(
    "the ring's identifiers",
    `CREATE TEMP TABLE ring_uses AS
     WITH direct AS (SELECT i, 'ring-' || i AS "userId", (i - 1) / 40 AS grp FROM generate_series(1, 240) i),
     carried AS (
       -- the target: two devices, two cards, the payout account, the phone, and the public IP address
       SELECT '${TARGET}' AS "userId", kind, value, txs FROM (VALUES
         ('deviceFingerprint', 'fp-ring-0', 12), ('deviceFingerprint', 'fp-ring-1', 9), ('cardFingerprint', 'card-ring-2', 15),
         ('cardFingerprint', 'card-ring-3', 6), ('bankAccountNumber', 'NL00RING0000000004', 8), ('phone', '+15550000005', 0),
         ('ipAddress', '203.0.113.7', 20)) v(kind, value, txs)
       UNION ALL
       -- each direct link holds one of the target's values (40 per value) and a device of their own
       SELECT "userId", CASE grp WHEN 0 THEN 'deviceFingerprint' WHEN 1 THEN 'deviceFingerprint' WHEN 2 THEN 'cardFingerprint'
                             WHEN 3 THEN 'cardFingerprint' WHEN 4 THEN 'bankAccountNumber' ELSE 'phone' END,
         CASE grp WHEN 0 THEN 'fp-ring-0' WHEN 1 THEN 'fp-ring-1' WHEN 2 THEN 'card-ring-2' WHEN 3 THEN 'card-ring-3'
                  WHEN 4 THEN 'NL00RING0000000004' ELSE '+15550000005' END,
         CASE WHEN grp = 5 THEN 0 ELSE 1 + i % 7 END
       FROM direct
       UNION ALL SELECT "userId", 'deviceFingerprint', 'fp-r1-' || i, 3 + i % 5 FROM direct
       UNION ALL SELECT "userId", 'email', 'ring-' || i || '@bench.test', 0 FROM direct
       UNION ALL
       -- three more people on each direct link's own device: depth 2
       SELECT 'ring2-' || i || '-' || j, 'deviceFingerprint', 'fp-r1-' || i, 1 + j
       FROM generate_series(1, 240) i CROSS JOIN generate_series(1, 3) j)
     SELECT * FROM carried`,
  );
  // their transactions: one per use, each carrying that value (a payout to the account; a device with
  // its fingerprint or IP address; a card), days apart, the newest a day ago
  await step(
    "the ring's transactions",
    `INSERT INTO "transactions" ("clientId", "id", "userId", "userDeviceId", "cardFingerprint", "status", "direction",
       "paymentMethod", "currencyCode", "amount", "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
     SELECT $1, 'ring-tx-' || r."userId" || '-' || r.kind || '-' || r.value || '-' || n, r."userId",
       CASE WHEN r.kind IN ('deviceFingerprint', 'ipAddress') THEN 'd-' || r.value END,
       CASE WHEN r.kind = 'cardFingerprint' THEN r.value END, 'APPROVED',
       CASE WHEN r.kind = 'bankAccountNumber' THEN 'payout' ELSE 'payin' END,
       CASE WHEN r.kind = 'bankAccountNumber' THEN 'bank' ELSE 'card' END, 'EUR', 100 + n, at,
       jsonb_build_object('id', 'ring-tx-' || r."userId" || '-' || r.kind || '-' || r.value || '-' || n, 'userId', r."userId",
         'status', 'APPROVED', 'currencyCode', 'EUR', 'amount', 100 + n, 'timestamp', (extract(epoch FROM at) * 1000)::bigint)
       || CASE r.kind WHEN 'deviceFingerprint' THEN jsonb_build_object('userDevice', jsonb_build_object('id', 'd-' || r.value, 'fingerprint', r.value))
                      WHEN 'ipAddress' THEN jsonb_build_object('userDevice', jsonb_build_object('id', 'd-' || r.value, 'ipAddress', r.value))
                      WHEN 'cardFingerprint' THEN jsonb_build_object('card', jsonb_build_object('cardFingerprint', r.value))
                      ELSE jsonb_build_object('direction', 'payout', 'bank', jsonb_build_object('accountNumber', r.value)) END,
       md5(r."userId" || r.value || n), 'low', 'ALLOW', at
     FROM ring_uses r CROSS JOIN LATERAL generate_series(1, r.txs) n
     CROSS JOIN LATERAL (SELECT date_trunc('second', now()) - (n * 3 + length(r."userId")) * interval '1 day' AS at) a`,
    [clientId],
  );
  // The target's payments: 20 recipients (10 by id, 3 of them in the ring, with a bank account; 6 by
  // account only; 4 by wallet), 2 transactions each.
  await step(
    "the target's payments",
    `INSERT INTO "transactions" ("clientId", "id", "userId", "status", "direction", "paymentMethod", "currencyCode", "amount",
       "occurredAt", "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
     SELECT $1, 'ring-pay-' || k || '-' || n, '${TARGET}', 'APPROVED', 'payout', 'bank', 'EUR', 500, at,
       jsonb_build_object('id', 'ring-pay-' || k || '-' || n, 'userId', '${TARGET}', 'status', 'APPROVED', 'currencyCode', 'EUR',
         'amount', 500, 'timestamp', (extract(epoch FROM at) * 1000)::bigint, 'recipient',
         CASE WHEN k <= 3 THEN jsonb_build_object('id', 'ring-' || (k * 50), 'bank', jsonb_build_object('accountNumber', 'NL00PAY' || k))
              WHEN k <= 10 THEN jsonb_build_object('id', 'bg-' || (k * 1000), 'bank', jsonb_build_object('accountNumber', 'NL00PAY' || k))
              WHEN k <= 16 THEN jsonb_build_object('bank', jsonb_build_object('accountNumber', 'NL00PAY' || k))
              ELSE jsonb_build_object('crypto', jsonb_build_object('address', 'bc1qring' || k)) END),
       md5('pay' || k || n), 'low', 'ALLOW', at
     FROM generate_series(1, 20) k CROSS JOIN generate_series(1, 2) n
     CROSS JOIN LATERAL (SELECT date_trunc('second', now()) - (k + n * 10) * interval '1 day' AS at) a`,
    [clientId],
  );
  await step(
    "the ring's identifier rows and uses",
    `WITH ids AS (
       INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source", "createdAt")
       SELECT $1, kind, value, "userId",
         CASE WHEN kind IN ('phone', 'email') THEN 'api' WHEN kind IN ('deviceFingerprint', 'ipAddress') THEN 'device' ELSE 'transaction' END,
         now() - interval '400 days'
       FROM ring_uses
       UNION ALL
       -- a recipient's payment method is indexed under the recipient
       SELECT $1, 'bankAccountNumber', 'NL00PAY' || k, CASE WHEN k <= 3 THEN 'ring-' || (k * 50) ELSE 'bg-' || (k * 1000) END,
         'transaction-recipient', now() - interval '30 days'
       FROM generate_series(1, 10) k
       RETURNING 1)
     INSERT INTO "user_identifier_uses" ("clientId", "kind", "value", "userId", "firstUsedAt", "lastUsedAt", "transactionCount")
     SELECT $1, kind, value, "userId", min("occurredAt"), max("occurredAt"), count(*)::int
     FROM (SELECT r.kind, r.value, r."userId", t."occurredAt" FROM ring_uses r
           CROSS JOIN LATERAL generate_series(1, r.txs) n
           JOIN "transactions" t ON t."clientId" = $1
             AND t."id" = 'ring-tx-' || r."userId" || '-' || r.kind || '-' || r.value || '-' || n) x
     GROUP BY kind, value, "userId"`,
    [clientId],
  );
  await step(
    "the ring's users and open cases",
    `WITH people AS (SELECT DISTINCT "userId" FROM ring_uses),
     ins AS (
       INSERT INTO "users" ("clientId", "id", "firstName", "lastName", "status", "riskLevel", "createdAt", "updatedAt")
       SELECT $1, "userId", 'Ring', initcap(replace("userId", '-', ' ')),
         CASE WHEN "userId" IN ('ring-7', 'ring-90', 'ring2-5-1') THEN 'blocked' ELSE 'active' END,
         CASE WHEN "userId" LIKE 'ring-1%' THEN 'high' ELSE 'low' END, now() - interval '400 days', now()
       FROM people
       RETURNING "id")
     INSERT INTO "cases" ("clientId", "subjectType", "subjectId", "status", "priority", "dueAt", "alertCount", "lastAlertAt")
     SELECT $1, 'user', "id", 'open', 'high', now() + interval '2 days', 1, now() FROM ins
     WHERE CASE WHEN "id" ~ '^ring-[0-9]+$' THEN substr("id", 6)::int % 6 = 0 ELSE "id" = '${TARGET}' END`,
    [clientId],
  );
  log("  rebuilding the transactions' indexes…");
  for (const i of indexes.rows) {
    const t = Date.now();
    await db.query(i.def);
    log(`    ${i.name}: ${seconds(t)}`);
  }
  await step("VACUUM ANALYZE", `VACUUM ANALYZE`);
  log(`loaded in ${seconds(started)}`);
  return clientId;
}

const db = new pg.Client({ connectionString: DB_URL });
let clientId: string;
if (SKIP_LOAD) {
  migrate(); // a new migration (an index) applies to the kept database
  await db.connect();
  const found = await db.query<{ id: string }>(`SELECT "id" FROM "clients" WHERE "name" = $1`, [CLIENT_NAME]);
  if (!found.rows[0])
    throw new Error(`no loaded client in ${DB_URL}: run once without BENCH_LINKS_SKIP_LOAD`);
  clientId = found.rows[0].id;
  log(`reusing the loaded database (client ${clientId})`);
} else {
  clientId = await load(db);
}

const { prisma } = await import("@/lib/db");
const { getUserLinks } = await import("@/lib/links/get-user-links");
const { getUserNetwork } = await import("@/lib/links/get-user-network");
const { clientFanOutCap } = await import("@/lib/links/find-user-links");

const sizes = await db.query<{ transactions: string; identifiers: string; uses: string; users: string }>(
  `SELECT (SELECT count(*) FROM "transactions" WHERE "clientId" = $1) AS transactions,
     (SELECT count(*) FROM "user_identifiers" WHERE "clientId" = $1) AS identifiers,
     (SELECT count(*) FROM "user_identifier_uses" WHERE "clientId" = $1) AS uses,
     (SELECT count(*) FROM "users" WHERE "clientId" = $1) AS users`,
  [clientId],
);
log(`stored: ${JSON.stringify(sizes.rows[0])}`);
const load1 = (await import("node:os")).loadavg()[0]!.toFixed(1);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

// The statements a call sends, captured at the driver (text and parameters), to time them in the database.
const captured: Array<{ text: string; values: unknown[] }> = [];
const originalQuery = pg.Client.prototype.query;
function capture<T>(run: () => Promise<T>): Promise<T> {
  captured.length = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [text, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (this !== db) {
      if (typeof text === "string") captured.push({ text, values: values ?? [] });
      else if (text && typeof text === "object" && "text" in text)
        captured.push({ text: text.text, values: text.values ?? [] });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  return run().finally(() => {
    pg.Client.prototype.query = originalQuery;
  });
}

/** Planning plus execution time in the database of each captured statement (median of 5), summed. */
async function databaseTime(): Promise<number> {
  let total = 0;
  for (const s of [...captured]) {
    if (!/^\s*(WITH|SELECT)/i.test(s.text)) continue;
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const plan = await db.query<{
        "QUERY PLAN": Array<{ "Execution Time": number; "Planning Time": number }>;
      }>(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${s.text}`, s.values);
      const p = plan.rows[0]!["QUERY PLAN"][0]!;
      runs.push(p["Execution Time"] + p["Planning Time"]);
    }
    total += percentile(runs, 50);
  }
  return total;
}

async function measure(label: string, run: () => Promise<unknown>, describe: (r: unknown) => string) {
  const result = await capture(run);
  const statements = captured.length;
  const inDatabase = await databaseTime();
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  const nodeCpu = (cpu.user + cpu.system) / 1000 / RUNS;
  log(
    `| ${label} | ${describe(result)} | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ` +
      `${statements} | ${inDatabase.toFixed(1)} ms | ${nodeCpu.toFixed(1)} ms | ${(inDatabase + nodeCpu).toFixed(0)} ms |`,
  );
}

type TLinks = { links: Array<{ depth: number }>; capped: unknown[] };
const linksOf = (r: unknown) => {
  const l = r as TLinks;
  const d1 = l.links.filter((x) => x.depth === 1).length;
  return `${(d1 + l.links.length - d1).toLocaleString("en")} links (${d1} depth 1), ${l.capped.length} capped`;
};
type TNetwork = { people: Array<{ depth: number }>; counterparties?: unknown[]; capped: unknown[] };
const networkOf = (r: unknown) => {
  const n = r as TNetwork;
  return `${n.people.length - 1} people, ${n.counterparties?.length ?? 0} counterparties, ${n.capped.length} capped`;
};

log(`load average (1 min) at the start of the measurement: ${load1}; ${RUNS} calls each`);
log(
  "| read | result | wall p50 | wall p95 | statements | database (planning + execution, summed) | Node CPU per call | database + Node CPU |",
);
log("|---|---|---|---|---|---|---|---|");
for (const depth of [1, 2] as const) {
  await measure(
    `GET /v1/users/{userId}/links depth ${depth}`,
    () => getUserLinks({ clientId, userId: TARGET, depth }),
    linksOf,
  );
}
for (const depth of [1, 2] as const) {
  await measure(
    `network view read depth ${depth}`,
    () => getUserNetwork({ clientId, userId: TARGET, query: { depth, kinds: undefined, since: undefined } }),
    networkOf,
  );
}

if (process.env.BENCH_LINKS_EXPLAIN === "1") {
  // the depth-2 link statement as the code sends it, captured at the driver
  const { findUserLinks } = await import("@/lib/links/find-user-links");
  const fanOutCap = await clientFanOutCap(prisma, clientId);
  await capture(() => findUserLinks(prisma, { clientId, userId: TARGET, depth: 2, fanOutCap }));
  const statement = captured.find((s) => /^\s*WITH/i.test(s.text));
  if (statement) {
    const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    console.log(plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
  }
}

await db.end();
await prisma.$disconnect();
