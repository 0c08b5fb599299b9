import http from "node:http";
import { expect, test } from "@playwright/test";
import { startLocalCluster, type TLocalCluster } from "../scripts/cluster-local";
import { startReceiver, type TReceiver } from "../tests/support/webhook-receiver";
import {
  createScreeningClient,
  createTestDatabase,
  expectStoredAndDelivered,
  operatorCli,
  screeningLoad,
  serverEnvironment,
  sleep,
  subscribeWebhooks,
} from "./server-harness";

// Two instances of `npm start` on one PostgreSQL, through PgBouncer (session pooling), behind HAProxy,
// as `npm run cluster:local` starts them (scripts/cluster-local.ts; Debian's haproxy and pgbouncer
// must be installed). Run by `npm run test:ops` only (E2E_CLUSTER=1), not by the default run: it
// starts two production servers. One server process per instance (WEB_CONCURRENCY=1) to stay light.

const PORT = Number(process.env.E2E_CLUSTER_PORT ?? "3316");
const INSTANCE_PORTS: [number, number] = [PORT + 1, PORT + 2];
const PGBOUNCER_PORT = Number(process.env.E2E_CLUSTER_PGBOUNCER_PORT ?? "6436");
const SECRET = "whsec_cluster-spec";
const METRICS_TOKEN = "cluster-metrics-token-0123456789";
const ADMIN = { email: "cluster-admin@example.com", password: "cluster-admin-password-1" };
// per key and instance: 10 a second, a burst of 20 (docs/operations.md)
const RATE = 10;
const BURST = 2 * RATE;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let cluster: TLocalCluster;
let receiver: TReceiver;
let clientId: string;
let apiKey: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  database = await createTestDatabase("rss_cluster");
  ({ clientId, apiKey } = createScreeningClient(database.url, "Cluster"));
  operatorCli(database.url)(
    "user",
    "create",
    "--client",
    clientId,
    "--email",
    ADMIN.email,
    "--password",
    ADMIN.password,
    "--role",
    "admin",
  );
  receiver = await startReceiver(SECRET);
  cluster = await startLocalCluster({
    databaseUrl: database.url,
    port: PORT,
    instancePorts: INSTANCE_PORTS,
    pgbouncerPort: PGBOUNCER_PORT,
    env: serverEnvironment(PORT, database.url, {
      WEB_CONCURRENCY: "1",
      DATABASE_POOL_SIZE: "5",
      JOB_DRIVER_POOL_SIZE: "2",
      RATE_LIMIT_PER_SECOND: String(RATE),
      METRICS_TOKEN,
    }),
    output: "ignore",
  });
  // every screening of this client has its transaction.screened delivery, to check at the end
  await subscribeWebhooks(cluster.base, apiKey, receiver, SECRET);
});

test.afterAll(async () => {
  await cluster?.stop();
  await receiver?.close();
  await database?.drop();
});

/**
 * One request on a connection of its own: a kept-alive connection idle for a few seconds (an operator
 * command in between) may be closed by the server just as it is reused, which says nothing about
 * the cluster.
 */
function request(
  url: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, connection: "close" }, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const metricsOf = async (base: string) =>
  (await request(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;

async function screen(base: string, key: string, id: string, amount: number) {
  const res = await request(`${base}/v1/transaction`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({
      id,
      userId: "cluster-user",
      status: "APPROVED",
      currencyCode: "USD",
      amount,
      timestamp: Date.now(),
    }),
  });
  return {
    status: res.status,
    body: JSON.parse(res.text) as { riskLevel?: string; recommendedAction?: string },
  };
}

/** `count` requests of one key, `concurrency` at a time: admitted (400: the empty body) and refused (429). */
async function burst(base: string, key: string, count: number, concurrency: number) {
  const started = Date.now();
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const res = await request(`${base}/v1/transaction`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: "{}",
        });
        statuses.push(res.status);
        if (res.status === 429) retryAfter = String(res.headers["retry-after"]);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const admitted = statuses.filter((s) => s === 400).length;
  const refused = statuses.filter((s) => s === 429).length;
  expect(admitted + refused, `only 400 and 429: ${statuses.join(",")}`).toBe(count);
  return { admitted, refused, seconds, retryAfter };
}

