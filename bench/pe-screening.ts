// /v1/transaction/update (with and without transactionUpdateMonitoring), payment-instrument and event
// screenings in-process, raw-SQL path against the Prisma path it replaced: Node CPU ms and statements per
// request (robust to a busy machine), and latency p50/p99 at 1 and 8 concurrent requests (not robust).
// Both paths run the same bodies on the same database: a client with the demo rules plus aggregate rules
// over BENCH_ROWS (20,000) history transactions and 2,000 events, a webhook subscription to every
// screening event and alert.created. No HTTP and no API key read (the same for both).
// Environment: BENCH_DATABASE_URL (migrated), BENCH_SCREENINGS (400 per path and concurrency).
import pg from "pg";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.DATABASE_URL = DB_URL;
process.env.DATABASE_POOL_SIZE ??= "10";
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const N = Number(process.env.BENCH_SCREENINGS ?? 400);

const { prisma } = await import("@/lib/db");
const { createClient } = await import("@/lib/clients/create-client");
const { authenticateApiKey } = await import("@/lib/auth/api-keys");
const { importRules } = await import("@/lib/rules/import-rules");
const { DEMO_RULES } = await import("@/lib/rules/demo-rules");
const { updateTransaction } = await import("@/lib/screening/update-transaction");
const { updateTransactionPrisma, screenPaymentInstrumentPrisma, screenEventPrisma } =
  await import("@/tests/oracle/pi-event-update-oracle");
const { screenPaymentInstrument } = await import("@/lib/screening/screen-payment-instrument");
const { screenEvent } = await import("@/lib/screening/screen-event");
const { ZTransactionUpdate } = await import("@/lib/transactions/schemas");
const { ZPaymentInstrumentRequest } = await import("@/lib/payment-instruments/schemas");
const { ZEvent } = await import("@/lib/events/schemas");

let statements = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

async function benchClient(features: string[]) {
  const { clientId, apiKey } = await createClient({
    name: `pe bench ${Date.now()}`,
    type: "consumer",
    features: features as never,
  });
  const count = (over: string, groupBy: string) => ({
    n24h: { function: "count", over, groupBy, window: "24h" },
  });
  await importRules({
    clientId,
    rules: [
      ...DEMO_RULES.filter((r) => ["transaction", "paymentInstrument", "event"].includes(r.subject)).map(
        (r) => ({ ...r, status: "active" }),
      ),
      ...(
        [
          ["P-VOLUME", "paymentInstrument", "aggregates.n24h > 40", count("transaction", "userId")],
          ["P-BLOCKED", "paymentInstrument", "user.?status.orValue('') == 'blocked'", {}],
          ["E-BURST", "event", "aggregates.n24h > 20", count("event", "userId")],
          ["E-USER", "event", "user.?status.orValue('') == 'blocked'", {}],
        ] as const
      ).map(([id, subject, condition, aggs]) => ({
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
      events: ["transaction.screened", "alert.created", "payment_instrument.screened", "event.screened"],
      secretEncrypted: "unused-in-this-bench",
    },
  });
  await prisma.$executeRawUnsafe(`
    INSERT INTO users ("clientId", id, data, status, "createdAt", "updatedAt")
    SELECT '${clientId}', 'u' || g, jsonb_build_object('id', 'u' || g), CASE WHEN g % 17 = 0 THEN 'blocked' ELSE 'active' END,
      now() - interval '30 days', now()
    FROM generate_series(0, 199) g`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO transactions ("clientId", id, "userId", "merchantId", "cardFingerprint", status, "currencyCode", amount,
      "occurredAt", data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
    SELECT '${clientId}', 'h-' || g, 'u' || (g % 200), 'm' || (g % 50), 'fp-' || (g % 300), 'PENDING', 'USD',
      (g * 37 % 12000), now() - (g * 30 || ' seconds')::interval,
      jsonb_build_object('id', 'h-' || g, 'userId', 'u' || (g % 200), 'status', 'PENDING', 'amount', g * 37 % 12000,
        'currencyCode', 'USD', 'card', jsonb_build_object('cardFingerprint', 'fp-' || (g % 300))),
      md5(g::text), 'low', 'ALLOW', now()
    FROM generate_series(1, ${ROWS}) g`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO events ("clientId", id, type, "userId", "occurredAt", data)
    SELECT '${clientId}', 'e-' || g, 'login', 'u' || (g % 200), now() - (g * 60 || ' seconds')::interval,
      jsonb_build_object('id', 'e-' || g, 'type', 'login')
    FROM generate_series(1, 2000) g`);
  await prisma.$executeRawUnsafe(`ANALYZE transactions`);
  await prisma.$executeRawUnsafe(`ANALYZE events`);
  return (await authenticateApiKey(apiKey))!;
}

const on = await benchClient(["transactionUpdateMonitoring", "paymentInstrumentRules", "eventRules"]);
const off = await benchClient([]);

const updateBody = (i: number) =>
  ZTransactionUpdate.parse({
    transactionId: `h-${1 + ((i * 7) % 5000)}`,
    status: ["APPROVED", "DECLINED", "PENDING"][i % 3],
    ...(i % 4 === 0 ? { transaction: { card: { cardFingerprint: `fp-${i % 300}` } } } : {}),
  });
const instrumentBody = (prefix: string, i: number) =>
  ZPaymentInstrumentRequest.parse({
    status: i % 5 ? "linked" : "unlinked",
    paymentInstrument: {
      id: `${prefix}pi${i % 2 ? i : i % 100}`,
      userId: `u${i % 200}`,
      card: { fingerprint: `fp-${i % 300}` },
    },
  });
const eventBody = (prefix: string, i: number) =>
  ZEvent.parse({ id: `${prefix}ev${i}`, type: i % 3 ? "login" : "password_reset", userId: `u${i % 200}` });

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
    `${label.padEnd(34)} c=${concurrency}: ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms Node CPU, ` +
      `${(statements / N).toFixed(1)} statements per request; ${Math.round((N * 1000) / wall)}/s, ` +
      `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`,
  );
}

const run0 = Date.now().toString(36);
for (const concurrency of [1, 8]) {
  const tag = (path: string) => `${run0}${path}${concurrency}`;
  for (const [label, screen] of [
    [
      "update + monitoring, Prisma path",
      (i: number) => updateTransactionPrisma({ client: on, body: updateBody(i) }),
    ],
    [
      "update + monitoring, raw-SQL path",
      (i: number) => updateTransaction({ client: on, body: updateBody(i) }),
    ],
    ["update, Prisma path", (i: number) => updateTransactionPrisma({ client: off, body: updateBody(i) })],
    ["update, raw-SQL path", (i: number) => updateTransaction({ client: off, body: updateBody(i) })],
    [
      "payment instrument, Prisma path",
      (i: number) => screenPaymentInstrumentPrisma({ client: on, body: instrumentBody(tag("p"), i) }),
    ],
    [
      "payment instrument, raw-SQL path",
      (i: number) => screenPaymentInstrument({ client: on, body: instrumentBody(tag("h"), i) }),
    ],
    ["event, Prisma path", (i: number) => screenEventPrisma({ client: on, body: eventBody(tag("p"), i) })],
    ["event, raw-SQL path", (i: number) => screenEvent({ client: on, body: eventBody(tag("h"), i) })],
  ] as const) {
    await run(label, concurrency, screen);
  }
}
await prisma.$disconnect();
process.exit(0);
