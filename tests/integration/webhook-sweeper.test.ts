import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TJobDriver, TJobDriverOptions } from "@/lib/jobs/driver";
import type { TRelayEvent } from "@/lib/jobs/relay";
import type { TReceiver } from "@/tests/support/webhook-receiver";

// lib/env parses the environment at import: the short schedule must be in place before any import.
vi.hoisted(() => {
  process.env.WEBHOOK_RETRY_DELAYS_MS = "50,50,50";
  process.env.WEBHOOK_TIMEOUT_MS = "4000";
});

const { POST: subscribe } = await import("@/app/v1/webhooks/route");
const { inngest, INNGEST_APP_ID } = await import("@/inngest/client");
const { eventsWithoutFunctions, functions, functionVersions } = await import("@/inngest/index");
const { prisma } = await import("@/lib/db");
const { startJobDriver } = await import("@/lib/jobs/driver");
const { describeFunctions } = await import("@/lib/jobs/function-table");
const { inProcessRunner } = await import("@/lib/jobs/run-in-process");
const { servingSigningKey } = await import("@/lib/jobs/signing-key");
const { MAX_SWEEPS, SWEPT_OUT_ERROR, sweepStuckDeliveries } = await import("@/lib/jobs/sweep-deliveries");
const { emitWebhookEvent, WEBHOOK_DELIVERY_EVENT, WEBHOOK_RETRY_EVENT } = await import("@/lib/webhooks/emit");
const { redeliverWebhook } = await import("@/lib/webhooks/redeliver-webhook");
const { call, createTestClient, deliverySettled: settled } = await import("@/tests/factories");
const { startReceiver, waitFor } = await import("@/tests/support/webhook-receiver");

// The sweeper: webhook deliveries left pending by a run that ended failed are requested again, on
// their schedule, once, and only when no live work holds them.
const SECRET = "whsec_sweeper-test-secret";
const HOUR = 3_600_000;
let receiver: TReceiver;
const drivers: TJobDriver[] = [];

beforeAll(async () => {
  receiver = await startReceiver(SECRET, () => 200);
});
// A sweep looks at every client's deliveries: each test starts from an empty queue.
beforeEach(async () => {
  await prisma.$executeRawUnsafe(`TRUNCATE webhook_attempts, webhook_deliveries, outbox_events, job_runs`);
});
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await receiver.close();
});

function startDriver(options: Partial<TJobDriverOptions> = {}): TJobDriver {
  const driver = startJobDriver({
    mode: "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: "http://127.0.0.1:1/unused",
    runInProcess: inProcessRunner(inngest, functions),
    signingKey: servingSigningKey()!,
    pollMs: 50,
    leaseMs: 5000,
    retryBaseMs: 20,
    sweepIntervalMs: HOUR,
    ...options,
  });
  drivers.push(driver);
  return driver;
}

async function subscribedClient() {
  const client = await createTestClient();
  const res = await call(subscribe as never, {
    apiKey: client.apiKey,
    body: { url: receiver.url, events: ["alert.created"], secret: SECRET },
  });
  expect(res.status).toBe(200);
  return { clientId: client.clientId, subscriptionId: res.body.subscription.id as string };
}

/** A delivery row and its `webhook/delivery.requested` outbox row, as a screening writes them. */
async function emitAlert(clientId: string, transactionId: string) {
  await prisma.$transaction((tx) =>
    emitWebhookEvent(tx, {
      clientId,
      event: "alert.created",
      payload: {
        transactionId,
        ruleId: "R-1",
        ruleName: "Rule",
        level: "high",
        reason: "test",
        recommendedAction: "REVIEW",
        alertedAt: 1_760_000_000_000,
      },
    }),
  );
  return prisma.webhookDelivery.findFirstOrThrow({
    where: { clientId, body: { contains: `"${transactionId}"` } },
  });
}

/**
 * A delivery whose run has gone (its event dispatched, no live run): `attempts` made, due `dueAgoMs`
 * ago, as a run that ended failed leaves it.
 */
