// Webhook delivery in the embedded mode: throughput (deliveries per second through the in-process
// driver and the signed serve endpoint to a local receiver) and the time from the commit of the
// emitting transaction to the receiver's first request.
//
//   npx tsx bench/webhooks.ts [--n 1000] [--latency 30] [--concurrency 8] [--pglite] [--poll] [--serve | --http]
//   npx tsx bench/webhooks.ts --attach [--seconds 60] [--concurrency 32]
//
// --attach: only the driver, as `npm start` runs it, against DATABASE_URL (e.g. the database of
// bench/profile-http.ts, whose server then runs with JOB_DRIVER=off and the same WEBHOOK_SECRET_KEY),
// printing every 5 s the attempts it made and its own CPU per attempt: the CPU of deliveries under
// screening load, apart from the screenings'.
//
// Default: the function on the SDK's engine in this process, as `npm start` runs it
// (lib/jobs/run-in-process.ts); --serve: the signed serve handler called in process (before);
// --http: the signed serve endpoint over HTTP.
// PostgreSQL: a scratch database on TEST_DATABASE_ADMIN_URL (default postgres@127.0.0.1:5432);
// --pglite: the embedded database (PGlite over its socket server) in a temporary folder.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const N = flag("n", 1000);
const LATENCY_SAMPLES = flag("latency", 30);
const CONCURRENCY = flag("concurrency", 8);
const PGLITE = process.argv.includes("--pglite");

(process.env as Record<string, string>).NODE_ENV = "test";
process.env.NEXTAUTH_SECRET ??= "bench-nextauth-secret-0123456789";
process.env.WEBHOOK_SECRET_KEY ??= "bench-webhook-secret-key-0123456789";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

if (process.argv.includes("--attach")) {
  await attach();
  process.exit(0);
}

async function attach(): Promise<void> {
  const seconds = flag("seconds", 60);
  const { inngest, INNGEST_APP_ID } = await import("../inngest/client");
  const { eventsWithoutFunctions, functions, functionVersions } = await import("../inngest/index");
  const { jobsPool } = await import("../lib/db");
  const { startJobDriver } = await import("../lib/jobs/driver");
  const { describeFunctions } = await import("../lib/jobs/function-table");
  const { inProcessRunner } = await import("../lib/jobs/run-in-process");
  const { servingSigningKey } = await import("../lib/jobs/signing-key");
  const attempts = async () =>
    (
      await jobsPool().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_attempts WHERE "startedAt" >= $1`,
        [new Date(started)],
      )
    ).rows[0]!.n;
  const started = Date.now();
  const driver = startJobDriver({
    mode: "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: "http://127.0.0.1:9/api/inngest",
    runInProcess: inProcessRunner(inngest, functions),
    signingKey: servingSigningKey()!,
    concurrency: CONCURRENCY,
    listen: process.env.DATABASE_URL,
  });
  const cpu0 = process.cpuUsage();
  let last = { at: started, cpu: process.cpuUsage(), n: 0 };
  while (Date.now() - started < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 5000));
    const n = await attempts();
    const cpu = process.cpuUsage(last.cpu);
    const ms = (cpu.user + cpu.system) / 1000;
    console.log(
      `${((Date.now() - started) / 1000).toFixed(0)} s: ${n - last.n} attempts ` +
        `(${(((n - last.n) * 1000) / (Date.now() - last.at)).toFixed(0)}/s), ` +
        `CPU ${ms.toFixed(0)} ms = ${n > last.n ? (ms / (n - last.n)).toFixed(2) : "-"} ms per attempt`,
    );
    last = { at: Date.now(), cpu: process.cpuUsage(), n };
  }
  await driver.stop();
  const cpu = process.cpuUsage(cpu0);
  const n = await attempts();
  console.log(
    `attached ${seconds} s: ${n} attempts, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms = ` +
      `${n > 0 ? ((cpu.user + cpu.system) / 1000 / n).toFixed(2) : "-"} ms per attempt`,
  );
}

let cleanup: () => Promise<void> = async () => {};
if (PGLITE) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rss-bench-"));
  process.env.EMBEDDED_DATA_DIR = dir;
  const { startEmbeddedDatabase } = await import("../lib/embedded/server");
  const db = await startEmbeddedDatabase();
  process.env.DATABASE_URL = db.url;
  cleanup = async () => {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  };
} else {
  const { adminQuery, databaseUrl } = await import("../tests/pg-admin");
  const name = `${process.env.BENCH_DB_PREFIX ?? "rss_bench"}_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  process.env.DATABASE_URL = databaseUrl(name);
  cleanup = () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
// Asynchronously: with --pglite the database is served by this very process.
await promisify(execFile)("npx", ["prisma", "migrate", "deploy"], { env: process.env });

const { POST } = await import("../app/api/inngest/route");
const { INNGEST_APP_ID } = await import("../inngest/client");
const { eventsWithoutFunctions, functions, functionVersions } = await import("../inngest/index");
const { prisma } = await import("../lib/db");
const { startJobDriver } = await import("../lib/jobs/driver");
const { describeFunctions } = await import("../lib/jobs/function-table");
const { servingSigningKey } = await import("../lib/jobs/signing-key");
const { inProcessRunner } = await import("../lib/jobs/run-in-process");
const { inngest } = await import("../inngest/client");
const { createSubscription } = await import("../lib/webhooks/create-subscription");
const { emitWebhookEvent } = await import("../lib/webhooks/emit");
const { createTestClient } = await import("../tests/factories");
const { startRouteServer } = await import("../tests/support/serve-server");

const firstSeen = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const id = String(req.headers["x-service-delivery"]);
  if (!firstSeen.has(id)) firstSeen.set(id, performance.now());
  req.resume();
  req.on("end", () => res.writeHead(204).end());
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const serve = await startRouteServer({ POST: POST as never });
const { clientId } = await createTestClient();
await createSubscription({
  clientId,
  clientType: "consumer",
  url,
  events: ["alert.created"],
  secret: "bench-secret",
});

const emit = (i: number) =>
  prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId,
      event: "alert.created",
      payload: {
        transactionId: `tx-${i}`,
        ruleId: "R1",
        ruleName: "Rule",
        level: "high",
        reason: "bench",
        recommendedAction: "REVIEW",
        alertedAt: Date.now(),
      },
    }),
  );
