import { expect, test } from "@playwright/test";
import pg from "pg";
import { createApiKeyWithCli, demoClientId, E2E_DATABASE_URL } from "./support";

// The operator's endpoints and the request id, against the built server as `npm start` runs each
// process (scripts/next-server.mjs): probes without a key or a session, X-Request-Id on every answer
// and on the decision it made.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("health and readiness answer without a key, a session or tenant data", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", draining: false });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({
    status: "ready",
    checks: { database: "ok", migrations: "ok", jobDriver: "running", shutdown: "no" },
  });
  // metrics are off unless METRICS_TOKEN is set (this server has none)
  expect((await request.get("/metrics")).status()).toBe(404);
  for (const res of [health, ready]) {
    expect(res.headers()["cache-control"]).toBe("no-store");
    expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers()["set-cookie"]).toBeUndefined();
  }
});

test("X-Request-Id: the caller's when plain and short, a new one otherwise, on every answer and the decision", async ({
  request,
}) => {
  const apiKey = createApiKeyWithCli(await demoClientId());
  const id = `rid-${Date.now()}`;
  const screened = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}`, "x-request-id": "trace-42:abc.DEF_9" },
    data: {
      id,
      userId: "rid-user",
      status: "APPROVED",
      currencyCode: "USD",
      amount: 5,
      timestamp: Date.now(),
    },
  });
  expect(screened.status()).toBe(200);
  expect(screened.headers()["x-request-id"]).toBe("trace-42:abc.DEF_9");

  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ requestId: string | null }>(
      `SELECT d."requestId" FROM transactions t JOIN decisions d ON d.id = t."decisionId" WHERE t.id = $1`,
      [id],
    );
    expect(rows).toEqual([{ requestId: "trace-42:abc.DEF_9" }]);
  } finally {
    await db.end();
  }

  // refused ids (too long, unsafe characters) are replaced, never echoed
  for (const bad of ["x".repeat(129), "a b", "<script>"]) {
    const res = await request.get("/healthz", { headers: { "x-request-id": bad } });
    expect(res.headers()["x-request-id"]).toMatch(UUID);
  }
  // none given: a new one each time, on API errors and pages too
  const unauthorized = await request.get("/v1/transaction/x");
  expect(unauthorized.status()).toBe(401);
  const page = await request.get("/login");
  const ids = [unauthorized, page].map((r) => r.headers()["x-request-id"]);
  for (const rid of ids) expect(rid).toMatch(UUID);
  expect(ids[0]).not.toBe(ids[1]);
});