test("a rule change on one instance is used by the next screening on the other", async ({ page }) => {
  const [app1, app2] = cluster.instances;
  // both instances have screened with the rule (their caches hold it)
  expect((await screen(app1.base, apiKey, "rule-0", 5000)).body.riskLevel).toBe("high");
  expect((await screen(app2.base, apiKey, "rule-1", 5000)).body.riskLevel).toBe("high");

  // an admin switches the rule off on app1 (dashboard, signed in through HAProxy)
  await page.goto(`${cluster.base}/login`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const switchRule = (base: string, status: string) =>
    page.request.post(`${base}/dashboard-api/rules/BIG/status`, {
      headers: { origin: base },
      data: { status },
    });
  expect((await switchRule(app1.base, "inactive")).status()).toBe(200);
  const off = await screen(app2.base, apiKey, "rule-2", 5000);
  expect(off).toEqual({
    status: 200,
    body: expect.objectContaining({ riskLevel: "n/a", recommendedAction: "ALLOW" }),
  });

  // and on again on app2: app1's next screening uses it
  expect((await switchRule(app2.base, "active")).status()).toBe(200);
  const on = await screen(app1.base, apiKey, "rule-3", 5000);
  expect(on).toEqual({
    status: 200,
    body: expect.objectContaining({ riskLevel: "high", recommendedAction: "REVIEW" }),
  });
});

test("a revoked key is refused on the next request at either instance", async () => {
  const cli = operatorCli(database.url);
  const { apiKey: key } = cli("apikey", "create", "--client", clientId) as { apiKey: string };
  for (const app of cluster.instances)
    expect((await screen(app.base, key, `key-${app.name}`, 5)).status).toBe(200);
  expect(cli("apikey", "revoke", "--key", key)).toEqual({ revoked: true });
  for (const app of cluster.instances) {
    const refused = await screen(app.base, key, `key-${app.name}-after`, 5);
    expect(refused.status, `${app.name} refuses the revoked key`).toBe(401);
  }
});

test("the rate limit holds per key on each instance (as documented), so N instances admit at most N times it", async () => {
  const cli = operatorCli(database.url);
  for (const app of cluster.instances) {
    const { apiKey: key } = cli("apikey", "create", "--client", clientId) as { apiKey: string };
    const r = await burst(app.base, key, 4 * BURST, 8);
    expect(r.refused, `${app.name} refuses beyond the burst`).toBeGreaterThan(0);
    expect(r.retryAfter).toMatch(/^\d+$/);
    expect(r.admitted).toBeGreaterThanOrEqual(BURST);
    expect(r.admitted).toBeLessThanOrEqual(BURST + Math.ceil(RATE * r.seconds) + 1);
  }
  // through HAProxy (round robin): each instance admits its own burst, never more than its share
  const { apiKey: key } = cli("apikey", "create", "--client", clientId) as { apiKey: string };
  const r = await burst(cluster.base, key, 8 * BURST, 8);
  expect(r.refused).toBeGreaterThan(0);
  expect(r.admitted).toBeGreaterThanOrEqual(2 * BURST);
  expect(r.admitted).toBeLessThanOrEqual(2 * (BURST + Math.ceil(RATE * r.seconds) + 1));
});

test("kill -9 of one instance under load loses nothing acknowledged; the other delivers the webhooks", async () => {
  test.setTimeout(300_000);
  const [app1, app2] = cluster.instances;
  // the load goes through HAProxy; 429 (the per-instance limit) and 502/503 (the instance killed
  // mid-request) are answers that acknowledge nothing
  const load = screeningLoad(cluster.base, apiKey, 4, {
    prefix: "kill",
    acceptable: (status) => status === 429 || status === 502 || status === 503,
  });
  const deadline = Date.now() + 60_000;
  while (load.answered.size < 30 && Date.now() < deadline) await sleep(200);
  expect(load.answered.size, "screenings answered before the kill").toBeGreaterThanOrEqual(30);

  // both instances were serving the load (round robin), so app1 dies with work under way
  for (const app of cluster.instances) {
    const text = await metricsOf(app.base);
    const count = /^http_requests_total\{route="\/v1\/transaction",method="POST",status="200"\} (\d+)/m.exec(
      text,
    );
    expect(Number(count?.[1] ?? 0), `${app.name} served screenings`).toBeGreaterThan(0);
  }
  await app1.stop("SIGKILL");
  const killedAt = Date.now();
  const atKill = load.answered.size;
  while (load.answered.size < atKill + 30 && Date.now() < killedAt + 60_000) await sleep(200);
  await load.stop();
  expect(load.refused, "every answer is a 200, a 429 or the dead instance's 502/503").toEqual([]);
  expect(load.answered.size, "app2 kept answering after the kill").toBeGreaterThanOrEqual(atKill + 30);

  // Runs app1 held resume on app2 when their lease expires (30 s): at least once, so repeats are allowed.
  const result = await expectStoredAndDelivered(database.url, clientId, load.answered, receiver, 120_000);
  const afterKill = receiver.received.filter((r) => r.verified && r.at > killedAt).length;
  expect(afterKill, "deliveries received (signature verified) after app1 died").toBeGreaterThan(0);

  // app2's metrics: every series of the operations list is there, and the backlog is empty
  const metrics = await metricsOf(app2.base);
  for (const series of [
    /^http_request_duration_seconds_count\{route="\/v1\/transaction",method="POST",status="200"\} \d+/m,
    /^screenings_total\{subject="transaction",risk_level="high",action="REVIEW"\} \d+/m,
    /^rule_hits_total\{rule="BIG"\} \d+/m,
    /^screening_aggregate_read_seconds_count \d+/m,
    /^webhook_delivery_attempts_total\{outcome="delivered"\} \d+/m,
    /^webhook_delivery_latency_seconds_count [1-9]\d*/m,
    /^webhook_deliveries_pending 0$/m,
    /^job_run_start_delay_seconds_count \d+/m,
    /^job_runs\{state="leased"\} \d+/m,
    /^job_driver_runs_in_flight \d+/m,
    /^db_pool_connections\{pool="requests",state="waiting"\} \d+/m,
    /^cases_opened_total [1-9]\d*/m,
    /^cases_overdue \d+/m,
    /^dashboard_sign_in_failures_total\{locked="false"\} \d+/m,
  ])
    expect(metrics).toMatch(series);
  console.log(
    `cluster: ${load.answered.size} screenings answered (${atKill} before the kill), ${load.cut()} cut, ` +
      `declined ${JSON.stringify([...load.declined])}; ${result.stored} stored, ${result.deliveries} deliveries ` +
      `(${afterKill} received after the kill, ${result.repeats.length} repeated)`,
  );
  expect(app2.running()).toBe(true);
});
