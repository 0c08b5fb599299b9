import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TJobDriver } from "@/lib/jobs/driver";
import type { TReceiver } from "@/tests/support/webhook-receiver";

// lib/env parses the environment at import: the short schedule must be in place before any import.
vi.hoisted(() => {
  process.env.WEBHOOK_RETRY_DELAYS_MS = "50,50,50";
  process.env.WEBHOOK_TIMEOUT_MS = "4000";
});

const { POST: serveHandler, GET, PUT } = await import("@/app/api/inngest/route");
const { POST: subscribe } = await import("@/app/v1/webhooks/route");
const { INNGEST_APP_ID } = await import("@/inngest/client");
const { eventsWithoutFunctions, functions, functionVersions } = await import("@/inngest/index");
const { prisma } = await import("@/lib/db");
const { startJobDriver } = await import("@/lib/jobs/driver");
const { describeFunctions } = await import("@/lib/jobs/function-table");
const { servingSigningKey } = await import("@/lib/jobs/signing-key");
const { inProcessRunner } = await import("@/lib/jobs/run-in-process");
const { inngest } = await import("@/inngest/client");
const { emitWebhookEvent } = await import("@/lib/webhooks/emit");
const { redeliverWebhook } = await import("@/lib/webhooks/redeliver-webhook");
const { call, createTestClient, deliverySettled: settled } = await import("@/tests/factories");
const onboardRoute = await import("@/app/v1/user/onboard/route");
const blockRoute = await import("@/app/v1/users/[userId]/block/route");
const { startRouteServer } = await import("@/tests/support/serve-server");
const { startReceiver, waitFor } = await import("@/tests/support/webhook-receiver");

const SECRET = "whsec_delivery-test-secret";
let driver: TJobDriver;
let serve: { url: string; close: () => Promise<void> };
const receivers: TReceiver[] = [];

// Both ways the driver runs the function: the serve route hosted over HTTP with signed requests (as
// with an Inngest server), and the SDK's execution engine in process (what `npm start` uses).
function withDriver(mode: "serve" | "in-process") {
  beforeAll(async () => {
    serve = await startRouteServer({ POST: serveHandler as never, GET: GET as never, PUT: PUT as never });
    driver = startJobDriver({
      mode: "embedded",
      functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
      eventsWithoutFunctions,
      serveUrl: serve.url,
      runInProcess: mode === "in-process" ? inProcessRunner(inngest, functions) : undefined,
      signingKey: servingSigningKey()!,
      pollMs: 50,
      leaseMs: 5000,
      retryBaseMs: 100,
    });
  });

  afterAll(async () => {
    await driver.stop();
    await serve.close();
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
}

async function receiver(respond: TReceiver["respond"]): Promise<TReceiver> {
  const r = await startReceiver(SECRET, respond);
  receivers.push(r);
  return r;
}

async function subscribed(
  url: string,
  events: string[] = ["alert.created"],
  type: "consumer" | "business" = "consumer",
) {
  const client = await createTestClient({ type });
  const res = await call(subscribe as never, {
    apiKey: client.apiKey,
    body: { url, events, secret: SECRET },
  });
  expect(res.status).toBe(200);
  return { ...client, subscriptionId: res.body.subscription.id as string };
}

const alert = (transactionId: string) => ({
  transactionId,
  ruleId: "R-VELOCITY",
  ruleName: "Velocity",
  level: "high",
  reason: "Too many payouts",
  recommendedAction: "REVIEW",
  alertedAt: 1_760_000_000_000,
});

async function emitAlert(clientId: string, transactionId: string) {
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, { clientId, event: "alert.created", payload: alert(transactionId) }),
  );
  return prisma.webhookDelivery.findFirstOrThrow({
    where: { clientId, body: { contains: `"${transactionId}"` } },
  });
}

