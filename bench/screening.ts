// npm run bench: screening throughput and latency against `next start` on PostgreSQL with 1,000,000 historical
// transactions and 32 active rules (10 with aggregates, two of them per merchant over 24 h and 30 d), plus a pgbench
// ceiling (insert + indexed aggregate + commit). The history has a hot merchant (m-hot: rows/50 transactions, at most
// 200,000, in the last 24 h) and 10 users with long histories (u-long-N: rows/500 each, at most 20,000, over 30 days);
// the other rows belong to benchUsers(rows) users (from 1,000,000 rows up, about 20 transactions each), each with
// its own card and device.
// After the levels, the hot merchant's own level: 8 connections screening only m-hot transactions.
// Environment: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_bench), BENCH_ROWS (1000000),
// BENCH_DURATION seconds per level (15), BENCH_CONNECTIONS (1,8,32), BENCH_PORT (3200), BENCH_SKIP_LOAD=1.
// BENCH_SIZES=20000,10000000: one run per size (each its own database, <BENCH_DATABASE_URL>_<size>), then the
// comparison of the sizes (screenings/s, p99, buffers per screening, the hot merchant against the others);
// BENCH_ROUNDS=N: the sizes N times, alternating their order, compared by their medians. BENCH_PREWARM=0: the
// database as it is (by default its files are read into the OS cache first).
// The server runs as `npm start` does (WEB_CONCURRENCY processes; by default one per core, half the cores when
// the database is on this machine, as here: scripts/launch.ts) with a webhook
// subscription to a local receiver; each level is followed by the same server's no-endpoint floor.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { benchUsers, screeningLoad, type TBenchSequence } from "./load";
import { benchStatePath, readBenchState, type TBenchState, writeBenchState } from "./state";
import { freshDatabase } from "./fresh-database";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? "1,8,32").split(",").map(Number);
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const USERS = benchUsers(ROWS);
const STATE = benchStatePath(DB_URL);
// The server's secrets; this process encrypts the webhook subscription's secret with the same key.
const WEBHOOK_SECRET_KEY = "bench-webhook-key-0123456789";
const METRICS_TOKEN = "bench-metrics-token-0123456789";
process.env.WEBHOOK_SECRET_KEY = WEBHOOK_SECRET_KEY;
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

type TLevel = {
  connections: number;
  /** Server CPU over the level, in cores (1.0 = one core busy), all server processes. */
  cpuCores: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  rssMb: number;
  /** PostgreSQL CPU over the level, in cores: the backends connected to the bench database. */
  pgCores: number;
  /** Shared buffers PostgreSQL touched in the bench database per request (hit or read): its work, whatever the load. */
  pgBuffers: number;
  /**
   * The server's event loop over the level (its /metrics): how late its 10 ms timer fired, p99 and max in ms (0 when
   * never late); garbage collection ms per request; and how often per request the operating system took the core
   * from its main thread while it could run (involuntary context switches of the server processes' main threads).
   */
  loopP99Ms: number | null;
  loopMaxMs: number | null;
  gcMs: number | null;
  preempted: number;
};

