// The harness of the operations tests (crash, shutdown, database outage): a database of their own,
// `npm start` in its own process group, an API client with one rule, a steady screening load, and
// the final check that every answered screening is stored with its decision and every webhook due
// reached the receiver.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import pg from "pg";
import type { TReceiver } from "../tests/support/webhook-receiver";

export const DEFAULT_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database on the server of `adminUrl`; its URL and how to drop it. */
export async function createTestDatabase(
  prefix: string,
  adminUrl = DEFAULT_ADMIN_URL,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    stdio: "pipe",
  });
  return {
    url: url.toString(),
    drop: () =>
      admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/** The environment of `npm start` for these tests (production build, webhooks to the local receiver). */
export function serverEnvironment(port: number, databaseUrl: string, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    WEB_CONCURRENCY: "2",
    DATABASE_URL: databaseUrl,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NEXTAUTH_SECRET: "ops-nextauth-secret-0123456789",
    WEBHOOK_SECRET_KEY: "ops-webhook-secret-key-0123456789",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // Attempts cut short are retried; plenty of quick retries keep the wait short.
    WEBHOOK_RETRY_DELAYS_MS: "200,200,500,500,1000,1000,2000,2000,5000,5000",
    ...extra,
  } as NodeJS.ProcessEnv;
}

export type TServer = {
  base: string;
  /** `npm start` (scripts/start.ts) in its own process group; resolves once it answers. */
  start: () => Promise<void>;
  /** Sends the signal to the whole group (SIGKILL) or to the launcher (SIGTERM), and waits for the exit. */
  stop: (signal: "SIGKILL" | "SIGTERM") => Promise<number | null>;
  running: () => boolean;
  /** What the server printed (stdout and stderr), when started with `capture`. */
  output: () => string;
};

export function npmStart(env: NodeJS.ProcessEnv, { capture = false } = {}): TServer {
  const base = `http://127.0.0.1:${env.PORT}`;
  let child: ChildProcess | null = null;
  let printed = "";
  return {
    base,
    output: () => printed,
    running: () => child !== null && child.exitCode === null && child.signalCode === null,
    start: async () => {
      const started = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
        env,
        detached: true,
        stdio: ["ignore", capture ? "pipe" : "ignore", capture ? "pipe" : "ignore"],
      });
      started.stdout?.on("data", (d: Buffer) => (printed += d.toString()));
      started.stderr?.on("data", (d: Buffer) => (printed += d.toString()));
      child = started;
      const deadline = Date.now() + 120_000;
      for (;;) {
        try {
          const res = await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(2000) });
          if (res.ok) return;
        } catch {
          // not up yet
        }
        if (started.exitCode !== null) throw new Error(`npm start exited ${started.exitCode}:\n${printed}`);
        if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${printed}`);
        await sleep(100);
      }
    },
    stop: async (signal) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return c?.exitCode ?? null;
      const exited = new Promise<number | null>((resolve) => c.once("exit", (code) => resolve(code)));
      if (signal === "SIGKILL") process.kill(-c.pid!, "SIGKILL");
      else c.kill(signal);
      const code = await exited;
      child = null;
      return code;
    },
  };
}

/** The operator CLI on a database, as an operator would run it (`cwd`: the release's folder, default this one). */
export function operatorCli(databaseUrl: string, cwd?: string) {
  return (...args: string[]) =>
    JSON.parse(
      execFileSync("npx", ["tsx", "lib/cli/main.ts", ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: "utf8",
        cwd,
      }),
    ) as Record<string, unknown>;
}

/** A consumer client with one active rule (amount over 1000: high, REVIEW). */
export function createScreeningClient(
  databaseUrl: string,
  name: string,
  cwd?: string,
): { clientId: string; apiKey: string } {
  const cli = operatorCli(databaseUrl, cwd);
  const { clientId, apiKey } = cli("client", "create", "--name", name, "--type", "consumer") as {
    clientId: string;
    apiKey: string;
  };
  const rulesFile = path.join(mkdtempSync(path.join(tmpdir(), "ops-")), "rules.json");
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
  return { clientId, apiKey };
}

export async function subscribeWebhooks(base: string, apiKey: string, receiver: TReceiver, secret: string) {
  const res = await fetch(`${base}/v1/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ url: receiver.url, events: ["transaction.screened", "alert.created"], secret }),
  });
  expect(res.status).toBe(200);
}