async function orphaned(clientId: string, transactionId: string, { attempts = 0, dueAgoMs = HOUR } = {}) {
  const delivery = await emitAlert(clientId, transactionId);
  await prisma.outboxEvent.updateMany({
    where: { data: { path: ["deliveryId"], equals: delivery.id } },
    data: { dispatchedAt: new Date() },
  });
  await prisma.webhookDelivery.update({
    where: { id: delivery.id },
    data: { attempts, nextAttemptAt: new Date(Date.now() - dueAgoMs) },
  });
  return delivery.id;
}

function retryEvents(deliveryId: string) {
  return prisma.outboxEvent.findMany({
    where: { name: WEBHOOK_RETRY_EVENT, data: { path: ["deliveryId"], equals: deliveryId } },
  });
}

/** A thrown bug: the sealed secret cannot be opened, so every attempt of a run throws. */
async function breakSecret(subscriptionId: string): Promise<() => Promise<void>> {
  const { secretEncrypted } = await prisma.webhookSubscription.findUniqueOrThrow({
    where: { id: subscriptionId },
  });
  await prisma.webhookSubscription.update({
    where: { id: subscriptionId },
    data: { secretEncrypted: "v1:broken" },
  });
  return async () => {
    await prisma.webhookSubscription.update({ where: { id: subscriptionId }, data: { secretEncrypted } });
  };
}

function receivedFor(deliveryId: string) {
  return receiver.received.filter((r) => r.deliveryId === deliveryId);
}