/** A level's figures without the database and event loop ones (the floor has no database work). */
type TFloor = Omit<TLevel, "pgBuffers" | "loopP99Ms" | "loopMaxMs" | "gcMs" | "preempted">;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function log(msg: string) {
  console.log(`[bench] ${msg}`);
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

/**
 * The bench's 32 active rules: the demo transaction rules, merchant-volume rules up to 8 with aggregates, simple
 * threshold rules up to 30, and the two per-merchant rules of the scale targets. The merchant rules' thresholds
 * are out of reach at every size, so a bigger history does not add alerts (their writes are not what is
 * measured).
 */
async function installRules(clientId: string): Promise<void> {
  const { importRules } = await import("@/lib/rules/import-rules");
  const { DEMO_RULES } = await import("@/lib/rules/demo-rules");
  const rules: Record<string, unknown>[] = DEMO_RULES.filter((r) => r.subject === "transaction").map((r) => ({
    ...r,
    status: "active",
  }));
  const withAggregates = () =>
    rules.filter((r) => r.aggregates && Object.keys(r.aggregates as object).length > 0).length;
  let n = 0;
  while (withAggregates() < 8) {
    n++;
    rules.push({
      id: `BENCH-AGG-${n}`,
      name: `Merchant volume ${n}`,
      subject: "transaction",
      status: "active",
      riskLevel: "medium",
      recommendedAction: "REVIEW",
      reason: "High merchant volume",
      condition: `aggregates.merchantVolume > ${1_000_000_000_000 * n}`,
      aggregates: {
        merchantVolume: {
          function: "sum",
          over: "transaction",
          groupBy: "merchantId",
          window: "7d",
          field: "amount",
        },
      },
    });
  }
  while (rules.length < 30) {
    n++;
    rules.push({
      id: `BENCH-SIMPLE-${n}`,
      name: `Simple check ${n}`,
      subject: "transaction",
      status: "active",
      riskLevel: "low",
      recommendedAction: "FLAG_FOR_MONITORING",
      reason: "Threshold",
      condition: `transaction.amount > ${20_000 + n * 1000} && transaction.currencyCode == 'USD'`,
    });
  }
  const chosen = rules.slice(0, 30);
  // the two per-merchant rules of the scale targets: a busy merchant's 24 h volume and 30 d count
  chosen.push(
    {
      id: "BENCH-MERCHANT-24H",
      name: "Merchant volume in 24 h",
      subject: "transaction",
      status: "active",
      riskLevel: "medium",
      recommendedAction: "REVIEW",
      reason: "Merchant volume over 24 h",
      condition: "aggregates.merchant24h > 1000000000",
      aggregates: {
        merchant24h: {
          function: "sum",
          over: "transaction",
          groupBy: "merchantId",
          window: "24h",
          field: "amount",
        },
      },
    },
    {
      id: "BENCH-MERCHANT-30D",
      name: "Merchant transactions in 30 days",
      subject: "transaction",
      status: "active",
      riskLevel: "low",
      recommendedAction: "FLAG_FOR_MONITORING",
      reason: "Merchant count over 30 d",
      condition: "aggregates.merchant30d > 100000000",
      aggregates: {
        merchant30d: { function: "count", over: "transaction", groupBy: "merchantId", window: "30d" },
      },
    },
  );
  await importRules({ clientId, rules: chosen });
  log(
    `client ${clientId}: ${chosen.length} active rules, ` +
      `${chosen.filter((r) => r.aggregates && Object.keys(r.aggregates as object).length > 0).length} with aggregates`,
  );
}

/**
 * Reads the bench database's files into the operating system's cache (pg_prewarm, mode `read`), as a database
 * that has been serving for a while has them, so that a run does not measure how much of a large history
 * earlier runs happened to leave in the cache. The screening's own relations (the per-group indexes of the month partitions, the buckets, keys and
 * distinct values) are read last, so that they are the ones kept when the cache is smaller than the database.
 * BENCH_PREWARM=0 measures the database as it is.
 */
async function prewarm(): Promise<void> {
  if (process.env.BENCH_PREWARM === "0") return log("database not prewarmed (BENCH_PREWARM=0)");
  const t0 = Date.now();
  try {
    await sql(DB_URL, "CREATE EXTENSION IF NOT EXISTS pg_prewarm");
    const { rows } = await sql(
      DB_URL,
      `SELECT count(*)::int AS relations,
         coalesce(sum(pg_prewarm(c.oid, 'read')), 0)::float8 * current_setting('block_size')::int / 1e9 AS gb
       FROM (SELECT c.oid FROM pg_class c
             WHERE c.relkind IN ('r', 'i', 't') AND c.relpersistence = 'p'
               AND c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
             ORDER BY (c.relname ~ '^transaction_(buckets|distinct|keys)|_(userId|merchantId|accountId|userDeviceId|cardFingerprint)_occurredAt_idx$'),
                      pg_relation_size(c.oid) DESC) c`,
    );
    const r = rows[0] as { relations: number; gb: number } | undefined;
    log(
      `prewarmed ${r?.gb.toFixed(1)} GB of ${r?.relations} relations into the OS cache in ${Math.round((Date.now() - t0) / 1000)} s`,
    );
  } catch (err) {
    log(
      `not prewarmed (${(err as Error).message}): the figures of a database larger than the cache are cold`,
    );
  }
}

async function prepareDatabase(): Promise<TBenchState> {
  if (process.env.BENCH_SKIP_LOAD === "1" && existsSync(STATE)) {
    log("reusing loaded database");
    const state = readBenchState(DB_URL);
    if (state.users !== USERS || (state.rows !== undefined && state.rows !== ROWS)) {
      throw new Error(
        `the loaded history has ${state.rows ?? "?"} rows and ${state.users} users, not ${ROWS} and ${USERS}: load it again`,
      );
    }
    if (state.nextSeq >= USERS) {
      log(
        `the runs on this database have screened ${state.nextSeq} transactions, more than its ${USERS} users: ` +
          `users are screened again (more alerts than on a fresh history); load it again to compare runs`,
      );
    }
    process.env.DATABASE_URL = DB_URL;
    // the rules of this version of the bench (an unchanged rule keeps its version)
    await installRules(state.clientId);
    return state;
  }
  await freshDatabase(DB_URL);

  process.env.DATABASE_URL = DB_URL;
  const { createClient } = await import("@/lib/clients/create-client");
  const { prisma } = await import("@/lib/db");
  const { clientId, apiKey } = await createClient({ name: "Bench", type: "consumer", features: [] });

  await installRules(clientId);

  log(`loading ${ROWS.toLocaleString()} historical transactions…`);
  // the history's month partitions first, so that its rows do not go to the default partition
  await prisma.$executeRawUnsafe(`SELECT "month_partition_create"('transactions', 'occurredAt', m, 'transaction_keys', '"clientId", "id", "occurredAt"')
     FROM generate_series(date_trunc('month', now() - interval '31 days', 'UTC'), now(), interval '1 month') m`);
  const t0 = Date.now();
  const batch = 200_000;
  // the bucket triggers are off while loading (one session, as a bulk import would), then the buckets are built
  // from the rows in one statement
  await prisma.$executeRawUnsafe(`ALTER TABLE transactions DISABLE TRIGGER USER`);
  // the secondary indexes too are built after the load: inserting into twelve indexes on scattered keys slowed the
  // batches from 13 s to 100 s per 200,000 rows once the indexes outgrew memory (10 million rows took 68 minutes)
  const indexes = await prisma.$queryRawUnsafe<Array<{ name: string; def: string }>>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = 'transactions'::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
  );
  for (const index of indexes) await prisma.$executeRawUnsafe(`DROP INDEX "${index.name}"`);
  const hot = Math.min(200_000, Math.floor(ROWS / 50));
  const longEach = Math.min(20_000, Math.floor(ROWS / 500));
  // the hot merchant's rows in the last 24 h and the long-history users' rows are part of ROWS
  const special = hot + 10 * longEach;
  for (let start = 0; start < ROWS; start += batch) {
    const end = Math.min(ROWS, start + batch) - 1;
    await prisma.$executeRawUnsafe(`
      INSERT INTO transactions ("clientId", id, "userId", "merchantId", "accountId", "userDeviceId", "cardFingerprint",
        status, direction, "paymentMethod", "currencyCode", amount, "occurredAt", data, "bodyHash", "riskLevel",
        "recommendedAction", "assessedAt")
      SELECT '${clientId}', 'hist-' || g, x.u, x.m, 'a-' || x.u, 'd-' || x.u,
        'fp-' || x.u, 'APPROVED', CASE WHEN g % 4 = 0 THEN 'payout' ELSE 'payin' END, 'card', 'USD',
        round((random() * 2000)::numeric, 2), now() - x.age,
        jsonb_build_object('id', 'hist-' || g, 'userId', x.u, 'status', 'APPROVED', 'currencyCode', 'USD',
          'direction', CASE WHEN g % 4 = 0 THEN 'payout' ELSE 'payin' END, 'paymentMethod', 'card',
          'card', jsonb_build_object('cardFingerprint', 'fp-' || x.u, 'bin', '411111', 'binCountry', 'US')),
        md5(g::text), 'low', 'ALLOW', now()
      FROM generate_series(${start}, ${end}) g
      CROSS JOIN LATERAL (SELECT
        CASE WHEN g >= ${hot} AND g < ${special} THEN 'u-long-' || ((g - ${hot}) % 10) ELSE 'u' || (g % ${USERS}) END AS u,
        CASE WHEN g < ${hot} THEN 'm-hot' ELSE 'm' || (g % 500) END AS m,
        CASE WHEN g < ${hot} THEN random() * interval '24 hours' ELSE random() * interval '30 days' END AS age) x`);
    log(`  ${end + 1} rows (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const tIndexes = Date.now();
  await sql(
    DB_URL,
    // each partitioned index as the migrations made it, on every partition ("ON ONLY" would make the parent's alone)
    `SET maintenance_work_mem = '1GB'; ${indexes.map((index) => index.def.replace(" ON ONLY ", " ON ")).join("; ")}`,
  );
  log(`${indexes.length} indexes built in ${((Date.now() - tIndexes) / 1000).toFixed(0)} s`);
  await prisma.$executeRawUnsafe(`ALTER TABLE transactions ENABLE TRIGGER USER`);
  // the key triggers were off too: the loaded ids' keys, as the triggers would have kept them
  await prisma.$executeRawUnsafe(
    `INSERT INTO transaction_keys ("clientId", id, "occurredAt") SELECT "clientId", id, "occurredAt" FROM transactions WHERE "clientId" = '${clientId}'`,
  );
  const t1 = Date.now();
  await prisma.$executeRawUnsafe(`SELECT transaction_buckets_rebuild('${clientId}')`);
  const buckets = await prisma.$queryRawUnsafe<Array<{ n: bigint; dense: bigint }>>(
    `SELECT count(*) AS n, count(*) FILTER (WHERE "denseXid" IS NOT NULL) AS dense FROM transaction_buckets`,
  );
  log(
    `buckets built in ${((Date.now() - t1) / 1000).toFixed(0)} s: ${buckets[0]!.n} rows, ${buckets[0]!.dense} dense days ` +
      `(m-hot: ${hot} transactions in 24 h; u-long-0..9: ${longEach} each over 30 days)`,
  );
  // the distinct values per day of the rules' countDistinct pairs (TX-DEVICE-SHARED: users per device), from
  // every loaded row (the pairs were registered by the rules' import, before the load)
  const t2 = Date.now();
  await prisma.$executeRawUnsafe(`SELECT transaction_distinct_rebuild('${clientId}')`);
  const distinct = await prisma.$queryRawUnsafe<Array<{ specs: bigint; days: bigint; n: bigint }>>(
    `SELECT (SELECT count(*) FROM transaction_distinct_specs) AS specs,
       (SELECT count(*) FROM transaction_distinct_days) AS days, (SELECT count(*) FROM transaction_distinct_values) AS n`,
  );
  log(
    `distinct values per day built in ${((Date.now() - t2) / 1000).toFixed(0)} s: ${distinct[0]!.specs} pairs, ` +
      `${distinct[0]!.days} busy group days, ${distinct[0]!.n} rows`,
  );
  // as autovacuum would leave a loaded history before it is read: pages all-visible (index-only scans stay index
  // only), hint bits set, statistics current. A machine with autovacuum off never gets there by itself.
  const t3 = Date.now();
  await prisma.$executeRawUnsafe("VACUUM (ANALYZE)");
  log(`VACUUM (ANALYZE) in ${((Date.now() - t3) / 1000).toFixed(0)} s`);
  await prisma.$disconnect();
  const state: TBenchState = { clientId, apiKey, rows: ROWS, users: USERS, nextSeq: 0 };
  writeBenchState(DB_URL, state);
  return state;
}

async function startServer(): Promise<ChildProcess> {
  if (!existsSync(".next/BUILD_ID")) {
    log("building (next build)…");
    const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error("next build failed");
  }
  // another server on the port would answer for this one (and be measured instead)
  if (
    await fetch(`http://127.0.0.1:${PORT}/`, { signal: AbortSignal.timeout(3000) }).then(
      () => true,
      // refused: free; no answer within 3 s: taken
      (err: unknown) => (err as Error).name === "TimeoutError",
    )
  )
    throw new Error(`port ${PORT} is in use (another bench running?): set BENCH_PORT`);
  // As `npm start`, through scripts/launch.ts: its server processes (WEB_CONCURRENCY overrides).
  const server = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      DATABASE_URL: DB_URL,
      DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "10",
      NEXTAUTH_SECRET: "bench-secret-0123456789abcdef",
      WEBHOOK_SECRET_KEY,
      RATE_LIMIT_PER_SECOND: "1000000",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      METRICS_TOKEN,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 120; i++) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`the server exited (${server.exitCode ?? server.signalCode}) before answering`);
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/v1/openapi.json`);
      if (res.ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill("SIGKILL");
  throw new Error("server did not start");
}

/** The server process and its descendants (npm start forks its server processes). */
function treePids(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // exited
    }
  }
  return out;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  let kb = 0;
  for (const p of treePids(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // exited
    }
  }
  return Math.round(kb / 1024);
}

/** CPU seconds used so far by the server tree (utime + stime). */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  let ticks = 0;
  for (const p of treePids(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return ticks / 100;
}

/**
 * Involuntary context switches so far of the main threads of the server's processes (/proc/<pid>/status): the
 * Next.js servers, and the launcher above them, which is idle and adds next to nothing.
 */
function preemptions(pid: number | undefined): number {
  if (!pid) return 0;
  let n = 0;
  for (const p of treePids(pid)) {
    try {
      n += Number(
        /nonvoluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0,
      );
    } catch {
      // exited
    }
  }
  return n;
}

/** The Next.js server processes under the server's pid (`npm start` forks WEB_CONCURRENCY of them). */
function nextServerPids(pid: number): number[] {
  return treePids(pid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("next-server");
    } catch {
      return false;
    }
  });
}

function serverProcesses(pid: number | undefined): number {
  return pid ? nextServerPids(pid).length : 0;
}

/** CPU seconds used so far by each PostgreSQL backend connected to the bench database, by pid (/proc). */
async function pgBackendTicks(): Promise<Map<number, number>> {
  const name = new URL(DB_URL).pathname.slice(1);
  const { rows } = await sql(DB_URL, `SELECT pid FROM pg_stat_activity WHERE datname = '${name}'`);
  const out = new Map<number, number>();
  for (const { pid } of rows as { pid: number }[]) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // exited, or PostgreSQL on another machine
    }
  }
  return out;
}

/** Shared buffer accesses (hits and reads) of the bench database so far (pg_stat_database, flushed by each backend within about 1 s). */
async function pgBufferAccesses(): Promise<number> {
  const name = new URL(DB_URL).pathname.slice(1);
  const { rows } = await sql(
    DB_URL,
    `SELECT (blks_hit + blks_read)::float8 AS n FROM pg_stat_database WHERE datname = '${name}'`,
  );
  return (rows[0] as { n: number } | undefined)?.n ?? 0;
}

/** PostgreSQL CPU seconds between two samples (a backend started in between counts from zero). */
function pgSeconds(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100;
}

/**
 * The server's event loop figures from its /metrics (prom-client's defaults): the delay percentiles cover the time
 * since the previous scrape (each scrape starts them again), garbage collection is a running total in seconds.
 */
/** prom-client's event loop monitor: a timer every 10 ms (its default `eventLoopMonitoringPrecision`). */
const LOOP_RESOLUTION_MS = 10;

/** How late the timer fired, in ms, from a histogram value in seconds (null when the metric was missing). */
const lateness = (seconds: number | undefined): number | null =>
  seconds !== undefined && Number.isFinite(seconds)
    ? Math.max(0, Math.round(seconds * 1000 - LOOP_RESOLUTION_MS))
    : null;

async function serverLoop(): Promise<{ p99: number; max: number; gcSeconds: number } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${PORT}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (!res.ok) return null;
    const text = await res.text();
    const value = (name: string) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    let gcSeconds = 0;
    for (const m of text.matchAll(/^nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm))
      gcSeconds += Number(m[1]);
    return {
      p99: value("nodejs_eventloop_lag_p99_seconds"),
      max: value("nodejs_eventloop_lag_max_seconds"),
      gcSeconds,
    };
  } catch {
    return null;
  }
}

/** The no-endpoint floor: GET of a /v1 path that has no route (no database work), same server. */
async function floor(connections: number, serverPid: number | undefined): Promise<TFloor> {
  const cpu0 = cpuSeconds(serverPid);
  const pg0 = await pgBackendTicks();
  const t0 = Date.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}/v1/no-such-endpoint`,
    method: "GET",
    connections,
    duration: DURATION,
  });
  return summary(
    connections,
    result,
    (cpuSeconds(serverPid) - cpu0) / ((Date.now() - t0) / 1000),
    rssMb(serverPid),
    pgSeconds(pg0, await pgBackendTicks()) / ((Date.now() - t0) / 1000),
  );
}

