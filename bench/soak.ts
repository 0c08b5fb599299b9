// Soak: screenings at a steady rate against `npm start` (its server processes, job driver on, a webhook subscription to a
// local receiver) for BENCH_SOAK_SECONDS (default 600), sampling the server's RSS every few seconds.
// Reports first/last/max RSS, the linear trend (MB per minute, over the whole run and over its second
// half, after warm-up), request errors and webhook deliveries.
// Run: `BENCH_SOAK_SECONDS=600 npm run bench` or `npx tsx bench/soak.ts`. Environment:
// BENCH_SOAK_DATABASE_URL (postgresql://postgres@127.0.0.1:5432/rss_soak), BENCH_SOAK_CONNECTIONS (8),
// BENCH_SOAK_SAMPLE_SECONDS (5), BENCH_SOAK_PORT (3210). Results also in .data/soak-results.json.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { freshDatabase } from "./fresh-database";

const DB_URL = process.env.BENCH_SOAK_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_soak";
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 8);
const SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 5) * 1000;
const PORT = Number(process.env.BENCH_SOAK_PORT ?? 3210);
const SECRET = "whsec_soak";

type TSample = { atSeconds: number; rssMb: number; produced?: number; delivered?: number; backlog?: number };

const log = (msg: string) => console.log(`[soak] ${msg}`);

