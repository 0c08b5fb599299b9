// What a NOTIFY inside a writing transaction costs the whole cluster: pgbench runs the same small write
// transaction (one row inserted, then COMMIT) with and without `pg_notify` in it, alternated, at 1, 8 and 32
// connections. A notifying transaction takes an exclusive lock at COMMIT and keeps it until its commit
// record is flushed, so notifying commits go one at a time, none sharing a flush (lib/jobs/wake.ts,
// migration 20261128060000_job_wakeup_after_commit).
//
//   npx tsx bench/notify-commits.ts
//
// BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_bench_notify, created when missing),
// BENCH_DURATION seconds per run (default 8), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS (default 1,8,32).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench_notify";
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? "1,8,32").split(",").map(Number);
for (const [name, value] of [
  ["BENCH_DURATION", DURATION],
  ["BENCH_ROUNDS", ROUNDS],
  ...LEVELS.map((c) => ["BENCH_CONNECTIONS", c] as const),
] as const) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be whole numbers above 0`);
}

function psql(url: string, sql: string): string {
  const res = spawnSync("psql", [url, "-Atqc", sql], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`psql: ${res.stderr}`);
  return res.stdout.trim();
}

const target = new URL(DB_URL);
const dbName = target.pathname.slice(1);
const admin = new URL(DB_URL);
admin.pathname = "/postgres";
if (psql(admin.toString(), `SELECT count(*) FROM pg_database WHERE datname = '${dbName}'`) === "0") {
  psql(admin.toString(), `CREATE DATABASE "${dbName}"`);
}
psql(
  DB_URL,
  "DROP TABLE IF EXISTS bench_notify; CREATE TABLE bench_notify (id bigserial PRIMARY KEY, v text)",
);

const dir = mkdtempSync(path.join(os.tmpdir(), "notify-commits-"));
const scripts = {
  "insert, commit": ["BEGIN;", "INSERT INTO bench_notify (v) VALUES ('x');", "SELECT 1;", "COMMIT;"],
  "insert, NOTIFY, commit": [
    "BEGIN;",
    "INSERT INTO bench_notify (v) VALUES ('x');",
    "SELECT pg_notify('bench_notify', '');",
    "COMMIT;",
  ],
};
const files = Object.fromEntries(
  Object.entries(scripts).map(([name, lines], i) => {
    const file = path.join(dir, `s${i}.sql`);
    writeFileSync(file, lines.join("\n") + "\n");
    return [name, file];
  }),
);

const settings = psql(
  DB_URL,
  "SELECT string_agg(name || '=' || setting, ', ' ORDER BY name) FROM pg_settings WHERE name IN ('synchronous_commit', 'wal_sync_method', 'fsync', 'commit_delay')",
);
console.log(`PostgreSQL ${psql(DB_URL, "SHOW server_version")}: ${settings}; ${os.cpus().length} cores`);
const results = new Map<string, number[]>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const c of LEVELS) {
    for (const [name, file] of Object.entries(files)) {
      const res = spawnSync(
        "pgbench",
        ["-n", "-c", String(c), "-j", String(Math.min(c, 2)), "-T", String(DURATION), "-f", file, DB_URL],
        { encoding: "utf8" },
      );
      const tps = Math.round(Number(/tps = ([\d.]+)/.exec(res.stdout)?.[1] ?? 0));
      if (res.status !== 0 || tps === 0) throw new Error(`pgbench failed: ${res.stderr}`);
      const key = `c=${c}, ${name}`;
      results.set(key, [...(results.get(key) ?? []), tps]);
      console.log(`round ${round}, ${key}: ${tps} commits/s`);
    }
  }
}
console.log("\ncommits/s (each round):");
for (const [key, tps] of results) console.log(`  ${key}: ${tps.join(", ")}`);
psql(DB_URL, "DROP TABLE IF EXISTS bench_notify");
rmSync(dir, { recursive: true, force: true });
