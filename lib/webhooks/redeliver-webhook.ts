import { prisma, type Tx } from "@/lib/db";
import { notFound, validationError } from "@/lib/http/errors";
import { enqueue } from "@/lib/outbox/enqueue";
import { WEBHOOK_DELIVERY_EVENT } from "@/lib/webhooks/emit";
import type { TDeliveryStatus } from "@/lib/webhooks/send-delivery-attempt";

/**
 * Admin action: sends a failed delivery again, with the same delivery id and body and a fresh
 * retry schedule. Deliveries that are pending or delivered are left alone (`requeued: false`).
 */
export async function redeliverWebhook(
  {
    clientId,
    deliveryId,
  }: {
    clientId: string;
    deliveryId: string;
  },
  db?: Tx,
): Promise<{ id: string; status: TDeliveryStatus; requeued: boolean }> {
  const run = async (tx: Tx) => {
    const reset = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, clientId, status: "failed" },
      data: { status: "pending", nextAttemptAt: new Date(), lastError: null, updatedAt: new Date() },
    });
    if (reset.count === 1) {
      await enqueue(tx, { clientId, name: WEBHOOK_DELIVERY_EVENT, data: { deliveryId } });
      return { id: deliveryId, status: "pending" as const, requeued: true };
    }
    const current = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, clientId },
      select: { status: true },
    });
    if (!current) throw notFound("/deliveryId", "Delivery not found");
    return { id: deliveryId, status: current.status as TDeliveryStatus, requeued: false };
  };
  // The caller's transaction (with its audit row), or one of our own.
  return db ? run(db) : prisma.$transaction(run);
}

/**
 * Admin action: the next attempt of a delivery that is retrying (failed at least once, waiting for
 * its next attempt) made now rather than at its scheduled time, on a fresh retry schedule. The run
 * that was waiting for the old time finds the delivery moved on when it wakes and stops
 * (`sendDeliveryAttempt`'s `dueAt`), so the delivery is never on two schedules at once.
 */
export async function retryWebhookNow(
  { clientId, deliveryId }: { clientId: string; deliveryId: string },
  db?: Tx,
): Promise<{ id: string; status: TDeliveryStatus; requeued: boolean }> {
  const run = async (tx: Tx) => {
    const reset = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, clientId, status: "pending", attempts: { gt: 0 } },
      data: { nextAttemptAt: new Date(), updatedAt: new Date() },
    });
    if (reset.count === 1) {
      await enqueue(tx, { clientId, name: WEBHOOK_DELIVERY_EVENT, data: { deliveryId } });
      return { id: deliveryId, status: "pending" as const, requeued: true };
    }
    const current = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, clientId },
      select: { status: true },
    });
    if (!current) throw notFound("/deliveryId", "Delivery not found");
    return { id: deliveryId, status: current.status as TDeliveryStatus, requeued: false };
  };
  return db ? run(db) : prisma.$transaction(run);
}

/**
 * Admin action: every failed delivery of one subscription sent again, as `redeliverWebhook` sends
 * one, in one statement. Answers how many were requeued.
 */
export async function redeliverFailedWebhooks(
  { clientId, subscriptionId }: { clientId: string; subscriptionId: string },
  db?: Tx,
): Promise<{ requeued: number }> {
  const run = async (tx: Tx) => {
    const sub = await tx.webhookSubscription.findFirst({
      where: { id: subscriptionId, clientId },
      select: { active: true },
    });
    if (!sub) throw notFound("/subscriptionId", "Subscription not found");
    // they could only fail again, at once
    if (!sub.active) throw validationError(["/subscriptionId: The subscription is disabled"]);
    const rows = await tx.$queryRaw<Array<{ n: number }>>`
      WITH requeued AS (
        UPDATE webhook_deliveries SET status = 'pending', "nextAttemptAt" = now(), "lastError" = NULL,
          "updatedAt" = now()
        WHERE "clientId" = ${clientId} AND "subscriptionId" = ${subscriptionId} AND status = 'failed'
        RETURNING id
      ), queued AS (
        INSERT INTO outbox_events (id, "clientId", name, data)
        SELECT gen_random_uuid()::text, ${clientId}, ${WEBHOOK_DELIVERY_EVENT}, jsonb_build_object('deliveryId', id)
        FROM requeued
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM queued`;
    return { requeued: rows[0]?.n ?? 0 };
  };
  return db ? run(db) : prisma.$transaction(run);
}
