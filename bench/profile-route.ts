// In-process CPU profile of the POST /v1/transaction route handler (withClientRead, the hot path,
// Response.json) without Next.js or HTTP, on the database `npm run bench` loaded, webhook rows
// written but not sent. Readable function names, unlike a profile of the minified `next start` build.
// node --cpu-prof --cpu-prof-dir=.data/prof-route --import tsx bench/profile-route.ts [n] [concurrency]
import { PerformanceObserver } from "node:perf_hooks";
import { benchTransaction } from "./load";
import { readBenchState } from "./state";

process.env.DATABASE_URL ??=
  process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_SECRET_KEY ??= "bench-webhook-key-0123456789";
process.env.RATE_LIMIT_PER_SECOND ??= "1000000";

const N = Number(process.argv[2] ?? 2000);
const C = Number(process.argv[3] ?? 8);
const { apiKey, users } = readBenchState(process.env.DATABASE_URL);
const { POST } = await import("@/app/v1/transaction/route");
const { pgPool } = await import("@/lib/db");
const run = Date.now().toString(36);
const request = (i: number) =>
  new Request("http://localhost/v1/transaction", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(benchTransaction(`route-${run}-${i}`, i * 13, users)),
  });
const route = { params: Promise.resolve({}) };
for (let i = 0; i < 50; i++) await (await POST(request(-i - 1), route)).text(); // warm-up
// garbage collections during the measured load, by kind: count and pause time of the main thread
const gc = new Map<string, { n: number; ms: number }>();
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = String((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? "?");
    const g = gc.get(kind) ?? { n: 0, ms: 0 };
    g.n++;
    g.ms += entry.duration;
    gc.set(kind, g);
  }
});
let next = 0;
let failed = 0;
observer.observe({ entryTypes: ["gc"] });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: C }, async () => {
    while (next < N) {
      const res = await POST(request(next++), route);
      if (res.status !== 200) failed++;
      await res.text();
    }
  }),
);
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - t0;
observer.disconnect();
console.log(
  `${N} screenings at c=${C} in ${(wall / 1000).toFixed(1)} s (${Math.round((N * 1000) / wall)}/s), ${failed} not 200; ` +
    `process CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms per screening ` +
    `(user ${(cpu.user / 1000 / N).toFixed(2)}, system ${(cpu.system / 1000 / N).toFixed(2)})`,
);
// kinds: 1 scavenge (young generation), 2 minor mark-compact, 4 mark-compact (old generation), 8 incremental, 16 weak callbacks
for (const [kind, g] of gc)
  console.log(
    `gc kind ${kind}: ${g.n} (${((g.n * 1000) / N).toFixed(1)} per 1,000 screenings), ${(g.ms / N).toFixed(3)} ms pause per screening`,
  );
await pgPool().end();
process.exit(0);
