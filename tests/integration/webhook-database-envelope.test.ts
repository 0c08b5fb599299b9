import { describe, expect, it } from "vitest";
import { POST as postTransaction } from "@/app/v1/transaction/route";
import { prisma } from "@/lib/db";
import { importRules } from "@/lib/rules/import-rules";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { emittedEventData, WEBHOOK_EMITTED_EVENT } from "@/lib/webhooks/emit";
import { webhookEnvelope, webhookPayload } from "@/lib/webhooks/payloads";
import { call, createTestClient } from "@/tests/factories";

// case.created is the one event the database writes itself (emit_webhook, called by the alerts trigger
// in the statement that inserts the alert; docs/architecture.md). Its stored envelope is the envelope
// the TypeScript builder and serialisation make from the same case, as PostgreSQL renders jsonb text:
// the same fields and values, byte for byte once both are in that one form.

describe("the envelope the database writes (case.created)", () => {
  it("is the TypeScript envelope of the same case, byte for byte in jsonb's text form", async () => {
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
    await createSubscription({
      clientId: client.clientId,
      clientType: "business",
      url: "https://hooks.example.com/cases",
      events: ["case.created"],
      secret: "s",
    });
    const res = await call(postTransaction, {
      apiKey: client.apiKey,
      body: {
        id: "env-1",
        userId: "u-env",
        status: "PENDING",
        currencyCode: "EUR",
        amount: 20_000,
        timestamp: Date.now() - 1000,
      },
    });
    expect(res.status).toBe(200);

    const row = await prisma.case.findFirstOrThrow({ where: { clientId: client.clientId } });
    const alert = await prisma.alert.findFirstOrThrow({
      where: { clientId: client.clientId, caseId: row.id },
    });
    const delivery = await prisma.webhookDelivery.findFirstOrThrow({
      where: { clientId: client.clientId, eventType: "case.created" },
    });
    const payload = webhookPayload["case.created"]({
      caseId: row.id,
      subject: { type: "user", id: "u-env" },
      priority: row.priority,
      dueAt: row.dueAt,
      createdAt: row.createdAt,
      alertIds: [alert.id],
    });
    const timestamp = alert.createdAt.getTime();
    const envelope = webhookEnvelope("case.created", payload, timestamp);

    const [rendered] = await prisma.$queryRaw<
      Array<{ text: string }>
    >`SELECT ${envelope}::jsonb::text AS text`;
    expect(delivery.body).toBe(rendered!.text);
    expect(JSON.parse(delivery.body)).toStrictEqual(JSON.parse(envelope));
    expect(Object.keys(JSON.parse(delivery.body) as object)).toEqual(["event", "payload", "timestamp"]);

    const emitted = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: delivery.outboxEventId } });
    expect(emitted.name).toBe(WEBHOOK_EMITTED_EVENT);
    expect(emitted.data).toStrictEqual(emittedEventData("case.created", timestamp));
  });
});