async function sql(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function adminUrl(): string {
  const u = new URL(DB_URL);
  u.pathname = "/postgres";
  return u.toString();
}

async function prepareDatabase(): Promise<{ clientId: string; apiKey: string }> {
  await freshDatabase(DB_URL);
  process.env.DATABASE_URL = DB_URL;
  const { createClient } = await import("@/lib/clients/create-client");
  const { importRules } = await import("@/lib/rules/import-rules");
  const { DEMO_RULES } = await import("@/lib/rules/demo-rules");
  const { prisma } = await import("@/lib/db");
  const created = await createClient({ name: "Soak", type: "consumer", features: [] });
  const rules = DEMO_RULES.filter((r) => r.subject === "transaction").map((r) => ({
    ...r,
    status: "active",
  }));
  await importRules({ clientId: created.clientId, rules });
  await prisma.$disconnect();
  log(`client ${created.clientId}: ${rules.length} active transaction rules`);
  return created;
}

async function startServer(): Promise<ChildProcess> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("no build: run `npx next build` first");
  // As `npm start`, through scripts/launch.ts: its server processes (WEB_CONCURRENCY overrides).
  const server = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      DATABASE_URL: DB_URL,
      NEXTAUTH_SECRET: "soak-secret-0123456789abcdef",
      WEBHOOK_SECRET_KEY: "soak-webhook-key-0123456789",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      RATE_LIMIT_PER_SECOND: "1000000",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/v1/openapi.json`)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill("SIGKILL");
  throw new Error("server did not start");
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** RSS of the server process and all its descendants, in MB. */
function treeRssMb(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  let kb = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    kb += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

/** Least-squares slope per minute (of RSS in MB unless `value` says otherwise). */
function slopePerMinute(samples: TSample[], value: (s: TSample) => number = (s) => s.rssMb): number {
  if (samples.length < 2) return 0;
  const xs = samples.map((s) => s.atSeconds / 60);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

export async function soak(): Promise<void> {
  const { clientId, apiKey } = await prepareDatabase();
  const receiver = await startReceiver(SECRET);
  const server = await startServer();
  const samples: TSample[] = [];
  try {
    const sub = await fetch(`http://127.0.0.1:${PORT}/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        url: receiver.url,
        events: ["transaction.screened", "alert.created"],
        secret: SECRET,
      }),
    });
    if (sub.status !== 200) throw new Error(`subscription failed: ${sub.status}`);
    const started = Date.now();
    // RSS, and the webhook deliveries produced, delivered and still pending (the backlog) so far
    const sample = () => {
      const s: TSample = { atSeconds: (Date.now() - started) / 1000, rssMb: treeRssMb(server.pid!) };
      samples.push(s);
      void sql(
        DB_URL,
        `SELECT count(*)::int AS produced, count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
           count(*) FILTER (WHERE status = 'pending')::int AS backlog
         FROM webhook_deliveries WHERE "clientId" = $1`,
        [clientId],
      )
        .then(({ rows }) => Object.assign(s, rows[0]))
        .catch(() => undefined);
    };
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    // Production PostgreSQL runs autovacuum; this machine's CI config turns it off
    // (/etc/postgresql/15/main/conf.d/90-ci.conf). Without it the tables of a soak that starts empty are
    // never analyzed, the planner reads each aggregate's group through ("clientId", "occurredAt") and
    // filters the whole window (every row of a soak), so screenings slow down linearly with the history
    // (docs/benchmarks.md). When it is off the soak does what autovacuum would: VACUUM ANALYZE every 30 s.
    const autovacuum = (await sql(DB_URL, "SHOW autovacuum")).rows[0]?.autovacuum === "on";
    let vacuuming = false;
    const vacuum = () => {
      if (vacuuming) return;
      vacuuming = true;
      void sql(DB_URL, "VACUUM (ANALYZE)")
        .catch(() => undefined)
        .finally(() => (vacuuming = false));
    };
    const vacuumer = autovacuum ? null : setInterval(vacuum, 30_000);
    if (!autovacuum) log("autovacuum is off on this server: VACUUM (ANALYZE) every 30 s instead");
    let seq = 0;
    const run = Date.now().toString(36);
    log(`${SECONDS} s at ${CONNECTIONS} connections, RSS every ${SAMPLE_MS / 1000} s`);
    const result = await autocannon({
      url: `http://127.0.0.1:${PORT}/v1/transaction`,
      method: "POST",
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      requests: [
        {
          setupRequest: (req) => {
            seq++;
            req.body = JSON.stringify({
              id: `soak-${run}-${seq}`,
              userId: `u${seq % 5000}`,
              merchantId: `m${seq % 200}`,
              status: "PENDING",
              currencyCode: "USD",
              amount: (seq * 37) % 15000,
              direction: seq % 3 === 0 ? "payout" : "payin",
              timestamp: Date.now() - 1000,
              paymentMethod: "card",
              card: { cardFingerprint: `fp${seq % 7000}`, bin: "411111", binCountry: "US" },
            });
            return req;
          },
        },
      ],
    });
    sample();
    clearInterval(sampler);
    if (vacuumer) clearInterval(vacuumer);

    // Let the driver catch up with the deliveries (up to two minutes), then count.
    const drainStarted = Date.now();
    for (;;) {
      const pending = await sql(
        DB_URL,
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE "clientId" = $1 AND status = 'pending'`,
        [clientId],
      );
      if ((pending.rows[0] as { n: number }).n === 0 || Date.now() - drainStarted > 120_000) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const drainSeconds = Math.round((Date.now() - drainStarted) / 1000);
    const deliveries = await sql(
      DB_URL,
      `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE "clientId" = $1 GROUP BY status`,
      [clientId],
    );
    const byStatus = Object.fromEntries(
      deliveries.rows.map((r: { status: string; n: number }) => [r.status, r.n]),
    );
    const stored = await sql(DB_URL, `SELECT count(*)::int AS n FROM transactions WHERE "clientId" = $1`, [
      clientId,
    ]);

    const rss = samples.map((s) => s.rssMb);
    const secondHalf = samples.filter((s) => s.atSeconds >= SECONDS / 2);
    const counted = samples.filter((s) => s.backlog !== undefined);
    const halfCounted = counted.filter((s) => s.atSeconds >= SECONDS / 2);
    const rate = (list: TSample[], key: "produced" | "delivered") =>
      list.length < 2
        ? 0
        : Math.round(
            (list[list.length - 1]![key]! - list[0]![key]!) /
              (list[list.length - 1]!.atSeconds - list[0]!.atSeconds),
          );
    const summary = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      transactionsStored: (stored.rows[0] as { n: number }).n,
      deliveries: byStatus,
      deliveryDrainSeconds: drainSeconds,
      // under load: backlog (pending deliveries) at the samples; flat = its trend near 0 per minute
      backlog: {
        max: Math.max(0, ...counted.map((s) => s.backlog!)),
        last: counted[counted.length - 1]?.backlog ?? null,
        secondHalfTrendPerMinute: Number(slopePerMinute(halfCounted, (s) => s.backlog!).toFixed(1)),
        secondHalfProducedPerSecond: rate(halfCounted, "produced"),
        secondHalfDeliveredPerSecond: rate(halfCounted, "delivered"),
      },
      received: receiver.received.length,
      rssMb: {
        first: Math.round(rss[0]!),
        last: Math.round(rss[rss.length - 1]!),
        max: Math.round(Math.max(...rss)),
        trendMbPerMinute: Number(slopePerMinute(samples).toFixed(2)),
        secondHalfTrendMbPerMinute: Number(slopePerMinute(secondHalf).toFixed(2)),
      },
      samples,
    };
    mkdirSync(path.resolve(".data"), { recursive: true });
    writeFileSync(path.resolve(".data/soak-results.json"), JSON.stringify(summary, null, 2));
    console.log(
      "\n| duration | connections | requests | screenings/s | p50 ms | p99 ms | errors | timeouts | non-2xx |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    console.log(
      `| ${SECONDS} s | ${CONNECTIONS} | ${summary.requests} | ${summary.rps} | ${summary.p50} | ${summary.p99} | ${summary.errors} | ${summary.timeouts} | ${summary.non2xx} |`,
    );
    console.log(
      `\nserver RSS (process tree): first ${summary.rssMb.first} MB, last ${summary.rssMb.last} MB, max ${summary.rssMb.max} MB; ` +
        `trend ${summary.rssMb.trendMbPerMinute} MB/min over the run, ${summary.rssMb.secondHalfTrendMbPerMinute} MB/min over the second half`,
    );
    console.log(
      `webhook backlog under load: max ${summary.backlog.max}, at the end ${summary.backlog.last}; second half: ` +
        `${summary.backlog.secondHalfProducedPerSecond}/s produced, ${summary.backlog.secondHalfDeliveredPerSecond}/s delivered, ` +
        `backlog trend ${summary.backlog.secondHalfTrendPerMinute} per minute; drained ${drainSeconds} s after the load`,
    );
    console.log(
      `transactions stored ${summary.transactionsStored}; webhook deliveries ${JSON.stringify(byStatus)}; received ${summary.received}`,
    );
  } finally {
    await stopServer(server);
    await receiver.close();
    if (process.env.BENCH_KEEP !== "1") {
      await sql(adminUrl(), `DROP DATABASE IF EXISTS "${new URL(DB_URL).pathname.slice(1)}" WITH (FORCE)`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("bench/soak.ts")) {
  soak()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
