// `npm run dev` as a new user runs it: a fresh data folder (the embedded database, one session behind
// every connection), the printed key, the README's request, then 200 screenings of every kind sent
// several at a time, and the job driver delivering signed webhooks; then a restart on the same folder
// and all of it again. Statement names prepared by one connection (the seed, the job driver, the
// request path) used to collide on that shared session and fail every screening from then on.
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "rss-dev-"));
const SECRET = "dev-embedded-webhook-secret";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type TDev = { child: ChildProcess; key: string; base: string; output: () => string };

/** `npm run dev` on the test's data folder, answered once it printed its key and Next is ready. */
async function startDev(port: number): Promise<TDev> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), EMBEDDED_DATA_DIR: dataDir };
  // what the integration setup gives this process: the new user has none of it
  for (const name of [
    "DATABASE_URL",
    "NODE_ENV",
    "NEXTAUTH_SECRET",
    "WEBHOOK_SECRET_KEY",
    "APP_URL",
    "NEXTAUTH_URL",
  ])
    delete env[name];
  env.NEXT_TELEMETRY_DISABLED = "1";
  const child = spawn("npm", ["run", "dev"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
  const started = await new Promise<boolean>((resolve) => {
    const timer = setInterval(() => {
      if (/API key:\s+rsk_\S+/.test(out) && /Ready in/.test(out)) {
        clearInterval(timer);
        resolve(true);
      }
    }, 200);
    child.on("exit", () => {
      clearInterval(timer);
      resolve(false);
    });
  });
  if (!started) throw new Error(`npm run dev did not start:\n${out}`);
  return {
    child,
    key: /API key:\s+(rsk_\S+)/.exec(out)![1]!,
    base: `http://localhost:${port}`,
    output: () => out,
  };
}

async function stopDev(dev: TDev): Promise<void> {
  if (dev.child.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.child.on("exit", resolve));
  process.kill(-dev.child.pid!, "SIGINT");
  await exited;
}

type TReceived = { event: string; payload: Record<string, unknown>; verified: boolean };
const received: TReceived[] = [];

/** The subscriber's side: the signature checked as the interface tells receivers to. */
function verify(header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.split("=") as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac("sha256", SECRET).update(`${parts.t}.${body}`, "utf8").digest();
  const actual = Buffer.from(parts.v1, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    const parsed = JSON.parse(body) as { event: string; payload: Record<string, unknown> };
    received.push({ ...parsed, verified: verify(req.headers["x-service-signature"] as string, body) });
    res.writeHead(200).end();
  });
});

let dev: TDev | null = null;
let receiverUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
});

afterAll(async () => {
  if (dev) await stopDev(dev);
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(d: TDev, method: string, route: string, body: unknown) {
  const res = await fetch(`${d.base}${route}`, {
    method,
    headers: { authorization: `Bearer ${d.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { route, status: res.status, body: await res.text() };
}

/** `work` run `concurrency` at a time, answers in order. */
async function several<T>(items: T[], concurrency: number, work: (item: T) => Promise<unknown>) {
  const answers: unknown[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < items.length; i = next++) answers[i] = await work(items[i]!);
    }),
  );
  return answers as Array<Awaited<ReturnType<typeof call>>>;
}

/** The README's request six at a time, then 200 screenings of five kinds; the transactions screened. */
async function round(d: TDev, run: string): Promise<string[]> {
  const now = Date.now();
  const readme = (i: number) => ({
    id: `t-${run}-${i}`,
    userId: "u-1",
    status: "PENDING",
    currencyCode: "USD",
    amount: 25,
    timestamp: now,
  });
  const first = await several([0, 1, 2, 3, 4, 5], 6, (i) => call(d, "POST", "/v1/transaction", readme(i)));
  expect(first.filter((a) => a.status !== 200)).toEqual([]);

  const transactions = Array.from({ length: 40 }, (_, i) => ({
    id: `tx-${run}-${i}`,
    userId: `u-${run}-${i % 8}`,
    status: "PENDING",
    currencyCode: ["USD", "EUR", "GBP"][i % 3],
    amount: 10 + i * 37,
    timestamp: now - i * 1000,
    paymentMethod: "card",
    card: { cardFingerprint: `fp-${run}-${i % 5}` },
  }));
  const others: Array<[string, string, unknown]> = [];
  for (let i = 0; i < 40; i++) {
    others.push(
      [
        "POST",
        "/v1/user/onboard",
        {
          id: `on-${run}-${i}`,
          firstName: `Ana${i}`,
          lastName: "Example",
          email: { email: `on-${run}-${i}@mail.test` },
          timestamp: now,
        },
      ],
      [
        "POST",
        "/v1/event",
        { id: `ev-${run}-${i}`, type: i % 2 ? "login" : "password_reset", userId: `u-${run}-${i % 8}` },
      ],
      [
        "PUT",
        "/v1/paymentInstrument",
        {
          status: i % 5 ? "linked" : "unlinked",
          paymentInstrument: {
            id: `pi-${run}-${i}`,
            userId: `u-${run}-${i % 8}`,
            card: { fingerprint: `fp-${run}-${i % 5}` },
          },
        },
      ],
      [
        "POST",
        "/v1/transaction/update",
        { transactionId: `tx-${run}-${i}`, status: i % 2 ? "APPROVED" : "DECLINED" },
      ],
    );
  }
  const screened = await several(transactions, 6, (t) => call(d, "POST", "/v1/transaction", t));
  const rest = await several(others, 6, ([method, route, body]) => call(d, method, route, body));
  const answers = [...screened, ...rest];
  expect(answers).toHaveLength(200);
  expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  for (const route of [
    "/v1/transaction",
    "/v1/user/onboard",
    "/v1/event",
    "/v1/paymentInstrument",
    "/v1/transaction/update",
  ])
    expect(answers.filter((a) => a.route === route)).toHaveLength(40);
  expect(d.output()).not.toMatch(/prepared statement/);
  return [...first.map((_, i) => `t-${run}-${i}`), ...transactions.map((t) => t.id)];
}

/** Every screened transaction's webhook arrives, signed with the subscription's secret. */
async function deliveredFor(ids: string[]) {
  await expect
    .poll(
      () => {
        const seen = new Set(
          received.filter((r) => r.event === "transaction.screened").map((r) => r.payload.id),
        );
        return ids.filter((id) => !seen.has(id));
      },
      { timeout: 90_000, interval: 500 },
    )
    .toEqual([]);
  expect(received.filter((r) => !r.verified)).toEqual([]);
}

describe("npm run dev on a fresh data folder", () => {
  it(
    "screens every kind several at a time and delivers webhooks, before and after a restart",
    { timeout: 300_000 },
    async () => {
      const port = await freePort();
      dev = await startDev(port);
      const key = dev.key;
      // every demo login, the second officer (four-eyes filing) too
      for (const email of [
        "admin@demo.test",
        "reviewer@demo.test",
        "officer@demo.test",
        "officer2@demo.test",
      ])
        expect(dev.output()).toContain(email);
      const subscribed = await call(dev, "POST", "/v1/webhooks", {
        url: receiverUrl,
        events: ["transaction.screened"],
        secret: SECRET,
      });
      expect(subscribed.status).toBe(200);

      await deliveredFor(await round(dev, "a"));

      await stopDev(dev);
      dev = await startDev(port);
      expect(dev.key).toBe(key);
      await deliveredFor(await round(dev, "b"));
    },
  );
});
