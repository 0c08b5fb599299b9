import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as subscribe } from "@/app/v1/webhooks/route";
import { prisma } from "@/lib/db";
import type { TJobDriver } from "@/lib/jobs/driver";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { call, createTestClient } from "@/tests/factories";
import { startInProcessDriver } from "@/tests/support/in-process-driver";
import { startReceiver, waitFor, type TReceiver } from "@/tests/support/webhook-receiver";

// The driver is woken by the commit itself (NOTIFY from the outbox insert, LISTEN on a connection of
// its own), not by its poll: here the poll interval is an hour, so every delivery below could only
// have started from a notification. The serve handler is called in process, as `npm start` does: the
// serve URL points at a port nothing listens on, so every step went through `invoke`, signed.
const SECRET = "whsec_wakeup-test-secret";
const HOUR = 60 * 60_000;
let driver: TJobDriver;
let receiver: TReceiver;

async function listeners(): Promise<number> {
  const rows = await prisma.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND query = 'LISTEN job_work'`;
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  driver = startInProcessDriver({ pollMs: HOUR, listen: process.env.DATABASE_URL });
  // Its first pass at start and the one after LISTEN find nothing; then it sleeps for the hour.
  await waitFor(async () => ((await listeners()) === 1 ? true : null), 10_000, "the driver's LISTEN");
});

afterAll(async () => {
  await driver.stop();
  await receiver.close();
});

describe("job driver woken at commit", () => {
  it("delivers webhooks committed while it waits on an hour-long poll, each signed, once", async () => {
    const client = await createTestClient();
    const res = await call(subscribe as never, {
      apiKey: client.apiKey,
      body: { url: receiver.url, events: ["alert.created"], secret: SECRET },
    });
    expect(res.status).toBe(200);

    for (const transactionId of ["tx-wake-1", "tx-wake-2", "tx-wake-3"]) {
      await prisma.$transaction((tx) =>
        emitWebhookEvent(tx, {
          clientId: client.clientId,
          event: "alert.created",
          payload: {
            transactionId,
            ruleId: "R-WAKE",
            ruleName: "Wake",
            level: "high",
            reason: "woken",
            recommendedAction: "REVIEW",
            alertedAt: 1_760_000_000_000,
          },
        }),
      );
      const delivery = await prisma.webhookDelivery.findFirstOrThrow({
        where: { clientId: client.clientId, body: { contains: `"${transactionId}"` } },
      });
      // Generous bound, far below the poll: only a notification can have started the run.
      const done = await waitFor(
        async () => {
          const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
          return d.status === "delivered" ? d : null;
        },
        30_000,
        `delivery of ${transactionId}`,
      );
      expect(done.attempts).toBe(1);
    }
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.deliveryId)).size).toBe(3);
  });
});