function summary(
  connections: number,
  result: autocannon.Result,
  cpuCores: number,
  rss: number,
  pgCores: number,
): TFloor {
  return {
    connections,
    cpuCores: Math.round(cpuCores * 100) / 100,
    pgCores: Math.round(pgCores * 100) / 100,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95: (result.latency as unknown as Record<string, number>).p97_5 ?? result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    rssMb: rss,
  };
}

// where the screened transactions' sequence stands (users, amounts), carried across levels and runs
let sequence: TBenchSequence = { next: 0 };

async function drive(
  apiKey: string,
  connections: number,
  serverPid: number | undefined,
  merchantId?: string,
): Promise<TLevel> {
  const run = Date.now().toString(36);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(serverPid))), 500);
  const cpu0 = cpuSeconds(serverPid);
  const pg0 = await pgBackendTicks();
  const buffers0 = await pgBufferAccesses();
  const loop0 = await serverLoop();
  const preempted0 = preemptions(serverPid);
  const t0 = Date.now();
  const result = await screeningLoad({
    port: PORT,
    apiKey,
    users: USERS,
    sequence,
    connections,
    duration: DURATION,
    prefix: `bench-${run}-${connections}${merchantId ? `-${merchantId}` : ""}`,
    merchantId,
  });
  clearInterval(sampler);
  const seconds = (Date.now() - t0) / 1000;
  const loop = await serverLoop();
  const preempted = preemptions(serverPid) - preempted0;
  const pgCores = pgSeconds(pg0, await pgBackendTicks()) / seconds;
  // the backends flush their counters at most once a second: wait for the last ones
  await sleep(1100);
  const buffers = (await pgBufferAccesses()) - buffers0;
  return {
    ...summary(connections, result, (cpuSeconds(serverPid) - cpu0) / seconds, peak, pgCores),
    pgBuffers: result.requests.total > 0 ? Math.round(buffers / result.requests.total) : 0,
    // the histogram holds the timer's whole intervals: its 10 ms resolution is not lateness
    loopP99Ms: lateness(loop?.p99),
    loopMaxMs: lateness(loop?.max),
    preempted: result.requests.total > 0 ? Math.round((preempted * 10) / result.requests.total) / 10 : 0,
    gcMs:
      loop && loop0 && result.requests.total > 0
        ? Math.round(((loop.gcSeconds - loop0.gcSeconds) * 10_000) / result.requests.total) / 10
        : null,
  };
}

