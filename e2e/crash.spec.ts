import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startReceiver, type TReceiver } from "../tests/support/webhook-receiver";

// Crash safety of the built server (`npm start` with two server processes, WEB_CONCURRENCY=2, each
// running the in-process job driver; CRASH_WEB_CONCURRENCY overrides): under a
// steady load of screenings with a webhook subscription, the whole server process group is
// SIGKILLed at random moments and started again. Afterwards every transaction that got a 200 is
// stored with its decision, no transaction is stored without one, and every webhook due is delivered
// (signed, to the receiver). CRASH_KILLS sets the number of kills (default 3).

const KILLS = Number(process.env.CRASH_KILLS ?? "3");
const PORT = Number(process.env.E2E_CRASH_PORT ?? "3190");
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `rss_crash_${randomBytes(4).toString("hex")}`;
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();
const SECRET = "whsec_crash-spec";
const WORKERS = 4;

const serverEnv: Record<string, string | undefined> = {
  ...process.env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  PORT: String(PORT),
  WEB_CONCURRENCY: process.env.CRASH_WEB_CONCURRENCY ?? "2",
  DATABASE_URL,
  NEXTAUTH_URL: BASE,
  NEXTAUTH_SECRET: "crash-nextauth-secret-0123456789",
  WEBHOOK_SECRET_KEY: "crash-webhook-secret-key-0123456789",
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  // Attempts cut short by a kill are retried; plenty of quick retries keep the wait short.
  WEBHOOK_RETRY_DELAYS_MS: "200,200,500,500,1000,1000,2000,2000,5000,5000",
};

async function admin<T>(fn: (c: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: ChildProcess | null = null;
let receiver: TReceiver;

async function startServer(): Promise<void> {
  // `npm start` (scripts/start.ts) in its own process group, so the kill takes every server process.
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    env: serverEnv as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
  });
  server = child;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${BASE}/v1/openapi.json`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("npm start did not come up");
    await sleep(100);
  }
}

async function killServer(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
  server = null;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin((c) => c.query(`CREATE DATABASE "${DB_NAME}"`));
  const env = { ...process.env, DATABASE_URL };
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env, stdio: "pipe" });
  receiver = await startReceiver(SECRET);
});

test.afterAll(async () => {
  await killServer();
  await receiver?.close();
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
});

test("screenings and webhooks survive SIGKILL of the server under load", async () => {
  test.setTimeout(120_000 + KILLS * 45_000);
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync("npx", ["tsx", "lib/cli/main.ts", ...args], {
        env: { ...process.env, DATABASE_URL },
        encoding: "utf8",
      }),
    ) as Record<string, unknown>;
  const { clientId, apiKey } = cli("client", "create", "--name", "Crash", "--type", "consumer") as {
    clientId: string;
    apiKey: string;
  };
  const rulesFile = path.join(mkdtempSync(path.join(tmpdir(), "crash-")), "rules.json");
  writeFileSync(
    rulesFile,
    JSON.stringify([
      {
        id: "BIG",
        name: "Big",
        subject: "transaction",
        status: "active",
        riskLevel: "high",
        recommendedAction: "REVIEW",
        reason: "big",
        condition: "transaction.amount > 1000",
      },
    ]),
  );
  cli("rules", "import", "--client", clientId, rulesFile);

  await startServer();
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  const sub = await fetch(`${BASE}/v1/webhooks`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      url: receiver.url,
      events: ["transaction.screened", "alert.created"],
      secret: SECRET,
    }),
  });
  expect(sub.status).toBe(200);

  // Steady load: WORKERS loops, each a new transaction per request; a failed request is an unknown outcome.
  const answered = new Map<string, string>();
  let cut = 0;
  const refused: string[] = [];
  let running = true;
  const loops = Array.from({ length: WORKERS }, async (_, w) => {
    for (let n = 0; running; n++) {
      const id = `crash-${w}-${n}`;
      try {
        const res = await fetch(`${BASE}/v1/transaction`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            id,
            userId: `u-${n % 25}`,
            status: "APPROVED",
            currencyCode: "USD",
            amount: (n % 7) * 400,
            timestamp: Date.now() - 1000,
          }),
          signal: AbortSignal.timeout(15_000),
        });
        const body = (await res.json()) as { riskLevel?: string };
        if (res.status === 200) answered.set(id, body.riskLevel!);
        else refused.push(`${id}: ${res.status} ${JSON.stringify(body)}`);
      } catch {
        cut++; // connection refused while down, or cut by the kill
        await sleep(50);
      }
    }
  });

  for (let k = 0; k < KILLS; k++) {
    await sleep(2500 + Math.random() * 4000);
    await killServer();
    await sleep(Math.random() * 500);
    await startServer();
  }
  await sleep(1500);
  running = false;
  await Promise.all(loops);
  expect(refused, "every answer while up is a 200").toEqual([]);

  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    // Every 200 is stored with the decision it answered.
    const stored = await db.query<{ id: string; riskLevel: string | null }>(
      `SELECT t.id, d."riskLevel" FROM transactions t LEFT JOIN decisions d ON d.id = t."decisionId" WHERE t."clientId" = $1`,
      [clientId],
    );
    const byId = new Map(stored.rows.map((r) => [r.id, r.riskLevel]));
    const lost = [...answered].filter(([id, level]) => byId.get(id) !== level);
    expect(lost, "answered 200 but not stored with that decision").toEqual([]);
    // No transaction without its decision.
    expect(stored.rows.filter((r) => r.riskLevel === null).map((r) => r.id)).toEqual([]);
    // Every stored transaction has its transaction.screened delivery.
    const undelivered = await db.query(
      `SELECT t.id FROM transactions t WHERE t."clientId" = $1 AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries w WHERE w."clientId" = t."clientId" AND w."eventType" = 'transaction.screened'
         AND (w.body::jsonb -> 'payload' ->> 'id') = t.id)`,
      [clientId],
    );
    expect(undelivered.rows, "stored transactions without a delivery").toEqual([]);

    // Every delivery due reaches the receiver (runs cut by a kill resume when their lease expires).
    const deadline = Date.now() + 90_000;
    let pending = -1;
    while (Date.now() < deadline) {
      const r = await db.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE "clientId" = $1 AND status <> 'delivered'`,
        [clientId],
      );
      pending = r.rows[0]!.pending;
      if (pending === 0) break;
      await sleep(500);
    }
    expect(pending, "deliveries not delivered").toBe(0);
    const deliveries = await db.query<{ id: string; eventType: string }>(
      `SELECT id, "eventType" FROM webhook_deliveries WHERE "clientId" = $1`,
      [clientId],
    );
    const got = new Set(
      receiver.received.filter((r) => r.verified && r.answered === 200).map((r) => r.deliveryId),
    );
    expect(
      deliveries.rows.filter((d) => !got.has(d.id)).map((d) => d.id),
      "delivered but not received",
    ).toEqual([]);

    console.log(
      `crash: ${KILLS} kills survived; ${answered.size} screenings answered 200 (${cut} cut or refused while down), ` +
        `${stored.rowCount} transactions stored, ${deliveries.rowCount} deliveries checked ` +
        `(${receiver.received.length} received, ${receiver.received.length - got.size} repeats)`,
    );
    expect(answered.size).toBeGreaterThan(KILLS * 5);
  } finally {
    await db.end();
  }
});
