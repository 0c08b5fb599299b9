import type { Tx } from "@/lib/db";
import { enqueue } from "@/lib/outbox/enqueue";
import type { TWebhookEventType } from "@/lib/webhooks/event-types";

export const WEBHOOK_DELIVERY_EVENT = "webhook/delivery.requested";

/**
 * Emits a webhook event inside the caller's transaction: one delivery row per active subscription
 * listing the type, the envelope serialised once, and an outbox event per delivery for the
 * delivery function. Nothing is sent before the transaction commits.
 */
export async function emitWebhook(
  tx: Tx,
  {
    clientId,
    event,
    payload,
    timestamp = Date.now(),
  }: {
    clientId: string;
    event: TWebhookEventType;
    payload: Record<string, unknown>;
    timestamp?: number;
  },
): Promise<number> {
  const subscriptions = await tx.webhookSubscription.findMany({
    where: { clientId, active: true, events: { has: event } },
    select: { id: true },
  });
  if (subscriptions.length === 0) return 0;
  const body = JSON.stringify({ event, payload, timestamp });
  // The emitted event's own outbox row: the key grouping its deliveries (one per subscription), and
  // an event other Inngest functions may listen to. The deliveries are driven by their own rows below.
  const outboxEventId = await enqueue(tx, {
    clientId,
    name: "webhook/event.emitted",
    data: { event, timestamp },
  });
  for (const subscription of subscriptions) {
    const delivery = await tx.webhookDelivery.create({
      data: {
        clientId,
        subscriptionId: subscription.id,
        outboxEventId,
        eventType: event,
        body,
        nextAttemptAt: new Date(),
      },
      select: { id: true },
    });
    await enqueue(tx, { clientId, name: WEBHOOK_DELIVERY_EVENT, data: { deliveryId: delivery.id } });
  }
  return subscriptions.length;
}