describe("webhook delivery sweeper", () => {
  it("delivers, after a sweep, a delivery whose run ended failed, signed, continuing its schedule", async () => {
    const { clientId, subscriptionId } = await subscribedClient();
    const repair = await breakSecret(subscriptionId);
    startDriver();
    const delivery = await emitAlert(clientId, "tx-run-failed");
    const run = await waitFor(
      () =>
        prisma.jobRun.findFirst({
          where: { functionId: `${INNGEST_APP_ID}-deliver-webhooks`, status: "failed" },
        }),
      30_000,
      "the batch's run to end failed",
    );
    expect(run.events).toEqual([expect.objectContaining({ data: { deliveryId: delivery.id } })]);
    const stuck = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(stuck).toMatchObject({ status: "pending", attempts: 0 });
    expect(receivedFor(delivery.id)).toHaveLength(0);

    // The bug fixed; the delivery would stay pending for ever without a sweep.
    await repair();
    expect(await sweepStuckDeliveries({ graceMs: 0 })).toEqual({ requested: 1, failed: 0 });
    expect((await retryEvents(delivery.id)).map((e) => e.data)).toEqual([{ deliveryId: delivery.id, n: 1 }]);

    const done = await settled(delivery.id, "delivered");
    expect(done).toMatchObject({ attempts: 1, sweeps: 1, lastError: null });
    expect(done.sweptAt).not.toBeNull();
    const got = receivedFor(delivery.id);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ verified: true, event: "alert.created", answered: 200 });
    expect(got[0]!.rawBody).toBe(delivery.body);

    // A delivery that had made two attempts continues at the third: no attempt added, none repeated.
    // (No driver while it is made, or it would take the delivery's own event first.)
    await Promise.all(drivers.splice(0).map((d) => d.stop()));
    const later = await orphaned(clientId, "tx-third-attempt", { attempts: 2 });
    expect(await sweepStuckDeliveries({ graceMs: 0 })).toEqual({ requested: 1, failed: 0 });
    startDriver();
    expect((await retryEvents(later)).map((e) => e.data)).toEqual([{ deliveryId: later, n: 3 }]);
    expect(await settled(later, "delivered")).toMatchObject({ attempts: 3 });
    const logged = await prisma.webhookAttempt.findMany({ where: { deliveryId: later } });
    expect(logged.map((a) => [a.attempt, a.responseStatus])).toEqual([[3, 200]]);
    expect(receivedFor(later)).toEqual([expect.objectContaining({ verified: true, answered: 200 })]);
  });

  it("leaves a delivery alone while live work holds it: its event, a queued or running run, a batch", async () => {
    const { clientId } = await subscribedClient();
    // Its `webhook/delivery.requested` event not dispatched yet (no driver runs in this test).
    const queued = await emitAlert(clientId, "tx-held-outbox");
    await prisma.webhookDelivery.update({
      where: { id: queued.id },
      data: { nextAttemptAt: new Date(Date.now() - HOUR) },
    });
    // A retry run sleeping until its attempt, and a batch's run in progress.
    const sleeping = await orphaned(clientId, "tx-held-sleeping");
    const batched = await orphaned(clientId, "tx-held-batch");
    const other = await orphaned(clientId, "tx-held-other");
    const event = (deliveryId: string, name: string) => ({
      id: `evt-${deliveryId}`,
      name,
      data: { deliveryId },
      ts: Date.now(),
    });
    const sleeper = await prisma.jobRun.create({
      data: {
        functionId: `${INNGEST_APP_ID}-deliver-webhook`,
        eventId: `evt-${sleeping}`,
        event: event(sleeping, WEBHOOK_RETRY_EVENT),
        status: "queued",
        runAt: new Date(Date.now() + HOUR),
      },
    });
    const batch = await prisma.jobRun.create({
      data: {
        functionId: `${INNGEST_APP_ID}-deliver-webhooks`,
        eventId: `evt-${other}`,
        event: event(other, WEBHOOK_DELIVERY_EVENT),
        events: [event(other, WEBHOOK_DELIVERY_EVENT), event(batched, WEBHOOK_DELIVERY_EVENT)],
        status: "running",
        leaseUntil: new Date(Date.now() - 1000),
      },
    });

    expect(await sweepStuckDeliveries({ graceMs: 0 })).toEqual({ requested: 0, failed: 0 });
    for (const id of [queued.id, sleeping, batched, other]) expect(await retryEvents(id)).toHaveLength(0);

    // Once those runs end failed, their deliveries (and only theirs) are requested again.
    await prisma.jobRun.updateMany({
      where: { id: { in: [sleeper.id, batch.id] } },
      data: { status: "failed" },
    });
    expect(await sweepStuckDeliveries({ graceMs: 0 })).toEqual({ requested: 3, failed: 0 });
    for (const id of [sleeping, batched, other]) expect(await retryEvents(id)).toHaveLength(1);
    expect(await retryEvents(queued.id)).toHaveLength(0);
  });

  it("leaves alone what is not past the grace period, and what it swept within it", async () => {
    const { clientId } = await subscribedClient();
    const recent = await orphaned(clientId, "tx-grace", { dueAgoMs: 60_000 });
    expect(await sweepStuckDeliveries({ graceMs: 5 * 60_000 })).toEqual({ requested: 0, failed: 0 });
    expect(await retryEvents(recent)).toHaveLength(0);

    expect(await sweepStuckDeliveries({ graceMs: 30_000 })).toEqual({ requested: 1, failed: 0 });
    // Relayed to an Inngest server, the retry leaves no run here: the grace since the sweep holds it.
    await prisma.outboxEvent.updateMany({
      where: { name: WEBHOOK_RETRY_EVENT, data: { path: ["deliveryId"], equals: recent } },
      data: { dispatchedAt: new Date() },
    });
    expect(await sweepStuckDeliveries({ graceMs: 30_000 })).toEqual({ requested: 0, failed: 0 });
    expect(await retryEvents(recent)).toHaveLength(1);
  });

  it("leaves failed and delivered deliveries alone", async () => {
    const { clientId } = await subscribedClient();
    const failed = await orphaned(clientId, "tx-failed", { attempts: 4 });
    const delivered = await orphaned(clientId, "tx-delivered", { attempts: 1 });
    await prisma.webhookDelivery.update({ where: { id: failed }, data: { status: "failed" } });
    await prisma.webhookDelivery.update({
      where: { id: delivered },
      data: { status: "delivered", deliveredAt: new Date() },
    });
    expect(await sweepStuckDeliveries({ graceMs: 0 })).toEqual({ requested: 0, failed: 0 });
    expect(await retryEvents(failed)).toHaveLength(0);
    expect(await retryEvents(delivered)).toHaveLength(0);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: failed } })).toMatchObject({
      status: "failed",
      sweeps: 0,
      sweptAt: null,
    });
  });

  it("requests each delivery once when sweeps run at once, and two sweeping drivers deliver each once", async () => {
    const { clientId } = await subscribedClient();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await orphaned(clientId, `tx-race-${i}`, { attempts: 1 }));

    const results = await Promise.all(Array.from({ length: 4 }, () => sweepStuckDeliveries({ graceMs: 0 })));
    expect(results.reduce((sum, r) => sum + r.requested, 0)).toBe(20);
    for (const id of ids) expect(await retryEvents(id)).toHaveLength(1);

    // Two drivers sweeping every 20 ms with no grace: the live work holds each until it is recorded.
    const more: string[] = [];
    for (let i = 0; i < 20; i++) more.push(await orphaned(clientId, `tx-race-drivers-${i}`, { attempts: 1 }));
    startDriver({ sweepIntervalMs: 20, sweepGraceMs: 0 });
    startDriver({ sweepIntervalMs: 20, sweepGraceMs: 0 });
    for (const id of [...ids, ...more]) await settled(id, "delivered");
    // Stopped, the drivers have finished every run they held: nothing more can be sent, so what the
    // receiver has is all it will ever get (a second request of a delivery would have been made while
    // it was pending, before it was delivered).
    await Promise.all(drivers.splice(0).map((d) => d.stop()));
    for (const id of [...ids, ...more]) {
      expect(receivedFor(id)).toEqual([expect.objectContaining({ verified: true, answered: 200 })]);
      expect(await retryEvents(id)).toHaveLength(1);
    }
  });

  it(`marks failed a delivery whose run keeps failing after ${MAX_SWEEPS} sweeps; a redelivery then sends it`, async () => {
    const { clientId, subscriptionId } = await subscribedClient();
    const repair = await breakSecret(subscriptionId);
    startDriver({ sweepIntervalMs: 50, sweepGraceMs: 0 });
    const delivery = await emitAlert(clientId, "tx-keeps-failing");

    const failed = await settled(delivery.id, "failed");
    expect(failed).toMatchObject({ attempts: 0, sweeps: MAX_SWEEPS + 1, lastError: SWEPT_OUT_ERROR });
    expect(failed.nextAttemptAt).toBeNull();
    expect(await retryEvents(delivery.id)).toHaveLength(MAX_SWEEPS);
    expect(receivedFor(delivery.id)).toHaveLength(0);

    await repair();
    expect(await redeliverWebhook({ clientId, deliveryId: delivery.id })).toMatchObject({ requeued: true });
    expect(await settled(delivery.id, "delivered")).toMatchObject({ attempts: 1 });
    expect(receivedFor(delivery.id)).toEqual([expect.objectContaining({ verified: true, answered: 200 })]);
  });

  it("with an Inngest server, relays the requested retry", async () => {
    const { clientId } = await subscribedClient();
    const id = await orphaned(clientId, "tx-relay", { attempts: 2 });
    const sent: TRelayEvent[] = [];
    startDriver({
      mode: "relay",
      runInProcess: undefined,
      send: async (events) => {
        sent.push(...events);
      },
      sweepIntervalMs: 50,
      sweepGraceMs: 60_000,
    });
    const relayed = await waitFor(
      () => sent.find((e) => e.name === WEBHOOK_RETRY_EVENT),
      10_000,
      "the relay",
    );
    expect(relayed.data).toEqual({ deliveryId: id, n: 3 });
    // Within the grace of that sweep nothing is requested again, though no run is visible here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent.filter((e) => e.name === WEBHOOK_RETRY_EVENT)).toHaveLength(1);
  });
});
