// In-process profile of POST /v1/transaction without HTTP: CPU per screening and wall time per SQL
// statement, for the raw-SQL path and the Prisma path it replaced, in the same run on the same data.
// Uses a database `npm run bench` loaded (BENCH_DATABASE_URL, e.g. …/rss_bench_20000 after BENCH_SIZES=20000):
// npx tsx bench/profile-screening.ts [screenings per path]
import type { PoolClient } from "pg";
import { benchTransaction } from "./load";
import { readBenchState } from "./state";

process.env.DATABASE_URL ??=
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_SECRET_KEY ??= "bench-webhook-key-0123456789";

const N = Number(process.argv[2] ?? 100);
const { apiKey, users } = readBenchState(process.env.DATABASE_URL);
const { authenticateApiKey } = await import("@/lib/auth/api-keys");
const { screenTransaction } = await import("@/lib/screening/screen-transaction");
const { screenTransactionPrisma } = await import("@/tests/oracle/screen-transaction-oracle");
const { ZTransaction } = await import("@/lib/transactions/schemas");
const { pgPool } = await import("@/lib/db");

// Every statement on every pooled connection (Prisma's included), by its first words.
const times = new Map<string, number[]>();
pgPool().on("connect", (client: PoolClient & { profiled?: boolean }) => {
  if (client.profiled) return;
  client.profiled = true;
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: typeof query }).query = async (...args: unknown[]) => {
    const started = performance.now();
    const result = await query(...args);
    const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "?");
    const key = text.trim().replace(/\s+/g, " ").slice(0, 40);
    const list = times.get(key) ?? [];
    list.push(performance.now() - started);
    times.set(key, list);
    return result;
  };
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const run = Date.now().toString(36);
const body = (i: number) => ZTransaction.parse(benchTransaction(`profile-${run}-${i}`, i, users));

for (const [name, screen] of [
  ["raw SQL (lib/screening)", screenTransaction],
  ["Prisma (screenTransactionPrisma)", screenTransactionPrisma],
] as const) {
  times.clear();
  const wall: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const client = (await authenticateApiKey(apiKey))!;
    const started = performance.now();
    await screen({ client, body: body(i + (name.startsWith("raw") ? 0 : 1_000_000)) });
    wall.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpu0);
  const statements = [...times.values()].reduce((n, list) => n + list.length, 0);
  console.log(
    `${name}: p50 ${median(wall).toFixed(1)} ms, CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(1)} ms ` +
      `per screening (key check included), ${(statements / N).toFixed(1)} statements per screening`,
  );
  for (const [key, list] of times)
    console.log(`  ${key.padEnd(42)} ${String(list.length).padStart(5)}×  p50 ${median(list).toFixed(2)} ms`);
}
process.exit(0);
