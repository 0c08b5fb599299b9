// npm run bench (part 2, also `npm run bench:sanctions`): sanctions matching speed.
// 1. In memory: p50/p99 of one sanctionsScore against 50,000 and 500,000 generated names, index build
//    time and heap size.
// 2. On PostgreSQL: import of a generated 100,000-entity OpenSanctions CSV (streaming, one transaction),
//    then in-process screening throughput of onboardings and payouts with the sanctions rules active,
//    against the same rules without them.
// Environment: BENCH_SANCTIONS_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_bench_sanctions),
// BENCH_SANCTIONS_SIZES (50000,500000), BENCH_SANCTIONS_QUERIES (3000), BENCH_SANCTIONS_SCREENINGS (300),
// BENCH_SANCTIONS_SKIP_DB=1 (in-memory part only).
import { createWriteStream, mkdtempSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { SanctionsIndexBuilder, type TSanctionsEntityInput } from "@/lib/sanctions/sanctions-index";
import { freshDatabase } from "./fresh-database";

const DB_URL =
  process.env.BENCH_SANCTIONS_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench_sanctions";
const SIZES = (process.env.BENCH_SANCTIONS_SIZES ?? "50000,500000").split(",").map(Number);
const QUERIES = Number(process.env.BENCH_SANCTIONS_QUERIES ?? 3_000);
const SCREENINGS = Number(process.env.BENCH_SANCTIONS_SCREENINGS ?? 300);
const IMPORT_ENTITIES = 100_000;

function log(msg: string) {
  console.log(`[bench:sanctions] ${msg}`);
}

// Deterministic generator (mulberry32) so runs compare.
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST =
  `ahmed ali alexander anna boris carlos chen david dmitri elena fatima hassan ibrahim igor ivan jean
  john jose karim li maria mikhail mohammed nadia olga omar pavel pedro rami sergei tariq viktor wei yusuf zainab
  abdul amir andrei bashir farid gennady hamid irina jamal khalid leila mahmoud nikolai oleg rashid said samir
  svetlana tatiana vladimir youssef yuri zhang kim park nguyen luis ana miguel sofia lucas emma noah amina
  chinedu adebayo kwame fatou moussa aisha hussein mustafa yasmin reza parisa dariush`.split(/\s+/);
const SYLLABLES =
  `ko va len ro ma nov ski vich ra shid al ha dad za wa hi ri mo ro zen ka de ne ti ba ya ev in
  ov an el mar tin ser gey lu pe dro san chez gar ci fer nan dez ab dul la hu sein ma su ri qa sim ta ri ku
  ch en wei li ang zh ou ng uy ok on kwo ad eb ay ol um id e chi ne du bo ri sov ich`.split(/\s+/);

function makeNames(count: number, seed: number): TSanctionsEntityInput[] {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const surname = () => {
    const n = 2 + Math.floor(r() * 3);
    let s = "";
    for (let i = 0; i < n; i++) s += pick(SYLLABLES);
    return s[0]!.toUpperCase() + s.slice(1);
  };
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const out: TSanctionsEntityInput[] = [];
  for (let i = 0; i < count; i++) {
    const first = cap(pick(FIRST));
    const last = surname();
    const middle = r() < 0.3 ? ` ${cap(pick(FIRST))}` : "";
    const name = `${first}${middle} ${last}`;
    const aliases = r() < 0.4 ? [`${last}, ${first}`] : [];
    out.push({
      datasetId: "bench",
      entityId: `E${i}`,
      name,
      aliases,
      birthDates: r() < 0.5 ? [`${1940 + Math.floor(r() * 60)}`] : [],
      programme: "BENCH",
    });
  }
  return out;
}

function typo(name: string, r: () => number): string {
  const i = 1 + Math.floor(r() * (name.length - 2));
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return name.slice(0, i) + letters[Math.floor(r() * 26)] + name.slice(i + 1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1_048_576;
}

type TMemoryRow = {
  names: number;
  entities: number;
  buildMs: number;
  heapMb: number;
  p50: number;
  p99: number;
  max: number;
  cpuP50: number;
  cpuP99: number;
  hitRate: number;
};

function benchInMemory(size: number): TMemoryRow {
  const entities = makeNames(size, 42);
  const before = heapMb();
  const started = performance.now();
  const builder = new SanctionsIndexBuilder();
  for (const e of entities) builder.add(e);
  const index = builder.build();
  const buildMs = performance.now() - started;
  const heap = heapMb() - before;

  const r = rng(7);
  const queries: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const e = entities[Math.floor(r() * entities.length)]!;
    const kind = i % 3;
    if (kind === 0) queries.push(e.name.split(" ").reverse().join(" "));
    else if (kind === 1) queries.push(typo(e.name, r));
    else queries.push(`${FIRST[Math.floor(r() * FIRST.length)]} Unlisted${i} Person`);
  }
  for (const q of queries.slice(0, 200)) index.search(q); // warm-up (JIT)
  const times: number[] = [];
  const cpu: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const best = index.search(q)[0]?.score ?? 0;
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (best >= 0.9) hits++;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    names: index.nameCount,
    entities: index.entityCount,
    buildMs,
    heapMb: heap,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1]!,
    cpuP50: percentile(cpu, 50),
    cpuP99: percentile(cpu, 99),
    hitRate: hits / QUERIES,
  };
}

