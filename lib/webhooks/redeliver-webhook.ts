import { prisma, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound, validationError } from "@/lib/errors/domain-error";
import { WEBHOOK_DELIVERY_EVENT } from "@/lib/webhooks/emit";
import type { TDeliveryStatus } from "@/lib/webhooks/send-delivery-attempt";

type TRequeueResult = { id: string; status: TDeliveryStatus; requeued: boolean };

/**
 * The deliveries a requeue takes, and what it does to them: a failed one becomes pending again with
 * a fresh retry schedule; a retrying one (pending, failed at least once) keeps its state and has its
 * next attempt now instead of at its scheduled time.
 */
const REQUEUE = {
  failed: {
    state: Prisma.sql`status = 'failed'`,
    set: Prisma.sql`status = 'pending', "nextAttemptAt" = now(), "lastError" = NULL, "updatedAt" = now()`,
  },
  retrying: {
    state: Prisma.sql`status = 'pending' AND attempts > 0`,
    set: Prisma.sql`"nextAttemptAt" = now(), "updatedAt" = now()`,
  },
} as const;

/**
 * Requeues the client's deliveries in `state` that `only` selects (one delivery, or every delivery of
 * a subscription), in one statement: each one updated and given an outbox row requesting its attempt
 * now. Answers how many were requeued.
 */
async function requeueDeliveries(
  tx: Tx,
  {
    clientId,
    state,
    only,
  }: {
    clientId: string;
    state: keyof typeof REQUEUE;
    only: { deliveryId: string } | { subscriptionId: string };
  },
): Promise<number> {
  const { state: inState, set } = REQUEUE[state];
  const which =
    "deliveryId" in only
      ? Prisma.sql`id = ${only.deliveryId}`
      : Prisma.sql`"subscriptionId" = ${only.subscriptionId}`;
  const rows = await tx.$queryRaw<Array<{ n: number }>>`
    WITH requeued AS (
      UPDATE webhook_deliveries SET ${set}
      WHERE "clientId" = ${clientId} AND ${which} AND ${inState}
      RETURNING id
    ), queued AS (
      INSERT INTO outbox_events (id, "clientId", name, data)
      SELECT gen_random_uuid()::text, ${clientId}, ${WEBHOOK_DELIVERY_EVENT}, jsonb_build_object('deliveryId', id)
      FROM requeued
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM queued`;
  return rows[0]?.n ?? 0;
}

/** One delivery requeued (`requeued: true`), or left as it is with its status; 404 for none of the client's. */
async function requeueDelivery(
  { clientId, deliveryId, state }: { clientId: string; deliveryId: string; state: keyof typeof REQUEUE },
  db?: Tx,
): Promise<TRequeueResult> {
  const run = async (tx: Tx): Promise<TRequeueResult> => {
    if ((await requeueDeliveries(tx, { clientId, state, only: { deliveryId } })) === 1)
      return { id: deliveryId, status: "pending", requeued: true };
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
 * Admin action: sends a failed delivery again, with the same delivery id and body and a fresh
 * retry schedule. Deliveries that are pending or delivered are left alone (`requeued: false`).
 */
export function redeliverWebhook(
  { clientId, deliveryId }: { clientId: string; deliveryId: string },
  db?: Tx,
): Promise<TRequeueResult> {
  return requeueDelivery({ clientId, deliveryId, state: "failed" }, db);
}

/**
 * Admin action: the next attempt of a delivery that is retrying (failed at least once, waiting for
 * its next attempt) made now rather than at its scheduled time, on a fresh retry schedule. The run
 * that was waiting for the old time finds the delivery moved on when it wakes and stops
 * (`sendDeliveryAttempt`'s `dueAt`), so the delivery is never on two schedules at once.
 */
export function retryWebhookNow(
  { clientId, deliveryId }: { clientId: string; deliveryId: string },
  db?: Tx,
): Promise<TRequeueResult> {
  return requeueDelivery({ clientId, deliveryId, state: "retrying" }, db);
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
    return { requeued: await requeueDeliveries(tx, { clientId, state: "failed", only: { subscriptionId } }) };
  };
  return db ? run(db) : prisma.$transaction(run);
}