const startDriver = () =>
  startJobDriver({
    mode: "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: serve.url,
    // As `npm start`: the SDK's engine in process (--serve: the signed serve handler in process; --http:
    // the signed serve endpoint over HTTP).
    runInProcess:
      process.argv.includes("--serve") || process.argv.includes("--http")
        ? undefined
        : inProcessRunner(inngest, functions),
    invoke: process.argv.includes("--serve") ? (request) => POST(request as never, undefined) : undefined,
    signingKey: servingSigningKey()!,
    concurrency: CONCURRENCY,
    // PostgreSQL: woken at commit by LISTEN/NOTIFY (the embedded database only polls, as `npm run dev` does).
    listen: PGLITE || process.argv.includes("--poll") ? undefined : process.env.DATABASE_URL,
  });
const delivered = () => prisma.webhookDelivery.count({ where: { clientId, status: "delivered" } });

// Throughput: N deliveries queued while the driver is stopped, then drained.
for (let i = 0; i < N; i++) await emit(i);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
let driver = startDriver();
while ((await delivered()) < N) await new Promise((r) => setTimeout(r, 20));
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await driver.stop();

// Latency: one event at a time against an idle driver (woken by NOTIFY; --poll or --pglite: 250 ms poll).
driver = startDriver();
await new Promise((r) => setTimeout(r, 500));
const latencies: number[] = [];
for (let i = 0; i < LATENCY_SAMPLES; i++) {
  await emit(N + i);
  const committed = performance.now();
  const row = await prisma.webhookDelivery.findFirstOrThrow({
    where: { clientId, body: { contains: `"tx-${N + i}"` } },
  });
  while (!firstSeen.has(row.id)) await new Promise((r) => setTimeout(r, 2));
  latencies.push(firstSeen.get(row.id)! - committed);
  await new Promise((r) => setTimeout(r, Math.random() * 300));
}
await driver.stop();

latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(0);
console.log(
  JSON.stringify(
    {
      database: PGLITE ? "pglite (embedded)" : "postgresql",
      deliveries: N,
      concurrency: CONCURRENCY,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Number((N / seconds).toFixed(1)),
      // This process: driver, serve endpoint, function bodies and receiver together.
      cpuMsPerDelivery: Number(((cpu.user + cpu.system) / 1000 / N).toFixed(2)),
      commitToFirstAttemptMs: {
        samples: latencies.length,
        p50: Number(pct(50)),
        p95: Number(pct(95)),
        max: Number(pct(100)),
      },
    },
    null,
    2,
  ),
);

await serve.close();
await new Promise<void>((resolve) => receiver.close(() => resolve()));
await prisma.$disconnect();
await cleanup();