/**
 * Commit to first attempt at rest: `n` single screenings 300 ms apart against an idle server, then the p50 of
 * (first attempt's start - delivery row's createdAt). createdAt is taken inside the screening's transaction,
 * before its COMMIT, so this is an upper bound of commit to first attempt.
 */
async function atRest(
  apiKey: string,
  n = 20,
): Promise<{ samples: number; p50Ms: number | null; maxMs: number | null }> {
  const since = new Date();
  const run = Date.now().toString(36);
  for (let i = 0; i < n; i++) {
    await fetch(`http://127.0.0.1:${PORT}/v1/transaction`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        id: `bench-rest-${run}-${i}`,
        userId: `u${i}`,
        merchantId: `m${i}`,
        status: "PENDING",
        currencyCode: "USD",
        amount: 100 + i,
        direction: "payin",
        timestamp: Date.now() - 1000,
        paymentMethod: "card",
        card: { cardFingerprint: `fp-rest-${i}`, bin: "411111", binCountry: "US" },
      }),
    });
    await sleep(300);
  }
  for (let i = 0; i < 30 && (await deliveries(since)).backlog > 0; i++) await sleep(1000);
  const { rows } = await sql(
    DB_URL,
    `SELECT count(*)::int AS samples,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a."startedAt" - d."createdAt") * 1000) AS p50,
       max(extract(epoch FROM a."startedAt" - d."createdAt") * 1000) AS max
     FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a."deliveryId"
     WHERE a.attempt = 1 AND d."createdAt" >= '${since.toISOString()}'`,
  );
  const r = rows[0] as { samples: number; p50: number | null; max: number | null };
  return {
    samples: r.samples,
    p50Ms: r.p50 === null ? null : Math.round(r.p50),
    maxMs: r.max === null ? null : Math.round(Number(r.max)),
  };
}

