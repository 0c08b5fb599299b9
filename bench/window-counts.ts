// What a count aggregate costs on a group with history: transaction_window_totals asked for the count only
// (p_base NULL, migration 20261207120000_transaction_window_counts: the raw rows counted from the group's index
// alone) against the same call asking for the amounts (p_base false, the way every count was read before:
// a heap page per raw row). On a database bench/screening.ts loaded (BENCH_DATABASE_URL, e.g.
// …/rss_bench_10000000 after BENCH_SIZES), whose users each have a card with about 20 transactions a month:
//
//   BENCH_DATABASE_URL=… npx tsx bench/window-counts.ts
//
// Each round calls both ways for BENCH_CALLS (default 500) groups not read before in this run (so neither way
// finds the other's pages in shared buffers), alternating the two ways, and prints per call the execution
// time, the shared buffers touched and the blocks read from outside shared buffers (EXPLAIN ANALYZE of the
// whole batch; BENCH_ROUNDS, default 3).
import pg from "pg";
import { readBenchState } from "./state";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
for (const n of [CALLS, ROUNDS]) {
  if (!Number.isInteger(n) || n < 1)
    throw new Error("BENCH_CALLS and BENCH_ROUNDS must be whole numbers above 0");
}

const { clientId, users } = readBenchState(DB_URL);
const SHAPES = [
  { label: "count per card over 30 d", dim: 5, prefix: "fp-u", window: "30 days" },
  { label: "count per user over 7 d", dim: 1, prefix: "u", window: "7 days" },
  { label: "count per card over 24 h", dim: 5, prefix: "fp-u", window: "24 hours" },
];

const db = new pg.Client({ connectionString: DB_URL });
await db.connect();
// the function's plans made once, outside the measured batches
for (const base of ["false", "NULL"])
  await db.query(
    `SELECT count(*) FROM generate_series(1, 5) g, LATERAL "transaction_window_totals"($1, 5::smallint,
       'fp-u' || g, ${base}, false, now() - interval '1 day', now()) a`,
    [clientId],
  );

let offset = 0;
console.log(
  `${CALLS} calls per figure, ${users.toLocaleString("en")} users; ms, buffers, blocks read per call`,
);
for (let round = 1; round <= ROUNDS; round++) {
  for (const shape of SHAPES) {
    const line: string[] = [];
    for (const base of ["false", "NULL"]) {
      offset += CALLS;
      const { rows } = await db.query<{
        "QUERY PLAN": Array<{ "Execution Time": number; Plan: Record<string, number> }>;
      }>(
        `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON)
         SELECT sum(a."n") FROM generate_series(1, $2::int) g, LATERAL "transaction_window_totals"($1, ${shape.dim}::smallint,
           '${shape.prefix}' || ((g + $3::int) * 7919 % $4::int), ${base}, false, now() - interval '${shape.window}', now()) a`,
        [clientId, CALLS, offset, users],
      );
      const plan = rows[0]!["QUERY PLAN"][0]!;
      const buffers = plan.Plan["Shared Hit Blocks"]! + plan.Plan["Shared Read Blocks"]!;
      line.push(
        `${base === "NULL" ? "count only" : "with amounts"} ${(plan["Execution Time"] / CALLS).toFixed(3)} ms, ` +
          `${(buffers / CALLS).toFixed(1)} buffers, ${(plan.Plan["Shared Read Blocks"]! / CALLS).toFixed(1)} read`,
      );
    }
    console.log(`round ${round}, ${shape.label}: ${line.join("; ")}`);
  }
}
await db.end();
