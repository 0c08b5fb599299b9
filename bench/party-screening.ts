// User and merchant screenings (and POST /v1/user's saveUser) in-process, raw-SQL path (screenUser, screenMerchant) against the Prisma
// path it replaced (screenUserPrisma, screenMerchantPrisma): Node CPU ms and statements per screening
// (robust to a busy machine), and latency p50/p99 at 1 and 8 concurrent screenings (not robust).
// Both paths run the same bodies on the same database: a business client with the demo user and
// merchant rules plus aggregate rules over BENCH_ROWS (20,000) history transactions, and a webhook
// subscription to user.screened and merchant.screened. No HTTP and no API key read (the same for both).
// Environment: BENCH_DATABASE_URL (migrated), BENCH_SCREENINGS (600 per path and concurrency).
import pg from "pg";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.DATABASE_URL = DB_URL;
process.env.DATABASE_POOL_SIZE ??= "10";
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const N = Number(process.env.BENCH_SCREENINGS ?? 600);

const { prisma } = await import("@/lib/db");
const { createClient } = await import("@/lib/clients/create-client");
const { authenticateApiKey } = await import("@/lib/auth/api-keys");
const { importRules } = await import("@/lib/rules/import-rules");
const { DEMO_RULES } = await import("@/lib/rules/demo-rules");
const { screenUser } = await import("@/lib/screening/screen-user");
const { screenUserPrisma, screenMerchantPrisma, saveUserPrisma } =
  await import("@/tests/oracle/party-screening-oracle");
const { screenMerchant } = await import("@/lib/screening/screen-merchant");
const { ZUser } = await import("@/lib/users/schemas");
const { saveUser } = await import("@/lib/users/save-user");
const { ZMerchant } = await import("@/lib/merchants/schemas");

let statements = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const { clientId, apiKey } = await createClient({
  name: `party bench ${Date.now()}`,
  type: "business",
  features: ["merchantRiskAssessment"],
});
const aggregates = (groupBy: string) => ({
  n24h: { function: "count", over: "transaction", groupBy, window: "24h" },
  sum7d: { function: "sum", over: "transaction", groupBy, window: "7d", field: "amount" },
  max7d: { function: "max", over: "transaction", groupBy, window: "7d", field: "amount" },
});
await importRules({
  clientId,
  rules: [
    ...DEMO_RULES.filter((r) => r.subject === "user" || r.subject === "merchant").map((r) => ({
      ...r,
      status: "active",
    })),
    ...[
      ["U-VOLUME", "user", "aggregates.sum7d > 500000 || aggregates.n24h > 40", aggregates("userId")],
      ["U-BLOCKED", "user", "user.status == 'blocked'", {}],
      [
        "M-VOLUME",
        "merchant",
        "aggregates.max7d != null && aggregates.max7d > 11990",
        aggregates("merchantId"),
      ],
      ["M-BLOCKED", "merchant", "merchant.status == 'blocked'", {}],
    ].map(([id, subject, condition, aggs]) => ({
      id,
      name: `Rule ${id}`,
      subject,
      status: "active",
      riskLevel: "high",
      recommendedAction: "REVIEW",
      reason: "bench",
      condition,
      aggregates: aggs,
    })),
  ],
});
await prisma.webhookSubscription.create({
  data: {
    clientId,
    url: "http://127.0.0.1:9/hook",
    events: ["user.screened", "merchant.screened"],
    secretEncrypted: "unused-in-this-bench",
  },
});
await prisma.$executeRawUnsafe(`
  INSERT INTO transactions ("clientId", id, "userId", "merchantId", status, "currencyCode", amount, "occurredAt",
    data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
  SELECT '${clientId}', 'h-' || g, 'u' || (g % 200), 'm' || (g % 50), 'APPROVED', 'USD', (g * 37 % 12000),
    now() - (g * 30 || ' seconds')::interval, jsonb_build_object('id', 'h-' || g, 'amount', g * 37 % 12000),
    md5(g::text), 'low', 'ALLOW', now()
  FROM generate_series(1, ${ROWS}) g`);
await prisma.$executeRawUnsafe(`ANALYZE transactions`);
const client = (await authenticateApiKey(apiKey))!;

// half of the screenings update a stored party (ids repeat), half create one
const userBody = (prefix: string, i: number) =>
  ZUser.parse({
    id: `${prefix}u${i % 2 ? i : i % 200}`,
    firstName: "Ann",
    email: { email: `u${i}@example.com` },
    phone: { phone: "+1 555 0100" },
    address: { postalCode: "1", country: i % 10 ? "DE" : "IR" },
    userDevice: { id: `dev-${i % 300}`, ipAddress: `10.0.${i % 200}.1` },
    ...(i % 7 === 0 ? { status: "blocked" } : {}),
    timestamp: Date.now() - 60_000,
  });
const merchantBody = (prefix: string, i: number) =>
  ZMerchant.parse({
    id: `${prefix}m${i % 2 ? i : i % 50}`,
    name: `Shop ${i % 3}`,
    status: i % 9 ? "active" : "blocked",
    timestamp: Date.now() - 60_000,
  });

async function run(label: string, concurrency: number, screen: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  statements = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < N; i = next++) {
        const started = performance.now();
        await screen(i);
        latencies.push(performance.now() - started);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
  console.log(
    `${label.padEnd(28)} c=${concurrency}: ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms Node CPU, ` +
      `${(statements / N).toFixed(1)} statements per screening; ${Math.round((N * 1000) / wall)}/s, ` +
      `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`,
  );
}

const run0 = Date.now().toString(36);
for (const concurrency of [1, 8]) {
  for (const [label, screen] of [
    [
      "user, Prisma path",
      (i: number) => screenUserPrisma({ client, body: userBody(`${run0}p${concurrency}`, i) }),
    ],
    [
      "user, raw-SQL path",
      (i: number) => screenUser({ client, body: userBody(`${run0}h${concurrency}`, i) }),
    ],
    [
      "save user, Prisma path",
      (i: number) => saveUserPrisma({ clientId, user: userBody(`${run0}sp${concurrency}`, i) }),
    ],
    [
      "save user, raw-SQL path",
      (i: number) => saveUser({ clientId, user: userBody(`${run0}sh${concurrency}`, i) }),
    ],
    [
      "merchant, Prisma path",
      (i: number) => screenMerchantPrisma({ client, body: merchantBody(`${run0}p${concurrency}`, i) }),
    ],
    [
      "merchant, raw-SQL path",
      (i: number) => screenMerchant({ client, body: merchantBody(`${run0}h${concurrency}`, i) }),
    ],
  ] as const) {
    await run(label, concurrency, screen);
  }
}
await prisma.$disconnect();
process.exit(0);