function pgbenchCeiling(clientId: string): { connections: number; tps: number }[] {
  const script = path.resolve(".data/bench-ceiling.sql");
  writeFileSync(
    script,
    [
      `\\set uid random(0, ${USERS - 1})`,
      "BEGIN;",
      `INSERT INTO bench_ceiling ("clientId", id, "userId", amount, "occurredAt") VALUES ('${clientId}', md5(random()::text), 'u' || :uid, 10, now());`,
      `SELECT count(*) FROM transactions WHERE "clientId" = '${clientId}' AND "userId" = 'u' || :uid AND "occurredAt" > now() - interval '24 hours';`,
      "COMMIT;",
    ].join("\n"),
  );
  spawnSync("psql", [
    DB_URL,
    "-qc",
    'DROP TABLE IF EXISTS bench_ceiling; CREATE TABLE bench_ceiling ("clientId" text, id text primary key, "userId" text, amount numeric, "occurredAt" timestamptz)',
  ]);
  const out: { connections: number; tps: number }[] = [];
  for (const c of LEVELS) {
    const res = spawnSync(
      "pgbench",
      ["-n", "-c", String(c), "-j", String(Math.min(c, 2)), "-T", String(DURATION), "-f", script, DB_URL],
      { encoding: "utf8" },
    );
    const tps = Number(/tps = ([\d.]+)/.exec(res.stdout)?.[1] ?? 0);
    out.push({ connections: c, tps: Math.round(tps) });
    log(`pgbench c=${c}: ${Math.round(tps)} tps`);
  }
  spawnSync("psql", [DB_URL, "-qc", "DROP TABLE IF EXISTS bench_ceiling"]);
  return out;
}

// The webhook receiver's own process: a client's receiver is not the client's load generator, and in this
// process the receiver's requests would hold up autocannon's reading of answers (latency it would count).
const RECEIVER = `
const server = require("node:http").createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200).end("ok"));
});
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
process.stdin.on("end", () => process.exit(0)).resume();
`;

/** A webhook receiver answering 200 (its own process), and a subscription of the bench client to the screening and alert events. */
async function subscribeReceiver(clientId: string): Promise<ChildProcess> {
  const receiver = spawn(process.execPath, ["-e", RECEIVER], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    receiver.stdout!.on("data", (chunk: Buffer) => {
      out += String(chunk);
      const line = /^(\d+)\n/.exec(out);
      if (line) resolve(Number(line[1]));
    });
    receiver.once("error", reject);
    receiver.once("exit", () => reject(new Error("the webhook receiver did not start")));
  });
  await sql(DB_URL, `DELETE FROM webhook_subscriptions WHERE "clientId" = '${clientId}'`);
  process.env.DATABASE_URL = DB_URL;
  const { createSubscription } = await import("@/lib/webhooks/create-subscription");
  await createSubscription({
    clientId,
    clientType: "consumer",
    url: `http://127.0.0.1:${port}/hook`,
    events: ["transaction.screened", "alert.created"],
    secret: "whsec_bench-receiver",
  });
  return receiver;
}