describe.each(["serve", "in-process"] as const)("webhook delivery (embedded driver, %s)", (mode) => {
  withDriver(mode);

  it("retries 500, 500 then 200: three signed attempts with one delivery id, one accepted", async () => {
    const r = await receiver((_id, nth) => (nth < 2 ? 500 : 200));
    const { clientId } = await subscribed(r.url);
    const delivery = await emitAlert(clientId, "tx-retry");

    const done = await settled(delivery.id, "delivered");
    expect(done.attempts).toBe(3);
    expect(done.deliveredAt).not.toBeNull();
    expect(done.lastError).toBeNull();
    expect(done.nextAttemptAt).toBeNull();

    expect(r.received).toHaveLength(3);
    expect(r.received.every((x) => x.verified)).toBe(true);
    expect(new Set(r.received.map((x) => x.deliveryId))).toEqual(new Set([delivery.id]));
    expect(r.received.map((x) => x.answered)).toEqual([500, 500, 200]);
    expect(r.received.every((x) => x.event === "alert.created" && x.contentType === "application/json")).toBe(
      true,
    );
    // Same bytes every time (serialised once at emit), signed afresh per attempt.
    expect(new Set(r.received.map((x) => x.rawBody)).size).toBe(1);
    expect(new Set(r.received.map((x) => x.signature)).size).toBe(3);
    expect(r.received[0]!.body).toEqual({
      event: "alert.created",
      payload: alert("tx-retry"),
      timestamp: expect.any(Number),
    });

    const attempts = await prisma.webhookAttempt.findMany({
      where: { deliveryId: delivery.id },
      orderBy: { attempt: "asc" },
    });
    expect(attempts.map((a) => [a.attempt, a.responseStatus])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(attempts[0]!.error).toBe("HTTP 500");
    expect(attempts[2]!.error).toBeNull();
    expect(attempts.every((a) => a.durationMs >= 0)).toBe(true);
  });

  it("ends failed after N + 1 attempts, every attempt recorded; an admin redelivery then succeeds", async () => {
    let accept = false;
    const r = await receiver(() => (accept ? 204 : 503));
    const { clientId } = await subscribed(r.url);
    const delivery = await emitAlert(clientId, "tx-fail");

    const failed = await settled(delivery.id, "failed");
    expect(failed.attempts).toBe(4);
    expect(failed.lastError).toBe("HTTP 503");
    expect(failed.nextAttemptAt).toBeNull();
    expect(r.received).toHaveLength(4);
    expect(await prisma.webhookAttempt.count({ where: { deliveryId: delivery.id } })).toBe(4);
    // The run stays finished: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(4);

    accept = true;
    const other = await createTestClient();
    await expect(
      redeliverWebhook({ clientId: other.clientId, deliveryId: delivery.id }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await redeliverWebhook({ clientId, deliveryId: delivery.id })).toEqual({
      id: delivery.id,
      status: "pending",
      requeued: true,
    });
    const delivered = await settled(delivery.id, "delivered");
    expect(delivered.attempts).toBe(5);
    expect(r.received).toHaveLength(5);
    expect(r.received[4]!).toMatchObject({ deliveryId: delivery.id, verified: true, answered: 204 });
    expect(await redeliverWebhook({ clientId, deliveryId: delivery.id })).toEqual({
      id: delivery.id,
      status: "delivered",
      requeued: false,
    });
  });

  it("delivers to each subscription listing the type, and to nobody else", async () => {
    const r = await receiver(() => 200);
    const a = await subscribed(r.url, ["alert.created", "transaction.screened"]);
    await call(subscribe as never, {
      apiKey: a.apiKey,
      body: { url: r.url, events: ["alert.created"], secret: SECRET },
    });
    await call(subscribe as never, {
      apiKey: a.apiKey,
      body: { url: r.url, events: ["user.screened"], secret: SECRET },
    });
    const b = await subscribed(r.url, ["alert.created"]);

    await prisma.$transaction((tx) =>
      emitWebhookEvent(tx, { clientId: a.clientId, event: "alert.created", payload: alert("tx-fan") }),
    );
    const deliveries = await prisma.webhookDelivery.findMany({ where: { clientId: a.clientId } });
    expect(deliveries).toHaveLength(2);
    await Promise.all(deliveries.map((d) => settled(d.id, "delivered")));
    expect(r.received.map((x) => x.deliveryId).sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect(await prisma.webhookDelivery.count({ where: { clientId: b.clientId } })).toBe(0);
  });

  it("keeps delivering to healthy receivers while one receiver hangs", async () => {
    const hanging = await receiver(() => new Promise<number>(() => {}));
    const healthy = await receiver(() => 200);
    const slow = await subscribed(hanging.url);
    const fast = await subscribed(healthy.url);
    const stuck = await emitAlert(slow.clientId, "tx-hang");
    await waitFor(() => hanging.received.length > 0, 10_000, "the hanging receiver to be called");

    const ok = await emitAlert(fast.clientId, "tx-healthy");
    await settled(ok.id, "delivered");
    // Delivered while the hanging receiver still holds its first attempt open.
    const still = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: stuck.id } });
    expect(still).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("sends deliveries committed together in one run, each signed; a failed one goes on on its schedule", async () => {
    const ok = await receiver(() => 200);
    const flaky = await receiver((_id, nth) => (nth === 0 ? 500 : 200));
    const { clientId, apiKey } = await subscribed(ok.url);
    await call(subscribe as never, {
      apiKey,
      body: { url: flaky.url, events: ["alert.created"], secret: SECRET },
    });
    await prisma.$transaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await emitWebhookEvent(tx, { clientId, event: "alert.created", payload: alert(`tx-batch-${i}`) });
    });
    const deliveries = await prisma.webhookDelivery.findMany({ where: { clientId } });
    expect(deliveries).toHaveLength(10);
    await Promise.all(deliveries.map((d) => settled(d.id, "delivered")));

    // Committed together, dispatched together: one run of deliver-webhooks for the ten.
    const ids = deliveries.map((d) => d.id);
    const runs = await prisma.$queryRaw<Array<{ functionId: string; n: number }>>`
      SELECT r."functionId", count(*)::int AS n
      FROM job_runs r, jsonb_array_elements(coalesce(r.events, jsonb_build_array(r.event))) AS e
      WHERE e -> 'data' ->> 'deliveryId' = ANY(${ids}::text[])
      GROUP BY r.id, r."functionId" ORDER BY r."functionId"`;
    expect(runs).toEqual([
      { functionId: "risk-screening-deliver-webhook", n: 1 },
      { functionId: "risk-screening-deliver-webhook", n: 1 },
      { functionId: "risk-screening-deliver-webhook", n: 1 },
      { functionId: "risk-screening-deliver-webhook", n: 1 },
      { functionId: "risk-screening-deliver-webhook", n: 1 },
      { functionId: "risk-screening-deliver-webhooks", n: 10 },
    ]);

    expect(ok.received).toHaveLength(5);
    expect(flaky.received).toHaveLength(10);
    expect([...ok.received, ...flaky.received].every((x) => x.verified)).toBe(true);
    const done = await prisma.webhookDelivery.findMany({
      where: { clientId },
      include: { attemptLog: true },
    });
    const bySubscription = (url: string) =>
      done.filter((d) => (url === ok.url ? ok : flaky).received.some((x) => x.deliveryId === d.id));
    expect(bySubscription(ok.url).map((d) => d.attempts)).toEqual([1, 1, 1, 1, 1]);
    expect(bySubscription(flaky.url).map((d) => d.attempts)).toEqual([2, 2, 2, 2, 2]);
    for (const d of bySubscription(flaky.url))
      expect(d.attemptLog.map((a) => [a.attempt, a.responseStatus]).sort()).toEqual([
        [1, 500],
        [2, 200],
      ]);
  });

  it("delivers what the API did: user.screened after an onboard, user.status.block after a block", async () => {
    const r = await receiver(() => 200);
    const { clientId, apiKey } = await subscribed(r.url, ["user.screened", "user.status.block"]);
    const onboard = await call(onboardRoute.POST as never, {
      apiKey,
      body: { id: "user-e2e", timestamp: Date.now() - 1000, firstName: "Ada" },
    });
    expect(onboard.status).toBe(200);
    const block = await call(blockRoute.PUT as never, {
      apiKey,
      method: "PUT",
      params: { userId: "user-e2e" },
      body: { comment: "Chargeback fraud", reviewer: "alice" },
    });
    expect(block.status).toBe(200);

    await waitFor(
      async () => (await prisma.webhookDelivery.count({ where: { clientId, status: "delivered" } })) === 2,
      30_000,
      "both deliveries",
    );
    expect(r.received.every((x) => x.verified)).toBe(true);
    const byEvent = Object.fromEntries(
      r.received.map((x) => [x.event, x.body as { event: string; payload: any }]),
    );
    expect(byEvent["user.screened"]!.payload).toEqual(onboard.body);
    expect(byEvent["user.status.block"]!.payload).toMatchObject({ id: "user-e2e", status: "blocked" });
  });
});
