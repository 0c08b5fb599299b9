// Where a screening's database time goes under load: every statement PostgreSQL runs (nested ones included: the
// functions' and the triggers'), with its calls, execution time and shared buffers per screening, from
// pg_stat_statements over a run of POST /v1/transaction at CONN connections for DUR seconds (after 5 s at 4).
// Times are wall clock: on saturated cores they include waiting for a core. With track_io_timing on, it also
// prints the blocks read from outside shared buffers and the time spent reading them.
//
// Needs pg_stat_statements loaded (superuser, then restart PostgreSQL):
//   ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements';  -- restart, then:
//   ALTER SYSTEM SET pg_stat_statements.track = 'all'; ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();
// and a database `npm run bench` loaded (BENCH_DATABASE_URL, e.g. …/rss_bench_10000000 after BENCH_SIZES):
//   BENCH_DATABASE_URL=… CONN=8 DUR=20 npx tsx bench/profile-statements.ts   (MERCHANT=m-hot: that merchant only)
// It resets the database's pg_stat_statements. Set track back to 'none' before measuring throughput.
import { spawn } from "node:child_process";
import pg from "pg";
import { screeningLoad } from "./load";
import { readBenchState, writeBenchState } from "./state";

const DB = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
const PORT = Number(process.env.BENCH_PORT ?? 3211);
const CONN = Number(process.env.CONN ?? 8);
const DUR = Number(process.env.DUR ?? 15);
const state = readBenchState(DB);

const server = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_URL: DB,
    DATABASE_POOL_SIZE: "10",
    NEXTAUTH_SECRET: "bench-secret-0123456789abcdef",
    WEBHOOK_SECRET_KEY: "bench-webhook-key-0123456789",
    RATE_LIMIT_PER_SECOND: "1000000",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    NEXT_TELEMETRY_DISABLED: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
let up = false;
for (let i = 0; i < 120 && !up; i++) {
  up = await fetch(`http://127.0.0.1:${PORT}/v1/openapi.json`).then(
    (r) => r.ok,
    () => false,
  );
  if (!up) await new Promise((resolve) => setTimeout(resolve, 500));
}
if (!up) throw new Error("the server did not answer");

const db = new pg.Client({ connectionString: DB });
await db.connect();
// pg_stat_statements is optional: without it (not preloaded) only the relations and WAL sections are printed
const statements = await db
  .query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
  .then(() => db.query("SELECT 1 FROM pg_stat_statements LIMIT 1"))
  .then(
    () => true,
    () => false,
  );
const sequence = { next: state.nextSeq };
const load = { port: PORT, apiKey: state.apiKey, users: state.users, sequence };
await screeningLoad({ ...load, connections: 4, duration: 5, prefix: `statements-warm-${Date.now()}` });
if (statements) await db.query("SELECT pg_stat_statements_reset()");
const relations0 = await relationBlocks();
const wal0 = await walTotals();
const result = await screeningLoad({
  ...load,
  connections: CONN,
  duration: DUR,
  prefix: `statements-${Date.now()}`,
  merchantId: process.env.MERCHANT,
});
writeBenchState(DB, { ...state, nextSeq: sequence.next });
const n = result.requests.total;
console.log(
  `${n} screenings at ${CONN} connections: ${result.requests.average}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
);
// the backends flush their counters at most once a second
await new Promise((resolve) => setTimeout(resolve, 1100));
const relations = await relationBlocks();
const wal = await walTotals();
console.log(
  `WAL per screening: ${((wal.bytes - wal0.bytes) / n / 1024).toFixed(1)} kB, ${((wal.fpi - wal0.fpi) / n).toFixed(1)} ` +
    `full-page images, ${wal.checkpoints - wal0.checkpoints} checkpoint(s) during the run (cluster-wide)`,
);
console.log("relations by blocks read from outside shared buffers per screening (read, then hit + read):");
const deltas = [...relations]
  .map(([name, r]) => {
    const before = relations0.get(name) ?? { read: 0, hit: 0 };
    return { name, read: (r.read - before.read) / n, all: (r.read + r.hit - before.read - before.hit) / n };
  })
  .filter((r) => r.all > 0.05)
  .sort((a, b) => b.read - a.read || b.all - a.all);
let totalRead = 0;
for (const r of deltas) totalRead += r.read;
console.log(`  all relations: ${totalRead.toFixed(1)} read`);
for (const r of deltas.slice(0, 30))
  console.log(`  ${r.read.toFixed(2).padStart(7)} ${r.all.toFixed(1).padStart(7)}  ${r.name}`);
if (!statements) {
  console.log("(pg_stat_statements is not loaded: no statements section)");
  await db.end();
  await stopServer();
}
const mine = `dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`;
const { rows: all } = await db.query<{ reads: string; ms: number; written: string }>(
  `SELECT sum(shared_blks_read)::text AS reads, sum(blk_read_time) AS ms, sum(shared_blks_written)::text AS written
   FROM pg_stat_statements WHERE toplevel AND ${mine}`,
);
console.log(
  `per screening: ${(Number(all[0]!.reads) / n).toFixed(1)} blocks read from outside shared buffers ` +
    `(${(all[0]!.ms / n).toFixed(2)} ms reading them), ${(Number(all[0]!.written) / n).toFixed(1)} written out`,
);
console.log("calls, ms, buffers (hit + read) per screening; T: sent by the server, else nested");
const { rows } = await db.query<{
  calls: string;
  ms: number;
  buffers: string;
  toplevel: boolean;
  query: string;
}>(
  `SELECT calls::text, total_exec_time AS ms, (shared_blks_hit + shared_blks_read)::text AS buffers, toplevel,
     regexp_replace(query, '\\s+', ' ', 'g') AS query
   FROM pg_stat_statements WHERE ${mine} ORDER BY total_exec_time DESC LIMIT 40`,
);
for (const r of rows)
  console.log(
    `${(Number(r.calls) / n).toFixed(2).padStart(6)}× ${(r.ms / n).toFixed(3).padStart(7)} ms ` +
      `${(Number(r.buffers) / n).toFixed(1).padStart(7)} ${r.toplevel ? "T" : " "} ${r.query.slice(0, 120)}`,
  );
await db.end();
await stopServer();

/** Blocks of each table and index of the bench database read from outside shared buffers, and found in them. */
async function relationBlocks(): Promise<Map<string, { read: number; hit: number }>> {
  const { rows } = await db.query<{ name: string; read: number; hit: number }>(
    `SELECT relname AS name, coalesce(heap_blks_read, 0)::float8 AS read, coalesce(heap_blks_hit, 0)::float8 AS hit
       FROM pg_statio_user_tables
     UNION ALL
     SELECT indexrelname, coalesce(idx_blks_read, 0)::float8, coalesce(idx_blks_hit, 0)::float8 FROM pg_statio_user_indexes`,
  );
  return new Map(rows.map((r) => [r.name, { read: r.read, hit: r.hit }]));
}

/** The cluster's WAL written so far, its full-page images, and the checkpoints done. */
async function walTotals(): Promise<{ bytes: number; fpi: number; checkpoints: number }> {
  const { rows } = await db.query<{ bytes: number; fpi: number; checkpoints: number }>(
    `SELECT wal_bytes::float8 AS bytes, wal_fpi::float8 AS fpi,
            (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)::float8 AS checkpoints
       FROM pg_stat_wal`,
  );
  return rows[0]!;
}

/** Stops the server and waits for it to exit (its graceful shutdown drains the job driver), then exits. */
async function stopServer(): Promise<never> {
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  if (server.exitCode === null) server.kill("SIGKILL");
  process.exit(0);
}