type TDeliveries = {
  seconds: number;
  produced: number;
  delivered: number;
  backlog: number;
  producedPerSecond: number;
  deliveredPerSecond: number;
  firstAttemptP50Ms: number | null;
  /** The screenings' own output: alerts raised and deliveries produced per screening since the start. */
  alertsPerScreening: number;
  deliveriesPerScreening: number;
};

/** Deliveries produced and delivered since `since`, the backlog now, and commit-to-first-attempt p50. */
async function deliveries(since: Date): Promise<TDeliveries> {
  const seconds = (Date.now() - since.getTime()) / 1000;
  const iso = since.toISOString();
  const { rows } = await sql(
    DB_URL,
    `SELECT count(*)::int AS produced,
       count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
       (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a."startedAt" - d2."createdAt") * 1000)
        FROM webhook_attempts a JOIN webhook_deliveries d2 ON d2.id = a."deliveryId"
        WHERE a.attempt = 1 AND d2."createdAt" >= '${iso}') AS p50,
       (SELECT count(*)::int FROM transactions WHERE "createdAt" >= '${iso}') AS screened,
       (SELECT count(*)::int FROM alerts WHERE "createdAt" >= '${iso}') AS alerts
     FROM webhook_deliveries d WHERE d."createdAt" >= '${iso}'`,
  );
  const r = rows[0] as {
    produced: number;
    delivered: number;
    p50: number | null;
    screened: number;
    alerts: number;
  };
  const per = (n: number) => Math.round((n / Math.max(1, r.screened)) * 100) / 100;
  return {
    seconds: Math.round(seconds),
    produced: r.produced,
    delivered: r.delivered,
    backlog: r.produced - r.delivered,
    producedPerSecond: Math.round(r.produced / seconds),
    deliveredPerSecond: Math.round(r.delivered / seconds),
    firstAttemptP50Ms: r.p50 === null ? null : Math.round(r.p50),
    alertsPerScreening: per(r.alerts),
    deliveriesPerScreening: per(r.produced),
  };
}

// CPU per request: all server processes' CPU over the level divided by the requests answered (a
// screening's includes the webhook deliveries the driver ran meanwhile); the same for PostgreSQL's backends
// of the bench database (the deliveries' statements included).
const perRequest = (l: Pick<TLevel, "rps" | "cpuCores">) =>
  l.rps > 0 ? ((l.cpuCores * 1000) / l.rps).toFixed(1) : "-";
const pgPerRequest = (l: TLevel) => (l.rps > 0 ? ((l.pgCores * 1000) / l.rps).toFixed(1) : "-");