export type TLoad = {
  /** Transaction id → the riskLevel of its 200 answer. */
  answered: Map<string, string>;
  /** Answers other than 200 that `acceptable` did not allow (each `id: status body`). */
  refused: string[];
  /** Answers other than 200 that `acceptable` allowed, by status. */
  declined: Map<number, number>;
  /** Requests without an answer (connection refused or cut). */
  cut: () => number;
  /** Transaction id → why its request got no answer. */
  unanswered: Map<string, string>;
  stop: () => Promise<void>;
};

/**
 * `loops` concurrent loops, each screening a new transaction per request until stopped. A request
 * that got no answer is an unknown outcome; `acceptable` says which non-200 answers are expected
 * (and checks their body).
 */
export function screeningLoad(
  base: string,
  apiKey: string,
  loops: number,
  {
    prefix = "load",
    acceptable = () => false,
  }: {
    prefix?: string;
    acceptable?: (status: number, body: unknown, headers: Headers) => boolean;
  } = {},
): TLoad {
  const answered = new Map<string, string>();
  const refused: string[] = [];
  const declined = new Map<number, number>();
  const unanswered = new Map<string, string>();
  let cut = 0;
  let running = true;
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  const all = Array.from({ length: loops }, async (_, w) => {
    for (let n = 0; running; n++) {
      const id = `${prefix}-${w}-${n}`;
      try {
        const res = await fetch(`${base}/v1/transaction`, {
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
        else if (acceptable(res.status, body, res.headers)) {
          declined.set(res.status, (declined.get(res.status) ?? 0) + 1);
          await sleep(50);
        } else refused.push(`${id}: ${res.status} ${JSON.stringify(body)}`);
      } catch (err) {
        cut++;
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        unanswered.set(id, cause?.code ?? cause?.message ?? (err as Error).name);
        await sleep(50);
      }
    }
  });
  return {
    answered,
    unanswered,
    refused,
    declined,
    cut: () => cut,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}

/**
 * Every 200 is stored with the decision it answered, no transaction is stored without one, every
 * stored transaction has its delivery, and every delivery reaches the receiver (verified). Returns
 * the delivery ids the receiver got more than once.
 */
export async function expectStoredAndDelivered(
  databaseUrl: string,
  clientId: string,
  answered: Map<string, string>,
  receiver: TReceiver,
  deliveryTimeoutMs = 90_000,
): Promise<{ stored: number; deliveries: number; repeats: string[] }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const stored = await db.query<{ id: string; riskLevel: string | null }>(
      `SELECT t.id, d."riskLevel" FROM transactions t LEFT JOIN decisions d ON d.id = t."decisionId" WHERE t."clientId" = $1`,
      [clientId],
    );
    const byId = new Map(stored.rows.map((r) => [r.id, r.riskLevel]));
    const lost = [...answered].filter(([id, level]) => byId.get(id) !== level);
    expect(lost, "answered 200 but not stored with that decision").toEqual([]);
    expect(stored.rows.filter((r) => r.riskLevel === null).map((r) => r.id)).toEqual([]);
    const undelivered = await db.query(
      `SELECT t.id FROM transactions t WHERE t."clientId" = $1 AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries w WHERE w."clientId" = t."clientId" AND w."eventType" = 'transaction.screened'
         AND (w.body::jsonb -> 'payload' ->> 'id') = t.id)`,
      [clientId],
    );
    expect(undelivered.rows, "stored transactions without a delivery").toEqual([]);

    const deadline = Date.now() + deliveryTimeoutMs;
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
    const deliveries = await db.query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE "clientId" = $1`,
      [clientId],
    );
    const got = new Map<string, number>();
    for (const r of receiver.received)
      if (r.verified && r.answered === 200) got.set(r.deliveryId, (got.get(r.deliveryId) ?? 0) + 1);
    expect(
      deliveries.rows.filter((d) => !got.has(d.id)).map((d) => d.id),
      "delivered but not received",
    ).toEqual([]);
    const repeats = [...got].filter(([, n]) => n > 1).map(([id]) => id);
    return { stored: stored.rowCount ?? 0, deliveries: deliveries.rowCount ?? 0, repeats };
  } finally {
    await db.end();
  }
}
