// Links between users: server time of GET /v1/users/{userId}/links (findUserLinks) and of the links.*
// read of a screening (readLinkSignals) for a user whose network has 1,000 depth-1 links, in a client
// with a large history. Not part of the test suite (docs/benchmarks-links.md has the method and figures).
//
// Generated in SQL (generate_series), in a client of its own on BENCH_DATABASE_URL (migrated):
// - background: BENCH_LINKS_USERS users (default 1,000,000) with 3 identifiers each (phone, email,
//   device; a tenth of the devices shared by 2-3 users), and BENCH_LINKS_TRANSACTIONS transactions
//   (default 2,000,000; the link queries read no transaction row, only the fraud index);
// - the target: 25 values (5 kinds) each held by the target and 40 others (cap 50): 1,000 distinct
//   depth-1 users; each of them shares one more value with 2 other users: 2,000 depth-2 users;
//   uses rows for every identifier of the network, one linked user blocked and one with fraud.
// Measured: EXPLAIN (ANALYZE) execution time of each statement (server time; planning reported apart)
// and wall time per call, median and p95 of BENCH_LINKS_RUNS (default 30) after 3 warm-up calls.
import pg from "pg";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.DATABASE_URL = DB_URL;
const USERS = Number(process.env.BENCH_LINKS_USERS ?? 1_000_000);
const TRANSACTIONS = Number(process.env.BENCH_LINKS_TRANSACTIONS ?? 2_000_000);
const RUNS = Number(process.env.BENCH_LINKS_RUNS ?? 30);

const { prisma } = await import("@/lib/db");
const { createClient } = await import("@/lib/clients/create-client");
const { findUserLinks } = await import("@/lib/links/find-user-links");
const { readLinkSignals } = await import("@/lib/links/read-link-signals");

const db = new pg.Client({ connectionString: DB_URL });
await db.connect();

