import { test, expect } from "@playwright/test";
import pg from "pg";
import { startReceiver, waitFor, type TReceiver } from "../tests/support/webhook-receiver";
import {
  createScreeningClient,
  createTestDatabase,
  expectStoredAndDelivered,
  npmStart,
  screeningLoad,
  serverEnvironment,
  sleep,
  subscribeWebhooks,
  type TServer,
} from "./server-harness";

// Graceful shutdown of `npm start` (two server processes): SIGTERM under 16 connections of
// screening load with a webhook subscription whose receiver answers slowly, so that deliveries are
// in flight. Readiness answers 503 at once while requests are still served (SHUTDOWN_DELAY_MS),
// every answer is a correct 200, the processes exit by themselves, nothing answered is lost and no
// delivery reaches the receiver twice; started again, the service serves within seconds.

const PORT = Number(process.env.E2E_SHUTDOWN_PORT ?? "3172");
const SECRET = "whsec_shutdown-spec";
const METRICS_TOKEN = "metrics-token-0123456789";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let server: TServer;
let receiver: TReceiver;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createTestDatabase("rss_shutdown");
  server = npmStart(
    serverEnvironment(PORT, database.url, {
      SHUTDOWN_DELAY_MS: "4000",
      SHUTDOWN_GRACE_MS: "20000",
      METRICS_TOKEN: METRICS_TOKEN,
    }),
    { capture: true },
  );
  receiver = await startReceiver(SECRET, () => sleep(150).then(() => 200));
});

test.afterAll(async () => {
  await server?.stop("SIGKILL");
  await receiver?.close();
  await database?.drop();
});

test("SIGTERM under load drains: readiness 503, every answer correct, nothing lost or delivered twice", async () => {
  test.setTimeout(240_000);
  const { clientId, apiKey } = createScreeningClient(database.url, "Shutdown");
  await server.start();
  expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
  await subscribeWebhooks(server.base, apiKey, receiver, SECRET);

  const load = screeningLoad(server.base, apiKey, 16, { prefix: "term" });
  await waitFor(() => load.answered.size >= 20, 60_000, "screenings served before the stop");
  const before = load.answered.size;

  // /metrics counts the whole instance (both processes), whichever process answers the scrape.
  expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
  const scrape = await fetch(`${server.base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(scrape.status).toBe(200);
  const metrics = await scrape.text();
  const screened = Number(
    /^http_requests_total\{route="\/v1\/transaction",method="POST",status="200"\} (\d+)/m.exec(metrics)?.[1],
  );
  expect(screened, "screenings answered by both processes").toBeGreaterThanOrEqual(before);
  expect(metrics).toMatch(/^screenings_total\{subject="transaction",risk_level="\w+",action="\w+"\} \d+/m);
  expect(metrics).toMatch(/^db_pool_connections\{pool="requests",state="in_use"\} \d+/m);
  expect(metrics).toMatch(/^job_run_start_delay_seconds_count \d+/m);

  // Readiness as a load balancer polls it, from the moment of the signal.
  const readiness: string[] = [];
  let polling = true;
  const poll = (async () => {
    while (polling) {
      try {
        const res = await fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(2000) });
        const body = (await res.json()) as { checks: { shutdown: string } };
        readiness.push(`${res.status} ${body.checks.shutdown}`);
      } catch {
        readiness.push("no answer");
      }
      await sleep(50);
    }
  })();
  const exitCode = await server.stop("SIGTERM");
  polling = false;
  await poll;
  const answeredByStop = load.answered.size;

  expect(exitCode, "npm start exits by itself, successfully").toBe(0);
  expect(readiness, "readiness turned 503 while the server still answered").toContain("503 draining");
  expect(readiness.slice(0, readiness.indexOf("503 draining")).every((r) => r.startsWith("200"))).toBe(true);
  expect(answeredByStop, "screenings were answered during the drain").toBeGreaterThan(before);
  const log = server.output();
  expect(log.match(/"message":"shut down"/g)?.length, "both server processes shut down").toBe(2);
  expect(log, "no job run had to be handed back").not.toMatch(/"jobRunsHandedBack":[1-9]/);

  await server.start();
  await sleep(2000);
  await load.stop();
  expect(load.refused, "every answer is a 200").toEqual([]);
  expect(load.answered.size, "served again after the restart").toBeGreaterThan(answeredByStop);

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const stored = await db.query<{ id: string }>(`SELECT id FROM transactions WHERE "clientId" = $1`, [
    clientId,
  ]);
  await db.end();
  // Stored without an answer: the request was cut on the client's side (its timeout), never by the stop.
  const storedUnanswered = stored.rows
    .filter((r) => !load.answered.has(r.id))
    .map((r) => `${r.id}: ${load.unanswered.get(r.id) ?? "?"}`);
  expect(storedUnanswered.filter((r) => !r.endsWith("TimeoutError"))).toEqual([]);

  const result = await expectStoredAndDelivered(database.url, clientId, load.answered, receiver);
  expect(result.repeats, "deliveries that reached the receiver twice").toEqual([]);
  console.log(
    `shutdown: ${load.answered.size} screenings answered 200 (${answeredByStop - before} during the drain, ` +
      `${load.cut()} refused while stopped), ${result.stored} stored, ${result.deliveries} deliveries received once each`,
  );
});