async function writeCsv(file: string, entities: TSanctionsEntityInput[]): Promise<void> {
  const out = createWriteStream(file);
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  out.write("id,schema,name,aliases,birth_date,countries,sanctions,dataset\n");
  for (const e of entities) {
    const line = [
      e.entityId,
      "Person",
      q(e.name),
      q(e.aliases.join(";")),
      e.birthDates.join(";"),
      "xx",
      "BENCH",
      "bench",
    ];
    if (!out.write(line.join(",") + "\n"))
      await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

type TThroughput = { label: string; perSecond: number; p50: number; p99: number };

async function benchScreening(): Promise<{
  importMs: number;
  firstScreeningMs: number;
  rows: TThroughput[];
}> {
  await freshDatabase(DB_URL);
  process.env.DATABASE_URL = DB_URL;

  const { importSanctions } = await import("@/lib/sanctions/import-sanctions");
  const { createClient } = await import("@/lib/clients/create-client");
  const { loadClientContext } = await import("@/lib/clients/client-context");
  const { importRules } = await import("@/lib/rules/import-rules");
  const { setRuleStatus } = await import("@/lib/rules/set-rule-status");
  const { DEMO_RULES } = await import("@/lib/rules/demo-rules");
  const { SANCTIONS_RULES } = await import("@/lib/sanctions/demo-sanctions");
  const { screenUser } = await import("@/lib/screening/screen-user");
  const { screenTransaction } = await import("@/lib/screening/screen-transaction");
  const { ZUser } = await import("@/lib/users/schemas");
  const { ZTransaction } = await import("@/lib/transactions/schemas");
  const { prisma } = await import("@/lib/db");

  const entities = makeNames(IMPORT_ENTITIES, 99);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-sanctions-")), "targets.simple.csv");
  await writeCsv(file, entities);
  const t0 = performance.now();
  const imported = await importSanctions({ file, dataset: "bench" });
  const importMs = performance.now() - t0;
  log(
    `imported ${imported.entities} entities / ${imported.names} names in ${(importMs / 1000).toFixed(1)} s`,
  );

  const { clientId } = await createClient({ name: "Bench sanctions", type: "consumer", features: [] });
  const rules = [
    ...DEMO_RULES.filter((r) => r.subject === "transaction" || r.subject === "user"),
    ...SANCTIONS_RULES,
  ];
  await importRules({ clientId, rules, actor: "bench" });
  const client = await loadClientContext(clientId, "bench");

  const r = rng(3);
  const person = (i: number) => {
    const listed = entities[Math.floor(r() * entities.length)]!.name.split(" ");
    // one screening in ten is a listed name, the others are not
    return i % 10 === 0
      ? { firstName: listed[0]!, lastName: listed[listed.length - 1]! }
      : { firstName: FIRST[i % FIRST.length]!, lastName: `Customer${i}` };
  };
  let seq = 0;
  const run = async (label: string): Promise<TThroughput> => {
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < SCREENINGS; i++) {
      const id = `${label.replace(/\W+/g, "-")}-${seq++}`;
      const t = performance.now();
      if (i % 2 === 0) {
        await screenUser({
          client,
          body: ZUser.parse({ id: `u-${id}`, timestamp: Date.now() - 60_000, ...person(i) }),
        });
      } else {
        await screenTransaction({
          client,
          body: ZTransaction.parse({
            id: `t-${id}`,
            userId: "bench-user",
            status: "PENDING",
            currencyCode: "EUR",
            amount: 100 + i,
            direction: "payout",
            timestamp: Date.now() - 60_000,
            recipient: person(i),
          }),
        });
      }
      times.push(performance.now() - t);
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    return { label, perSecond: SCREENINGS / seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
  };

  // the first screening after an import builds the index in this process
  const first = performance.now();
  await screenUser({
    client,
    body: ZUser.parse({ id: "warm", timestamp: Date.now() - 60_000, firstName: "A", lastName: "B" }),
  });
  const firstScreeningMs = performance.now() - first;
  await run("warm-up");
  const withSanctions = await run("with sanctions rules");
  for (const rule of SANCTIONS_RULES) {
    await prisma.$transaction((tx) => setRuleStatus(tx, { clientId, ruleId: rule.id, status: "inactive" }));
  }
  await run("warm-up 2");
  const without = await run("without sanctions rules");
  await prisma.$disconnect();
  return { importMs, firstScreeningMs, rows: [withSanctions, without] };
}

async function main() {
  log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} CPUs`,
  );
  log(
    `in memory: ${QUERIES} queries per size (1/3 listed names reordered, 1/3 one-letter typos, 1/3 unlisted)`,
  );
  const memory: TMemoryRow[] = [];
  for (const size of SIZES) {
    const row = benchInMemory(size);
    memory.push(row);
    log(
      `${size.toLocaleString("en-US")} entities (${row.names.toLocaleString("en-US")} names): build ${(row.buildMs / 1000).toFixed(1)} s, ` +
        `heap ${row.heapMb.toFixed(0)} MB, one score p50 ${row.p50.toFixed(3)} ms, p99 ${row.p99.toFixed(3)} ms, ` +
        `max ${row.max.toFixed(2)} ms (CPU time p50 ${row.cpuP50.toFixed(3)} ms, p99 ${row.cpuP99.toFixed(3)} ms), ≥0.9 for ${(row.hitRate * 100).toFixed(0)}% of queries`,
    );
  }
  if (process.env.BENCH_SANCTIONS_SKIP_DB === "1") return;
  const screening = await benchScreening();
  log(
    `first screening after the import (index build for 100,000 entities): ${screening.firstScreeningMs.toFixed(0)} ms`,
  );
  for (const row of screening.rows) {
    log(
      `in-process screenings ${row.label}: ${row.perSecond.toFixed(1)}/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms`,
    );
  }
  console.log(
    JSON.stringify({
      memory,
      importMs: screening.importMs,
      firstScreeningMs: screening.firstScreeningMs,
      screening: screening.rows,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
