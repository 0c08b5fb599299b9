import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as serveHandler, GET, PUT } from "@/app/api/inngest/route";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { INNGEST_APP_ID } from "@/inngest/client";
import { eventsWithoutFunctions, functions, functionVersions } from "@/inngest/index";
import { closeCase } from "@/lib/cases/close-case";
import { prisma } from "@/lib/db";
import { startJobDriver, type TJobDriver } from "@/lib/jobs/driver";
import { describeFunctions } from "@/lib/jobs/function-table";
import { servingSigningKey } from "@/lib/jobs/signing-key";
import { importRules } from "@/lib/rules/import-rules";
import { emittedEventData, WEBHOOK_EMITTED_EVENT } from "@/lib/webhooks/emit";
import { webhookEnvelope, webhookPayload } from "@/lib/webhooks/payloads";
import { call, createTestClient } from "@/tests/factories";
import { startRouteServer } from "@/tests/support/serve-server";
import { startReceiver, waitFor, type TReceiver } from "@/tests/support/webhook-receiver";

// case.created (written by the database when an alert opens a case) and case.closed reach a subscriber
// with the same envelope and a signature it verifies, through the real delivery function.

const SECRET = "whsec_cases-test-secret";
let driver: TJobDriver;
let serve: { url: string; close: () => Promise<void> };
let receiver: TReceiver;

beforeAll(async () => {
  serve = await startRouteServer({ POST: serveHandler as never, GET: GET as never, PUT: PUT as never });
  driver = startJobDriver({
    mode: "embedded",
    functions: describeFunctions(INNGEST_APP_ID, functions, functionVersions),
    eventsWithoutFunctions,
    serveUrl: serve.url,
    signingKey: servingSigningKey()!,
    pollMs: 50,
    leaseMs: 5000,
    retryBaseMs: 100,
  });
  receiver = await startReceiver(SECRET);
});

afterAll(async () => {
  await driver.stop();
  await serve.close();
  await receiver.close();
});

describe("case webhooks", () => {
  it("a business client subscribes to case.created and case.closed and receives both, signed", async () => {
    const client = await createTestClient({ type: "business" });
    await importRules({
      clientId: client.clientId,
      rules: [
        {
          id: "LARGE",
          name: "Large amount",
          subject: "transaction",
          status: "active",
          riskLevel: "high",
          recommendedAction: "REVIEW",
          reason: "Large",
          condition: "transaction.amount >= 10000",
        },
      ],
    });
    const sub = await call(subscribe as never, {
      apiKey: client.apiKey,
      body: { url: receiver.url, events: ["case.created", "case.closed"], secret: SECRET },
    });
    expect(sub.status).toBe(200);
    expect(sub.body.subscription.events).toEqual(["case.created", "case.closed"]);

    for (const id of ["wh-1", "wh-2"]) {
      const res = await call(postTransaction, {
        apiKey: client.apiKey,
        body: {
          id,
          userId: "u-wh",
          status: "PENDING",
          currencyCode: "EUR",
          amount: 20_000,
          timestamp: Date.now() - 1000,
        },
      });
      expect(res.status).toBe(200);
    }
    const row = await prisma.case.findFirstOrThrow({ where: { clientId: client.clientId } });
    const created = await waitFor(
      () => receiver.received.find((r) => r.event === "case.created"),
      30_000,
      "case.created",
    );
    expect(created.verified).toBe(true);
    expect(created.body).toMatchObject({
      event: "case.created",
      payload: {
        caseId: row.id,
        subject: { type: "user", id: "u-wh" },
        status: "open",
        priority: "high",
        dueAt: row.dueAt.getTime(),
        createdAt: row.createdAt.getTime(),
      },
    });
    const first = await prisma.alert.findFirstOrThrow({
      where: { clientId: client.clientId, transactionId: "wh-1" },
    });
    expect((created.body as { payload: { alertIds: string[] } }).payload.alertIds).toEqual([first.id]);
    expect(typeof (created.body as { timestamp: number }).timestamp).toBe("number");
    // The one event the database writes itself (emit_webhook in the alerts trigger; docs/architecture.md):
    // the TypeScript builder's envelope of the same case, byte for byte in PostgreSQL's jsonb text form,
    // and the emitted event's outbox row as emitWebhookEvent writes it.
    const alertedAt = first.createdAt.getTime();
    const envelope = webhookEnvelope(
      "case.created",
      webhookPayload["case.created"]({
        caseId: row.id,
        subject: { type: "user", id: "u-wh" },
        priority: row.priority,
        dueAt: row.dueAt,
        createdAt: row.createdAt,
        alertIds: [first.id],
      }),
      alertedAt,
    );
    const [rendered] = await prisma.$queryRaw<
      Array<{ text: string }>
    >`SELECT ${envelope}::jsonb::text AS text`;
    expect(created.rawBody).toBe(rendered!.text);
    expect(JSON.parse(created.rawBody)).toStrictEqual(JSON.parse(envelope));
    const delivery = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: created.deliveryId } });
    const emitted = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: delivery.outboxEventId } });
    expect(emitted.name).toBe(WEBHOOK_EMITTED_EVENT);
    expect(emitted.data).toStrictEqual(emittedEventData("case.created", alertedAt));

    const actor = await prisma.dashboardUser.create({
      data: { clientId: client.clientId, email: "wh-rev@example.test", role: "reviewer", passwordHash: "-" },
    });
    await closeCase({
      clientId: client.clientId,
      caseId: row.id,
      outcome: "confirmed_fraud",
      note: "Account takeover",
      actor: { id: actor.id, email: actor.email, name: null },
    });
    const closed = await waitFor(
      () => receiver.received.find((r) => r.event === "case.closed"),
      30_000,
      "case.closed",
    );
    expect(closed.verified).toBe(true);
    const alerts = await prisma.alert.findMany({
      where: { caseId: row.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(closed.body).toMatchObject({
      event: "case.closed",
      payload: {
        caseId: row.id,
        subject: { type: "user", id: "u-wh" },
        status: "closed",
        outcome: "confirmed_fraud",
        note: "Account takeover",
        closedBy: "wh-rev@example.test",
        reportId: null,
        alertIds: alerts.map((x) => x.id),
      },
    });
    // one case.created for the two transactions' alerts
    expect(receiver.received.filter((r) => r.event === "case.created")).toHaveLength(1);
  });

  it("unknown event types are still refused", async () => {
    const client = await createTestClient({ type: "business" });
    const res = await call(subscribe as never, {
      apiKey: client.apiKey,
      body: { url: receiver.url, events: ["case.updated"], secret: SECRET },
    });
    expect(res.status).toBe(400);
  });
});