const { clientId } = await createClient({
  name: `links bench ${Date.now()}`,
  type: "consumer",
  features: [],
});
const started = Date.now();
const step = async (label: string, sql: string, values: unknown[] = []) => {
  const t = Date.now();
  await db.query(sql, values);
  console.log(`  ${label}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
};
console.log(`generating (client ${clientId}):`);
await step(
  `${USERS.toLocaleString("en")} background users`,
  `INSERT INTO "users" ("clientId", "id", "createdAt") SELECT $1, 'bg-' || g, now() - interval '400 days'
   FROM generate_series(1, $2) g`,
  [clientId, USERS],
);
await step(
  "their identifiers",
  `INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source", "createdAt")
   SELECT $1, k.kind, CASE k.kind WHEN 'phone' THEN '+1' || lpad(g::text, 10, '0')
                                  WHEN 'email' THEN 'u' || g || '@bench.test'
                                  ELSE 'fp-bg-' || CASE WHEN g % 10 = 0 THEN (g / 30)::text ELSE g::text END END,
          'bg-' || g, 'api', now() - (g % 400) * interval '1 day'
   FROM generate_series(1, $2) g CROSS JOIN (VALUES ('phone'), ('email'), ('deviceFingerprint')) k(kind)
   ON CONFLICT DO NOTHING`,
  [clientId, USERS],
);
await step(
  `${TRANSACTIONS.toLocaleString("en")} transactions`,
  `INSERT INTO "transactions" ("clientId", "id", "userId", "status", "currencyCode", "amount", "occurredAt",
     "data", "bodyHash", "riskLevel", "recommendedAction", "assessedAt", "isFraud")
   SELECT $1, 'tx-' || g, 'bg-' || (g % $3 + 1), 'APPROVED', 'USD', g % 1000, now() - (g % 365) * interval '1 day',
     '{}'::jsonb, md5(g::text), 'low', 'ALLOW', now(), g % 50000 = 0
   FROM generate_series(1, $2) g`,
  [clientId, TRANSACTIONS, USERS],
);
// The target's network: 25 values x 40 others = 1,000 depth-1 users; each shares a 'second' value
// with two more users (depth 2).
const KINDS = ["phone", "email", "deviceFingerprint", "bankAccountNumber", "cardFingerprint"];
await step(
  "the target's network",
  `WITH vals AS (SELECT (ARRAY['phone','email','deviceFingerprint','bankAccountNumber','cardFingerprint'])[1 + (v % 5)] AS kind,
                        'net-' || v AS value, v FROM generate_series(0, 24) v),
        holders AS (SELECT vals.kind, vals.value, 'net-u-' || (vals.v * 40 + h) AS "userId"
                    FROM vals CROSS JOIN generate_series(1, 40) h
                    UNION ALL SELECT kind, value, 'target' FROM vals),
        second AS (SELECT 'deviceFingerprint' AS kind, 'net2-' || u AS value, x AS "userId"
                   FROM generate_series(1, 1000) u
                   CROSS JOIN LATERAL (VALUES ('net-u-' || u), ('net2-a-' || u), ('net2-b-' || u)) AS y(x)),
        allrows AS (SELECT * FROM holders UNION ALL SELECT * FROM second)
   INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source", "createdAt")
   SELECT $1, kind, value, "userId", 'device', now() - interval '90 days' FROM allrows`,
  [clientId],
);
await step(
  "uses of the network's values",
  `INSERT INTO "user_identifier_uses" ("clientId", "kind", "value", "userId", "firstUsedAt", "lastUsedAt", "transactionCount")
   SELECT "clientId", "kind", "value", "userId", now() - interval '80 days', now() - (random() * 60) * interval '1 day', 1 + (random() * 20)::int
   FROM "user_identifiers" WHERE "clientId" = $1 AND ("value" LIKE 'net-%' OR "value" LIKE 'net2-%')`,
  [clientId],
);
await step(
  "network users",
  `INSERT INTO "users" ("clientId", "id", "createdAt", "status")
   SELECT DISTINCT $1, "userId", now(), CASE WHEN "userId" = 'net-u-7' THEN 'blocked' ELSE 'active' END
   FROM "user_identifiers" WHERE "clientId" = $1 AND "userId" NOT LIKE 'bg-%' ON CONFLICT DO NOTHING`,
  [clientId],
);
await step(
  "VACUUM ANALYZE",
  `VACUUM ANALYZE "users", "user_identifiers", "user_identifier_uses", "transactions"`,
);
console.log(`generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// Server time of the statements as the code sends them: capture their text and parameters once.
const captured: Array<{ text: string; values: unknown[] }> = [];
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
  if (typeof text === "string") captured.push({ text, values: values ?? [] });
  else if (text && typeof text === "object" && "text" in text)
    captured.push({ text: text.text, values: text.values ?? [] });
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function measure(label: string, run: () => Promise<unknown>, check: (r: unknown) => string) {
  captured.length = 0;
  const first = await run();
  const statements = [...captured];
  for (let i = 0; i < 3; i++) await run();
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    wall.push(performance.now() - t);
  }
  const server: number[] = [];
  const planning: number[] = [];
  for (const s of statements) {
    if (!/^\s*(WITH|SELECT)/i.test(s.text)) continue;
    const runsOf: number[] = [];
    for (let i = 0; i < 5; i++) {
      const plan = await db.query<{
        "QUERY PLAN": Array<{ "Execution Time": number; "Planning Time": number }>;
      }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
      const p = plan.rows[0]!["QUERY PLAN"][0]!;
      runsOf.push(p["Execution Time"]);
      planning.push(p["Planning Time"]);
    }
    server.push(percentile(runsOf, 50));
  }
  console.log(
    `${label}: ${check(first)}; ${statements.length} statement(s); server (EXPLAIN ANALYZE execution, median of 5, summed): ` +
      `${server.reduce((a, b) => a + b, 0).toFixed(1)} ms (planning ${percentile(planning, 50).toFixed(1)} ms); ` +
      `wall per call p50 ${percentile(wall, 50).toFixed(1)} ms, p95 ${percentile(wall, 95).toFixed(1)} ms`,
  );
}

type TLinks = { links: Array<{ depth: number }>; capped: unknown[] };
const describe = (r: unknown) => {
  const l = r as TLinks;
  return `${l.links.filter((x) => x.depth === 1).length} depth-1, ${l.links.filter((x) => x.depth === 2).length} depth-2 links, ${l.capped.length} capped`;
};
await measure(
  "GET links depth=1",
  () => findUserLinks(prisma, { clientId, userId: "target", depth: 1, fanOutCap: 50 }),
  describe,
);
await measure(
  "GET links depth=2",
  () => findUserLinks(prisma, { clientId, userId: "target", depth: 2, fanOutCap: 50 }),
  describe,
);
const tx = {
  $queryRawUnsafe: async (sql: string, ...values: unknown[]) => (await db.query(sql, values)).rows,
} as never;
await measure(
  "links.* read of a screening (4 counts, 1 window, blocked, fraud)",
  () =>
    readLinkSignals(tx, {
      clientId,
      userId: "target",
      current: [{ kind: "deviceFingerprint", value: "net-2" }],
      timestamp: Date.now(),
      requests: {
        kinds: KINDS.slice(0, 4) as never,
        windows: [{ kind: "deviceFingerprint", window: "30d" }],
        blocked: true,
        fraud: true,
      },
    }),
  (r) => JSON.stringify(Object.fromEntries(r as Map<string, number>)),
);
const sizes = await db.query<{ identifiers: string; transactions: string }>(
  `SELECT (SELECT count(*) FROM "user_identifiers") AS identifiers, (SELECT count(*) FROM "transactions") AS transactions`,
);
console.log(`database: ${JSON.stringify(sizes.rows[0])}`);
pg.Client.prototype.query = original;
await db.end();
await prisma.$disconnect();
