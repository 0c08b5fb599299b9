// Server time of every dashboard page in the production build, at volume: `next start` over the
// database bench/dashboard-seed.ts loaded (1,000,000 or DASHBOARD_BENCH_ROWS transactions, a tenth as many alerts),
// signed in as an admin of the bench client. Each page's HTML (server render with its data) and each
// dashboard API call the page's screen makes on load are requested WARMUP times, then RUNS times one
// after another; the table gives p50, p95 and max per URL in milliseconds, time to the last byte.
// Usage: npm run build, then npx tsx bench/dashboard-pages.ts
// Environment: DASHBOARD_BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench),
// PAGES_PORT (3250), PAGES_RUNS (20), PAGES_BASE_URL to time an already running server instead,
// PAGES_ONLY (a substring: only the matching URLs).
import { spawn, type ChildProcess } from "node:child_process";
import bcrypt from "bcryptjs";
import pg from "pg";
import { encodeCursor } from "@/lib/alerts/keyset-cursor";

const DB_URL =
  process.env.DASHBOARD_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_dashboard_bench";
const PORT = Number(process.env.PAGES_PORT ?? 3250);
const RUNS = Number(process.env.PAGES_RUNS ?? 20);
const WARMUP = 3;
const BASE = process.env.PAGES_BASE_URL ?? `http://localhost:${PORT}`;
// the seed's user with 10,000 transactions
const BUSY_USER = "user-busy";
const ADMIN = { email: "bench-admin@bench.test", password: "bench-admin-password" };

function log(msg: string) {
  console.log(`[dashboard-pages] ${msg}`);
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: DB_URL });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function benchAdmin(clientId: string): Promise<void> {
  const hash = await bcrypt.hash(ADMIN.password, 10);
  await query(
    `INSERT INTO dashboard_users (id, "clientId", email, name, "passwordHash", role, "updatedAt")
     VALUES ('bench-admin', $1, $2, 'Bench Admin', $3, 'admin', now())
     ON CONFLICT ("clientId", email) DO UPDATE SET "passwordHash" = $3, "disabledAt" = NULL, "mustChangePassword" = false`,
    [clientId, ADMIN.email, hash],
  );
  await query(`DELETE FROM sign_in_throttles`);
}

function startServer(): ChildProcess {
  return spawn("npx", ["next", "start", "-p", String(PORT)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: DB_URL,
      NEXTAUTH_URL: BASE,
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "bench-nextauth-secret-0123456789",
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? "bench-webhook-key-0123456789",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
}

async function waitUp(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/login`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

/** next-auth's credentials sign-in, as the login form posts it; answers the cookie header. */
async function signIn(): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${BASE}/api/auth/csrf`);
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${BASE}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email: ADMIN.email, password: ADMIN.password, json: "true" }),
  });
  keep(res);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error("sign-in failed");
  return cookie();
}

