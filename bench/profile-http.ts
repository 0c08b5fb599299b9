// CPU profile of one `next start` process under HTTP load: POST /v1/transaction through autocannon
// against the database `npm run bench` loaded, with the bench's webhook subscription to a local receiver.
// Writes a .cpuprofile (open in Chrome DevTools or summarise with bench/cpuprofile-summary.ts) and
// prints CPU per request. Environment: BENCH_DATABASE_URL, BENCH_PORT (3200), PROFILE_SECONDS (20),
// PROFILE_CONNECTIONS (8), PROFILE_DIR (.data/profiles), BENCH_WEBHOOKS=0 for no subscription.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { screeningLoad } from "./load";
import { readBenchState, writeBenchState } from "./state";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_bench";
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 8);
const DIR = path.resolve(process.env.PROFILE_DIR ?? ".data/profiles");
const WEBHOOK_SECRET_KEY = "bench-webhook-key-0123456789";
process.env.WEBHOOK_SECRET_KEY = WEBHOOK_SECRET_KEY;
process.env.NEXTAUTH_SECRET ??= "bench-secret-0123456789abcdef";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.DATABASE_URL = DB_URL;

const state = readBenchState(DB_URL);
const { clientId, apiKey, users } = state;
// goes on from the bench's sequence, and leaves it where this profile stopped
const sequence = { next: state.nextSeq };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sql(text: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: DB_URL });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

let received = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(200).end("ok");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
await sql(`DELETE FROM webhook_subscriptions WHERE "clientId" = '${clientId}'`);
if (process.env.BENCH_WEBHOOKS !== "0") {
  const { createSubscription } = await import("@/lib/webhooks/create-subscription");
  await createSubscription({
    clientId,
    clientType: "consumer",
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: ["transaction.screened", "alert.created"],
    secret: "whsec_bench-receiver",
  });
}

// Leftovers of earlier runs (deliveries to receivers that are gone) would be counted as this run's work.
await sql(`UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'pending'`);
await sql(`UPDATE job_runs SET status = 'failed' WHERE status IN ('queued', 'running')`);
await sql(`UPDATE outbox_events SET "dispatchedAt" = now() WHERE "dispatchedAt" IS NULL`);
mkdirSync(DIR, { recursive: true });
const server = spawn(
  process.execPath,
  [
    ...(process.env.PROFILE_NODE_ARGS ?? "").split(" ").filter(Boolean),
    "--cpu-prof",
    `--cpu-prof-dir=${DIR}`,
    "node_modules/next/dist/bin/next",
    "start",
    "-p",
    String(PORT),
  ],
  {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: DB_URL,
      DATABASE_POOL_SIZE: "10",
      RATE_LIMIT_PER_SECOND: "1000000",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/v1/openapi.json`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 120) throw new Error("server did not start");
  await sleep(500);
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const run = Date.now().toString(36);
const load = (duration: number) =>
  screeningLoad({
    port: PORT,
    apiKey,
    users,
    sequence,
    connections: CONNECTIONS,
    duration,
    prefix: `prof-${run}-${duration}`,
  });
const rssMb = () =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
  );
console.log(`server RSS at rest after start: ${rssMb()} MB`);
const pendingDeliveries = async () =>
  (
    (
      await sql(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND "clientId" = '${clientId}'`,
      )
    ).rows[0] as { n: number }
  ).n;
await load(3); // warm-up, and its deliveries drained, so that the window below counts only its own work
for (let i = 0; i < 120 && (await pendingDeliveries()) > 0; i++) await sleep(500);
const received0 = received;
const cpu0 = cpuSeconds(server.pid!);
const t0 = Date.now();
const result = await load(SECONDS);
writeBenchState(DB_URL, { ...state, nextSeq: sequence.next });
// let the deliveries of this load drain, counted in the same CPU
for (let i = 0; i < 120 && (await pendingDeliveries()) > 0; i++) await sleep(500);
const cpu = cpuSeconds(server.pid!) - cpu0;
console.log(`server RSS after the load: ${rssMb()} MB`);
const wall = (Date.now() - t0) / 1000;
const requests = result.requests.total;
console.log(
  `${requests} screenings in ${SECONDS} s at c=${CONNECTIONS} (${Math.round(result.requests.average)}/s, p50 ` +
    `${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}); ` +
    `${received - received0} webhooks received; server CPU ${cpu.toFixed(1)} s over ${wall.toFixed(0)} s = ` +
    `${((cpu * 1000) / requests).toFixed(1)} ms per screening (its ${((received - received0) / requests).toFixed(2)} ` +
    `deliveries included)`,
);
await sleep(10_000);
console.log(`server RSS after 10 s at rest: ${rssMb()} MB`);
server.kill("SIGINT");
await new Promise((r) => server.once("exit", r));
receiver.close();
console.log(`profile written to ${DIR}`);
process.exit(0);