async function main() {
  const state = await prepareDatabase();
  await prewarm();
  const { clientId, apiKey } = state;
  sequence = { next: state.nextSeq };
  // a later run on this database screens the users after this run's
  const saveSequence = () => writeBenchState(DB_URL, { ...state, nextSeq: sequence.next });
  // BENCH_WEBHOOKS=0: no subscription (screenings only, no delivery work in the server)
  const receiver =
    process.env.BENCH_WEBHOOKS === "0"
      ? (await sql(DB_URL, `DELETE FROM webhook_subscriptions WHERE "clientId" = '${clientId}'`), null)
      : await subscribeReceiver(clientId);
  const server = await startServer();
  // the other workers take their title a little after the first one answers: count until it holds for 2 s
  let processes = serverProcesses(server.pid);
  for (let i = 0, steady = 0; i < 40 && steady < 4; i++) {
    await sleep(500);
    const now = serverProcesses(server.pid);
    steady = now === processes ? steady + 1 : 0;
    processes = now;
  }
  log(`server: ${processes} process(es) (WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? "unset"})`);
  const levels: TLevel[] = [];
  const floors: TFloor[] = [];
  const load0 = os.loadavg()[0]!;
  const autovacuum = (await sql(DB_URL, "SHOW autovacuum")).rows[0]?.autovacuum;
  if (autovacuum !== "on")
    log(
      `autovacuum is ${autovacuum}: the tables the run writes are not vacuumed while it runs (a production database's are)`,
    );
  const since = new Date();
  let underLoad = null as TDeliveries | null;
  let drained = null as TDeliveries | null;
  let rest = null as Awaited<ReturnType<typeof atRest>> | null;
  let hotLevel = null as TLevel | null;
  try {
    // warm-up: compile caches, connection pool
    await drive(apiKey, 4, server.pid).catch(() => undefined);
    await floor(4, server.pid);
    for (const c of LEVELS) {
      const level = await drive(apiKey, c, server.pid);
      levels.push(level);
      log(
        `c=${c}: ${level.rps} req/s, p50 ${level.p50} ms, p99 ${level.p99} ms, errors ${level.errors}, non-2xx ${level.non2xx}, cpu ${level.cpuCores} cores (${perRequest(level)} ms per screening), PostgreSQL ${level.pgCores} cores (${pgPerRequest(level)} ms, ${level.pgBuffers} buffers per screening), rss ${level.rssMb} MB, event loop late p99 ${level.loopP99Ms} ms, max ${level.loopMaxMs} ms, GC ${level.gcMs} ms and ${level.preempted} preemptions per screening`,
      );
      const f = await floor(c, server.pid);
      floors.push(f);
      log(
        `c=${c} floor (no endpoint): ${f.rps} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, cpu ${f.cpuCores} cores`,
      );
    }
    // the hot merchant alone: every screening sums its 24 h and counts its 30 d, and writes its buckets
    hotLevel = await drive(apiKey, 8, server.pid, "m-hot");
    log(
      `c=8, m-hot only: ${hotLevel.rps} req/s, p50 ${hotLevel.p50} ms, p99 ${hotLevel.p99} ms, errors ${hotLevel.errors}, non-2xx ${hotLevel.non2xx}, PostgreSQL ${pgPerRequest(hotLevel)} ms, ${hotLevel.pgBuffers} buffers per screening, event loop late p99 ${hotLevel.loopP99Ms} ms`,
    );
    underLoad = await deliveries(since);
    log(`deliveries under load: ${JSON.stringify(underLoad)}`);
    // then at rest: how long the backlog takes to drain (at most 120 s)
    for (let i = 0; i < 120 && (await deliveries(since)).backlog > 0; i++) await sleep(1000);
    drained = await deliveries(since);
    log(`deliveries after draining: ${JSON.stringify(drained)}`);
    if (receiver) {
      rest = await atRest(apiKey);
      log(`at rest: ${JSON.stringify(rest)}`);
    }
  } finally {
    // what was screened, even by a level that failed
    saveSequence();
    server.kill("SIGTERM");
    receiver?.kill();
  }
  const ceiling = pgbenchCeiling(clientId);
  const best = levels.reduce((a, b) => (b.rps > a.rps ? b : a));
  const bestCeiling = ceiling.reduce((a, b) => (b.tps > a.tps ? b : a));
  console.log(
    `\nload average at start ${load0.toFixed(2)}, at end ${os.loadavg()[0]!.toFixed(2)} (${os.cpus().length} cores, ${processes} server process(es))`,
  );
  console.log(
    "\n| connections | screenings/s | p50 ms | p97.5 ms | p99 ms | errors | non-2xx | server CPU cores | server CPU ms per screening | PostgreSQL CPU ms per screening | PostgreSQL buffers per screening | event loop late p99 / max ms | GC ms per screening | server preempted per screening | server RSS MB | floor/s | floor p50 ms | floor p99 ms | floor CPU ms per request | screenings/floor |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  levels.forEach((l, i) => {
    const f = floors[i]!;
    console.log(
      `| ${l.connections} | ${l.rps} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.errors} | ${l.non2xx} | ${l.cpuCores} | ${perRequest(l)} | ${pgPerRequest(l)} | ${l.pgBuffers} | ${l.loopP99Ms} / ${l.loopMaxMs} | ${l.gcMs} | ${l.preempted} | ${l.rssMb} | ${f.rps} | ${f.p50} | ${f.p99} | ${perRequest(f)} | ${(l.rps / Math.max(1, f.rps)).toFixed(2)} |`,
    );
  });
  console.log(
    `\npgbench ceiling (insert + indexed 24h aggregate + commit): ${ceiling.map((c) => `c=${c.connections}: ${c.tps} tps`).join(", ")}`,
  );
  console.log(
    `ratio best screening throughput / best pgbench ceiling: ${(best.rps / bestCeiling.tps).toFixed(2)}`,
  );
  if (underLoad && drained)
    console.log(
      `webhook deliveries (subscription to transaction.screened + alert.created): during the ${underLoad.seconds} s of load ` +
        `${underLoad.produced} produced (${underLoad.producedPerSecond}/s), ${underLoad.delivered} delivered ` +
        `(${underLoad.deliveredPerSecond}/s), backlog ${underLoad.backlog}; backlog ${drained.backlog} after ` +
        `${drained.seconds - underLoad.seconds} s at rest; commit to first attempt p50 ${drained.firstAttemptP50Ms} ms`,
    );
  if (rest)
    console.log(
      `at rest (${rest.samples} deliveries of 20 single screenings 300 ms apart): commit to first attempt p50 ${rest.p50Ms} ms, max ${rest.maxMs} ms`,
    );
  if (hotLevel)
    console.log(
      `hot merchant alone (c=8): ${hotLevel.rps} screenings/s, p50 ${hotLevel.p50} ms, p99 ${hotLevel.p99} ms, ${hotLevel.pgBuffers} buffers per screening`,
    );
  writeFileSync(
    path.resolve(process.env.BENCH_RESULT_FILE ?? ".data/bench-results.json"),
    JSON.stringify(
      {
        rows: ROWS,
        load0,
        serverProcesses: processes,
        levels,
        floors,
        ceiling,
        underLoad,
        drained,
        rest,
        hotLevel,
      },
      null,
      2,
    ),
  );
}

