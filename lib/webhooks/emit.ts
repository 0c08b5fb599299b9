import { prisma, type Tx } from "@/lib/db";
import { enqueue } from "@/lib/outbox/enqueue";
import type { TWebhookEventType } from "@/lib/webhooks/event-types";

/** One per delivery row, at emit (and at an admin redelivery): its attempt now. */
export const WEBHOOK_DELIVERY_EVENT = "webhook/delivery.requested";
/** A delivery left pending by an attempt of `deliver-webhooks`: its retries, on the schedule. */
export const WEBHOOK_RETRY_EVENT = "webhook/delivery.retry";

type TSubscriptionRef = { id: string; events: string[] };

// A screening emits several events (the screening, each alert) in one transaction: the client's
// active subscriptions are read once per transaction, and that read sees the transaction's snapshot.
const subscriptionsByTx = new WeakMap<object, Map<string, Promise<TSubscriptionRef[]>>>();

function activeSubscriptions(tx: Tx, clientId: string): Promise<TSubscriptionRef[]> {
  const read = () =>
    tx.webhookSubscription.findMany({
      where: { clientId, active: true },
      select: { id: true, events: true },
    });
  // Outside a transaction there is no snapshot to share: read every time.
  if (tx === prisma) return read();
  let byClient = subscriptionsByTx.get(tx);
  if (!byClient) {
    byClient = new Map();
    subscriptionsByTx.set(tx, byClient);
  }
  let pending = byClient.get(clientId);
  if (!pending) {
    pending = read();
    byClient.set(clientId, pending);
  }
  return pending;
}

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
  const subscriptions = (await activeSubscriptions(tx, clientId)).filter((s) => s.events.includes(event));
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
