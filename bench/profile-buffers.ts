// Where a screening's database work goes: every statement PostgreSQL runs for POST /v1/transaction (in
// process, without HTTP), nested ones included (the functions' statements, the triggers'), with its shared
// buffers (hit + read) and time per screening, as auto_explain reports them (tests/support/statement-buffers.ts).
// Uses a database `npm run bench` loaded (BENCH_DATABASE_URL, e.g. …/rss_bench_10000000 after BENCH_SIZES):
// npx tsx bench/profile-buffers.ts [screenings, default 200]; BENCH_MERCHANT=m-hot: every screening of that merchant
// A nested statement's buffers are counted in its own line and again in the statement that called it.
import pg from "pg";
import { benchTransaction } from "./load";
import { watchStatements } from "@/tests/support/statement-buffers";
import { readBenchState } from "./state";

process.env.DATABASE_URL ??=
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_SECRET_KEY ??= "bench-webhook-key-0123456789";

const N = Number(process.argv[2] ?? 200);
const WARM_UP = 20;
const { apiKey, users } = readBenchState(process.env.DATABASE_URL);
const { authenticateApiKey } = await import("@/lib/auth/api-keys");
const { screenTransaction } = await import("@/lib/screening/screen-transaction");
const { ZTransaction } = await import("@/lib/transactions/schemas");
const { pgPool } = await import("@/lib/db");

type TLine = { calls: number; buffers: number; ms: number };
let lines = new Map<string, TLine>();

watchStatements(pgPool(), ({ query, buffers, ms }) => {
  const line = lines.get(query) ?? { calls: 0, buffers: 0, ms: 0 };
  line.calls++;
  line.buffers += buffers;
  line.ms += ms;
  lines.set(query, line);
});

const run = Date.now().toString(36);
async function screen(count: number, offset: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const client = (await authenticateApiKey(apiKey))!;
    const body = ZTransaction.parse(
      benchTransaction(`buffers-${run}-${offset + i}`, offset + i, users, process.env.BENCH_MERCHANT),
    );
    await screenTransaction({ client, body });
  }
}

// a warm-up of other ids (plans, caches), then the measured screenings
await screen(WARM_UP, 1_000_000);
lines = new Map();
// every buffer the database touched, from its statistics: a statement's AFTER triggers are outside its plan
const touched = async () => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query<{ n: string }>(
    `SELECT (blks_hit + blks_read)::text AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  await db.end();
  return Number(rows[0]!.n);
};
// an idle backend reports its statistics within about a second
await new Promise((resolve) => setTimeout(resolve, 2000));
const before = await touched();
await screen(N, 0);
await new Promise((resolve) => setTimeout(resolve, 2000));
const all = (await touched()) - before;

console.log(
  `${N} screenings; per screening: calls, shared buffers (hit + read), ms (EXPLAIN ANALYZE without timing)`,
);
console.log(`in all (pg_stat_database): ${(all / N).toFixed(0)} buffers per screening`);
for (const [query, line] of [...lines].sort((a, b) => b[1].buffers - a[1].buffers))
  console.log(
    `${(line.calls / N).toFixed(1).padStart(5)}× ${(line.buffers / N).toFixed(1).padStart(8)} ${(line.ms / N)
      .toFixed(2)
      .padStart(7)} ms  ${query}`,
  );
process.exit(0);