type TResult = {
  rows: number;
  load0: number;
  levels: TLevel[];
  hotLevel: TLevel | null;
  underLoad: TDeliveries | null;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

/**
 * BENCH_SIZES: this bench once per size, each with its own database; then the comparison. BENCH_ROUNDS=N (1)
 * runs the sizes N times, every other round in reverse order (20 k, 1 M, 10 M, then 10 M, 1 M, 20 k, …), so a
 * machine that speeds up or slows down during the run does not favour one size; the comparison is then of
 * each size's median over its rounds, with every round's figure beside it.
 */
function compareSizes(sizes: number[]) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("BENCH_ROUNDS must be a whole number above 0");
  let failed: number | null = null;
  const bySize = new Map<number, TResult[]>(sizes.map((s) => [s, []]));
  for (let round = 0; round < rounds && failed === null; round++) {
    const order = round % 2 ? [...sizes].reverse() : sizes;
    for (const size of order) {
      const url = new URL(DB_URL);
      url.pathname = `${url.pathname}_${size}`;
      const file = path.resolve(`.data/bench-results-${size}.json`);
      console.log(
        `\n=== ${size.toLocaleString()} stored transactions${rounds > 1 ? ` (round ${round + 1} of ${rounds})` : ""}`,
      );
      const run = spawnSync(process.execPath, ["--import", "tsx", "bench/screening.ts"], {
        stdio: "inherit",
        env: {
          ...process.env,
          BENCH_SIZES: "",
          // the first round loads (or reuses, with BENCH_SKIP_LOAD=1); the later ones measure what it loaded
          ...(round > 0 ? { BENCH_SKIP_LOAD: "1" } : {}),
          BENCH_ROWS: String(size),
          BENCH_DATABASE_URL: url.toString(),
          BENCH_RESULT_FILE: file,
        },
      });
      if (run.status !== 0) {
        // compare what the finished runs measured, then fail
        failed = run.status ?? 1;
        console.log(`\n${size.toLocaleString()}: the run failed (exit ${failed}); the rounds stop here`);
        break;
      }
      bySize.get(size)!.push(JSON.parse(readFileSync(file, "utf8")) as TResult);
    }
  }
  // one row per size and level: the median over the rounds (each round's figure in brackets when there are several)
  type TRow = {
    rps: number;
    p50: number;
    p99: number;
    pgMs: number;
    buffers: number;
    loopP99: number | null;
    preempted: number;
    each: string;
  };
  const row = (results: TResult[], pick: (r: TResult) => TLevel | null | undefined): TRow | null => {
    const ls = results.map(pick).filter((l): l is TLevel => Boolean(l));
    if (!ls.length) return null;
    return {
      rps: median(ls.map((l) => l.rps)),
      p50: median(ls.map((l) => l.p50)),
      p99: median(ls.map((l) => l.p99)),
      pgMs: median(ls.map((l) => (l.rps > 0 ? Math.round((l.pgCores * 10_000) / l.rps) : 0))) / 10,
      buffers: median(ls.map((l) => l.pgBuffers)),
      loopP99: ls.every((l) => l.loopP99Ms !== null) ? median(ls.map((l) => l.loopP99Ms!)) : null,
      preempted: median(ls.map((l) => Math.round((l.preempted ?? 0) * 10))) / 10,
      each: ls.length > 1 ? ` (${ls.map((l) => `${l.rps}/s p99 ${l.p99}`).join("; ")})` : "",
    };
  };
  const kinds = [
    ...(bySize.get(sizes[0]!)![0]?.levels ?? []).map((l) => ({
      label: `c=${l.connections}`,
      pick: (r: TResult) => r.levels.find((x) => x.connections === l.connections),
    })),
    { label: "c=8, hot merchant only", pick: (r: TResult) => r.hotLevel },
  ];
  console.log(
    `\n| stored transactions | level | screenings/s${rounds > 1 ? ` (median of ${rounds} rounds; each round)` : ""} | vs first size | p50 ms | p99 ms | PostgreSQL CPU ms per screening | PostgreSQL buffers per screening | server event loop late p99 ms | server preempted per screening |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const size of sizes) {
    for (const k of kinds) {
      const r = row(bySize.get(size)!, k.pick);
      const base = row(bySize.get(sizes[0]!)!, k.pick);
      if (!r) continue;
      console.log(
        `| ${size.toLocaleString()} | ${k.label} | ${r.rps}${r.each} | ${base ? (r.rps / base.rps).toFixed(2) : "-"} | ` +
          `${r.p50} | ${r.p99} | ${r.pgMs.toFixed(1)} | ${r.buffers} | ${r.loopP99 ?? "-"} | ${r.preempted} |`,
      );
    }
  }
  // a denser history can make rules fire more often: more alerts, cases and deliveries per screening is more work,
  // not a cost of reading the history
  console.log(
    `\nalerts / webhook deliveries per screening: ${sizes
      .map((size) => {
        const rs = bySize.get(size)!;
        const fig = (f: (u: TDeliveries) => number) =>
          rs
            .map((r) => (r.underLoad ? f(r.underLoad) : "-"))
            .filter((v, i, a) => a.indexOf(v) === i)
            .join(", ");
        return `${size.toLocaleString()}: ${fig((u) => u.alertsPerScreening)} / ${fig((u) => u.deliveriesPerScreening)}`;
      })
      .join("; ")}`,
  );
  const last = sizes[sizes.length - 1]!;
  const c8 = row(bySize.get(last)!, (r) => r.levels.find((l) => l.connections === 8));
  const hot = row(bySize.get(last)!, (r) => r.hotLevel);
  if (c8 && hot)
    console.log(
      `\nat ${last.toLocaleString()}: hot merchant alone ${hot.rps}/s, p50 ${hot.p50} ms / p99 ${hot.p99} ms against the ` +
        `mixed load's ${c8.rps}/s, ${c8.p50} / ${c8.p99} ms at c=8`,
    );
  console.log(
    `load average at the start of each size's run: ${sizes
      .map(
        (size) =>
          `${size.toLocaleString()}: ${bySize
            .get(size)!
            .map((r) => r.load0.toFixed(2))
            .join(", ")}`,
      )
      .join("; ")}`,
  );
  if (failed !== null) process.exit(failed);
}

// BENCH_SOAK_SECONDS=N: the memory soak of bench/soak.ts instead.
const sizes = (process.env.BENCH_SIZES ?? "").split(",").filter(Boolean).map(Number);
(process.env.BENCH_SOAK_SECONDS
  ? import("./soak").then((m) => m.soak())
  : sizes.length
    ? Promise.resolve(compareSizes(sizes))
    : main()
).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