async function timeOne(url: string, cookie: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${BASE}${url}`, { headers: { cookie }, redirect: "manual" });
  await res.arrayBuffer();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return ms;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const [state] = await query<{ client_id: string }>(`SELECT client_id FROM bench_state LIMIT 1`);
  if (!state) throw new Error("seed the database first: npx tsx bench/dashboard-seed.ts");
  const clientId = state.client_id;
  await benchAdmin(clientId);
  const [someCase] = await query<{ id: string }>(
    `SELECT id FROM cases WHERE "clientId" = $1 AND status <> 'closed' ORDER BY "dueAt" LIMIT 1`,
    [clientId],
  );
  const [someList] = await query<{ id: string }>(`SELECT id FROM lists WHERE "clientId" = $1 LIMIT 1`, [
    clientId,
  ]);
  const [someReport] = await query<{ id: string }>(`SELECT id FROM reports WHERE "clientId" = $1 LIMIT 1`, [
    clientId,
  ]);

  // cursors as deep as the pager goes (15 days back; the busy user's 20 days back) and a day 20 days back
  const cursorAt = async (days: number, userId?: string) => {
    const [row] = await query<{ occurredAt: Date; id: string }>(
      `SELECT "occurredAt", id FROM transactions WHERE "clientId" = $1 AND ($2::text IS NULL OR "userId" = $2)
         AND "occurredAt" <= now() - make_interval(days => $3) ORDER BY "occurredAt" DESC, id DESC LIMIT 1`,
      [clientId, userId ?? null, days],
    );
    return row ? encodeCursor({ at: row.occurredAt, id: row.id }) : "";
  };
  const deep = await cursorAt(15);
  const [alertRow] = await query<{ createdAt: Date; id: string }>(
    `SELECT "createdAt", id FROM alerts WHERE "clientId" = $1 AND status = 'open'
       AND "createdAt" <= now() - interval '10 days' ORDER BY "createdAt" DESC, id DESC LIMIT 1`,
    [clientId],
  );
  const deepAlert = alertRow ? encodeCursor({ at: alertRow.createdAt, id: alertRow.id }) : "";
  const busyDeep = await cursorAt(20, BUSY_USER);
  const day = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);

  const server = process.env.PAGES_BASE_URL ? null : startServer();
  try {
    await waitUp();
    const cookie = await signIn();
    const targets: string[] = [
      "/dashboard",
      "/dashboard-api/overview",
      "/dashboard/cases",
      "/dashboard-api/cases?status=&assignee=&limit=50",
      `/dashboard/cases/${someCase!.id}`,
      "/dashboard/alerts",
      "/dashboard-api/alerts?status=open",
      `/dashboard-api/alerts?status=open&cursor=${deepAlert}`,
      "/dashboard/transactions",
      "/dashboard-api/transactions",
      "/dashboard/transactions?riskLevel=n%2Fa&status=DECLINED",
      `/dashboard-api/transactions?cursor=${deep}`,
      "/dashboard-api/transactions?riskLevel=very_high",
      "/dashboard-api/transactions?status=CHARGEBACK",
      "/dashboard-api/transactions?riskLevel=n%2Fa&status=DECLINED",
      `/dashboard-api/transactions?riskLevel=very_high&status=DECLINED&from=${day}&to=${day}`,
      `/dashboard-api/transactions?riskLevel=high&cursor=${deep}`,
      `/dashboard-api/transactions?from=${day}&to=${day}`,
      "/dashboard-api/transactions?userId=user-42",
      "/dashboard/transactions/bench-live-4",
      "/dashboard/transactions/tx-123450",
      "/dashboard/users",
      "/dashboard-api/users",
      "/dashboard/users/user-7",
      `/dashboard/users/${BUSY_USER}`,
      `/dashboard-api/transactions?userId=${BUSY_USER}`,
      `/dashboard-api/transactions?userId=${BUSY_USER}&riskLevel=n%2Fa`,
      `/dashboard-api/transactions?userId=${BUSY_USER}&riskLevel=n%2Fa&status=DECLINED`,
      `/dashboard-api/transactions?userId=${BUSY_USER}&cursor=${busyDeep}`,
      `/dashboard-api/users/${BUSY_USER}/network?depth=1`,
      "/dashboard/rules",
      "/dashboard/rules/TX-LARGE-AMOUNT",
      "/dashboard/reports",
      ...(someReport ? [`/dashboard/reports/${someReport.id}`] : []),
      "/dashboard/lists",
      "/dashboard-api/lists",
      ...(someList ? [`/dashboard/lists/${someList.id}`] : []),
      "/dashboard/webhooks",
      "/dashboard-api/webhooks",
      "/dashboard-api/webhooks/deliveries?limit=50",
      "/dashboard/api-keys",
      "/dashboard-api/api-keys",
      "/dashboard/settings",
      "/dashboard-api/settings",
      "/dashboard/team",
      "/dashboard-api/team",
      "/dashboard/audit",
      "/dashboard-api/audit",
    ].filter((u) => !process.env.PAGES_ONLY || u.includes(process.env.PAGES_ONLY));

    const rows: { url: string; p50: number; p95: number; max: number }[] = [];
    for (const url of targets) {
      for (let i = 0; i < WARMUP; i++) await timeOne(url, cookie);
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await timeOne(url, cookie));
      samples.sort((a, b) => a - b);
      const row = { url, p50: pct(samples, 50), p95: pct(samples, 95), max: samples.at(-1)! };
      rows.push(row);
      log(
        `${url.padEnd(52)} p50 ${row.p50.toFixed(0).padStart(5)} ms  p95 ${row.p95.toFixed(0).padStart(5)} ms  max ${row.max.toFixed(0).padStart(5)} ms`,
      );
    }
    console.log("\n| URL | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|");
    for (const r of rows)
      console.log(`| \`${r.url}\` | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} |`);
    const slow = rows.filter((r) => r.p95 > 300);
    log(slow.length ? `p95 over 300 ms: ${slow.map((r) => r.url).join(", ")}` : "every p95 within 300 ms");
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
