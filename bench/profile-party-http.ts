// Server CPU per request of POST /v1/user/onboard, /v1/merchantRequest and /v1/user through HTTP: one
// `next start` process (needs `npx next build`) against BENCH_DATABASE_URL (migrated), autocannon at
// PROFILE_CONNECTIONS (8) for PROFILE_SECONDS (10) per endpoint, CPU read from /proc (robust to a busy
// machine, unlike the rates). A business client with the demo user/merchant rules plus aggregate rules
// over BENCH_ROWS (20,000) history rows and a webhook subscription whose rows are written but not sent
// (JOB_DRIVER=off unless set: the figure is the screening's own CPU; BENCH_WEBHOOKS=0 for no subscription).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 8);
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
process.env.DATABASE_URL = DB_URL;
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";

const { prisma } = await import("@/lib/db");
const { createClient } = await import("@/lib/clients/create-client");
const { importRules } = await import("@/lib/rules/import-rules");
const { DEMO_RULES } = await import("@/lib/rules/demo-rules");

const { clientId, apiKey } = await createClient({
  name: `party http bench ${Date.now()}`,
  type: "business",
  features: ["merchantRiskAssessment"],
});
const aggregates = (groupBy: string) => ({
  n24h: { function: "count", over: "transaction", groupBy, window: "24h" },
  sum7d: { function: "sum", over: "transaction", groupBy, window: "7d", field: "amount" },
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
      ["M-VOLUME", "merchant", "aggregates.sum7d > 500000", aggregates("merchantId")],
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
if (process.env.BENCH_WEBHOOKS !== "0")
  await prisma.webhookSubscription.create({
    data: {
      clientId,
      url: "http://127.0.0.1:9/hook",
      events: ["user.screened", "merchant.screened"],
      secretEncrypted: "unused-in-this-bench",
      active: true,
    },
  });
await prisma.$executeRawUnsafe(`
  INSERT INTO transactions ("clientId", id, "userId", "merchantId", status, "currencyCode", amount, "occurredAt",
    data, "bodyHash", "riskLevel", "recommendedAction", "assessedAt")
  SELECT '${clientId}', 'h-' || g, 'u' || (g % 200), 'm' || (g % 50), 'APPROVED', 'USD', (g * 37 % 12000),
    now() - (g * 30 || ' seconds')::interval, jsonb_build_object('id', 'h-' || g), md5(g::text), 'low', 'ALLOW', now()
  FROM generate_series(1, ${ROWS}) g`);
await prisma.$executeRawUnsafe(`ANALYZE transactions`);
// the webhook driver would also spend this process's CPU on the deliveries: leave it to this bench's rows only
await prisma.$executeRawUnsafe(
  `UPDATE outbox_events SET "dispatchedAt" = now() WHERE "dispatchedAt" IS NULL`,
);

const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: DB_URL,
    DATABASE_POOL_SIZE: "10",
    RATE_LIMIT_PER_SECOND: "1000000",
    JOB_DRIVER: process.env.JOB_DRIVER ?? "off",
    NEXT_TELEMETRY_DISABLED: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/v1/openapi.json`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 120) throw new Error("server did not start");
  await sleep(500);
}
const cpuSeconds = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};

const run = Date.now().toString(36);
const bodies: Record<string, (i: number) => unknown> = {
  "/v1/user/onboard": (i) => ({
    id: `${run}u${i % 2 ? i : i % 200}`,
    firstName: "Ann",
    email: { email: `u${i}@example.com` },
    address: { postalCode: "1", country: i % 10 ? "DE" : "IR" },
    userDevice: { id: `dev-${i % 300}`, ipAddress: `10.0.${i % 200}.1` },
    timestamp: Date.now() - 60_000,
  }),
  "/v1/merchantRequest": (i) => ({
    id: `${run}m${i % 2 ? i : i % 50}`,
    name: `Shop ${i % 3}`,
    status: "active",
    timestamp: Date.now() - 60_000,
  }),
  "/v1/user": (i) => ({
    id: `${run}s${i % 2 ? i : i % 200}`,
    firstName: "Ann",
    phone: { phone: "+1 555 0100" },
    timestamp: Date.now() - 60_000,
  }),
};
for (const [route, body] of Object.entries(bodies)) {
  for (const [label, duration] of [
    ["warm-up", 3],
    ["measured", SECONDS],
  ] as const) {
    let seq = 0;
    const cpu0 = cpuSeconds();
    const result = await autocannon({
      url: `http://127.0.0.1:${PORT}${route}`,
      method: "POST",
      connections: CONNECTIONS,
      duration,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      requests: [
        {
          setupRequest: (req) => {
            req.body = JSON.stringify(body(seq++));
            return req;
          },
        },
      ],
    });
    const cpu = cpuSeconds() - cpu0;
    if (label === "measured")
      console.log(
        `POST ${route.padEnd(20)} c=${CONNECTIONS}: ${((cpu * 1000) / result.requests.total).toFixed(2)} ms server CPU ` +
          `per request; ${Math.round(result.requests.average)}/s, p50 ${result.latency.p50} ms, p99 ` +
          `${result.latency.p99} ms, non-2xx ${result.non2xx}`,
      );
  }
}
server.kill("SIGINT");
await new Promise((r) => server.once("exit", r));
await prisma.$disconnect();
process.exit(0);
