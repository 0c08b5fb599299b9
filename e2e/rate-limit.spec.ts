import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";

// The per-key rate limit holds across the server processes of `npm start` (WEB_CONCURRENCY=2): the
// cluster primary holds one token bucket per key for every worker. RATE_LIMIT_PER_SECOND=1 gives a
// burst of 2; a burst of 40 concurrent requests (40 connections, handed to both workers by the primary)
// gets at most the burst plus what one bucket refills while they run, not twice that.

const PORT = Number(process.env.E2E_RATE_PORT ?? "3191");
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `rss_rate_${randomBytes(4).toString("hex")}`;
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

let server: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin(`CREATE DATABASE "${DB_NAME}"`);
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL },
    stdio: "pipe",
  });
});

test.afterAll(async () => {
  const child = server;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
  }
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
});

test("a burst over the limit is bounded by one bucket across two server processes", async () => {
  test.setTimeout(150_000);
  const { apiKey } = JSON.parse(
    execFileSync(
      "npx",
      ["tsx", "lib/cli/main.ts", "client", "create", "--name", "Rate", "--type", "consumer"],
      {
        env: { ...process.env, DATABASE_URL },
        encoding: "utf8",
      },
    ),
  ) as { apiKey: string };

  server = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/start.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      WEB_CONCURRENCY: "2",
      DATABASE_URL,
      NEXTAUTH_URL: BASE,
      NEXTAUTH_SECRET: "rate-nextauth-secret-0123456789",
      WEBHOOK_SECRET_KEY: "rate-webhook-secret-key-0123456789",
      RATE_LIMIT_PER_SECOND: "1",
      JOB_DRIVER: "off",
    },
    detached: true,
    stdio: ["ignore", "ignore", "ignore"],
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${BASE}/v1/openapi.json`, { signal: AbortSignal.timeout(2000) })).status;
        } catch {
          return 0;
        }
      },
      { timeout: 90_000, intervals: [200] },
    )
    .toBe(200);

  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: 40 }, () =>
      fetch(`${BASE}/v1/rules`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> })),
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  console.log(`rate limit: ${ok.length} of 40 accepted in ${seconds.toFixed(2)} s`);
  expect(ok.length + limited.length).toBe(40);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  // One bucket: the burst (2) plus one token a second while the requests ran. Two buckets would allow 4 at once.
  expect(ok.length).toBeLessThanOrEqual(2 + Math.floor(seconds));
  for (const a of limited)
    expect(a.body).toMatchObject({ error: { type: "RATE_LIMITED", message: expect.any(String) } });
});
