import { prisma, type Tx } from "@/lib/db";
import { notFound } from "@/lib/http/errors";
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
