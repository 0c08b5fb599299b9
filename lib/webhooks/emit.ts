import { prisma, type Tx } from "@/lib/db";
import { enqueue } from "@/lib/outbox/enqueue";
import type { TWebhookEventType } from "@/lib/webhooks/event-types";
import { webhookEnvelope, type TWebhookEvent } from "@/lib/webhooks/payloads";

/** One per delivery row, at emit (and at an admin redelivery): its attempt now. */
export const WEBHOOK_DELIVERY_EVENT = "webhook/delivery.requested";
/** A delivery left pending by an attempt of `deliver-webhooks`: its retries, on the schedule. */
export const WEBHOOK_RETRY_EVENT = "webhook/delivery.retry";
/**
 * The emitted event's own outbox row: the key grouping its deliveries (one per subscription), and an
 * event other Inngest functions may listen to. The deliveries are driven by their own rows.
 */
export const WEBHOOK_EMITTED_EVENT = "webhook/event.emitted";

export type TSubscriptionRef = { id: string; events: readonly string[] };

/** The outbox data of an emitted event (WEBHOOK_EMITTED_EVENT). */
export function emittedEventData(
  event: TWebhookEventType,
  timestamp: number,
): { event: string; timestamp: number } {
  return { event, timestamp };
}

/** The subscriptions that receive `event`, in the order given. */
export function listeningSubscriptions<S extends TSubscriptionRef>(
  subscriptions: readonly S[],
  event: TWebhookEventType,
): S[] {
  return subscriptions.filter((s) => s.events.includes(event));
}

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
 * listing the type, the envelope serialised once, and an outbox event per delivery for the delivery
 * function. Nothing is sent before the transaction commits. Build `payload` with `webhookPayload[event]`.
 * The raw-SQL screening writes the same rows with webhookRows (lib/screening/sql/webhook-rows.ts). Answers the
 * number of deliveries created.
 */
export async function emitWebhookEvent<E extends TWebhookEventType>(
  tx: Tx,
  { clientId, event, payload, timestamp = Date.now() }: TWebhookEvent<E> & { clientId: string },
): Promise<number> {
  const subscriptions = listeningSubscriptions(await activeSubscriptions(tx, clientId), event);
  if (subscriptions.length === 0) return 0;
  const body = webhookEnvelope(event, payload, timestamp);
  const outboxEventId = await enqueue(tx, {
    clientId,
    name: WEBHOOK_EMITTED_EVENT,
    data: emittedEventData(event, timestamp),
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
