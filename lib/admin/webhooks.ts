// Webhook subscriptions and the delivery log for admins; delivery itself belongs to lib/webhooks.
import { randomBytes } from "node:crypto";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { parseWith } from "@/lib/validation/parse";
import { writeAudit } from "@/lib/admin/audit";
import type { TCreateWebhookInput, TDeliveryQuery } from "@/lib/admin/schemas";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { allowedEventTypes } from "@/lib/webhooks/event-types";
import { redeliverFailedWebhooks, redeliverWebhook, retryWebhookNow } from "@/lib/webhooks/redeliver-webhook";
import { ZCreateWebhook } from "@/lib/webhooks/schemas";
import { productionRefusal } from "@/lib/webhooks/url-guard";

export type TSubscriptionView = {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: number;
  disabledAt: number | null;
  /** Outside production: why production would refuse this target, or null. */
  productionWarning: string | null;
};

export async function listWebhookSubscriptions(
  user: TSessionUser,
): Promise<{ subscriptions: TSubscriptionView[]; allowedEvents: string[] }> {
  const [rows, client] = await Promise.all([
    prisma.webhookSubscription.findMany({
      where: { clientId: user.clientId },
      orderBy: [{ active: "desc" }, { createdAt: "desc" }],
      take: 500,
      select: { id: true, url: true, events: true, active: true, createdAt: true, disabledAt: true },
    }),
    prisma.client.findUniqueOrThrow({ where: { id: user.clientId }, select: { type: true } }),
  ]);
  return {
    subscriptions: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.getTime(),
      disabledAt: r.disabledAt?.getTime() ?? null,
      productionWarning: productionRefusal(r.url),
    })),
    allowedEvents: [...allowedEventTypes(client.type)],
  };
}

/**
 * Same validation as POST /v1/webhooks (the dashboard route also asks a typed secret for 32 characters); a
 * blank secret is replaced by 32 random bytes, returned this once.
 */
export async function createWebhookSubscription(
  user: TSessionUser,
  input: TCreateWebhookInput,
): Promise<{
  id: string;
  url: string;
  events: string[];
  secret: string | null;
  productionWarning: string | null;
}> {
  const generated = input.secret?.trim() ? null : `whsec_${randomBytes(32).toString("base64url")}`;
  const secret = generated ?? input.secret!.trim();
  const body = parseWith(ZCreateWebhook, { url: input.url, events: input.events, secret });
  const client = await prisma.client.findUniqueOrThrow({
    where: { id: user.clientId },
    select: { type: true },
  });
  const created = await prisma.$transaction(async (tx) => {
    const row = await createSubscription({ clientId: user.clientId, clientType: client.type, ...body }, tx);
    await writeAudit(tx, user, {
      action: "webhook.created",
      entityType: "webhook_subscription",
      entityId: row.id,
      details: { url: row.url, events: row.events },
    });
    return row;
  });
  return { ...created, secret: generated, productionWarning: productionRefusal(created.url) };
}

export async function disableWebhookSubscription(
  user: TSessionUser,
  { id }: { id: string },
): Promise<{ disabled: boolean }> {
  return prisma.$transaction(async (tx) => {
    const sub = await tx.webhookSubscription.findFirst({
      where: { clientId: user.clientId, id },
      select: { active: true },
    });
    if (!sub) throw notFound("/subscriptionId", "Subscription not found");
    if (!sub.active) return { disabled: false };
    const now = new Date();
    await tx.webhookSubscription.update({
      where: { id },
      data: { active: false, disabledAt: now, updatedAt: now },
    });
    await writeAudit(tx, user, {
      action: "webhook.disabled",
      entityType: "webhook_subscription",
      entityId: id,
    });
    return { disabled: true };
  });
}

export type TDeliveryState = "delivered" | "failed" | "retrying" | "pending";

export function deliveryState(d: { status: string; attempts: number }): TDeliveryState {
  if (d.status === "delivered" || d.status === "failed") return d.status;
  return d.attempts > 0 ? "retrying" : "pending";
}

export type TDeliveryView = {
  id: string;
  subscriptionId: string;
  url: string | null;
  eventType: string;
  status: string;
  /** What the log shows: retrying = failed at least once, next attempt scheduled. */
  state: TDeliveryState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  createdAt: number;
  attemptLog: Array<{
    attempt: number;
    startedAt: number;
    durationMs: number;
    responseStatus: number | null;
    error: string | null;
  }>;
};

/** Newest first, keyset-paginated on (createdAt, id) so deep pages cost the same as the first. */
export async function listWebhookDeliveries(
  user: TSessionUser,
  query: TDeliveryQuery,
): Promise<{ deliveries: TDeliveryView[]; nextCursor: string | null }> {
  let before: { createdAt: Date; id: string } | null = null;
  if (query.before) {
    const row = await prisma.webhookDelivery.findFirst({
      where: { clientId: user.clientId, id: query.before },
      select: { createdAt: true, id: true },
    });
    if (row) before = row;
  }
  const rows = await prisma.webhookDelivery.findMany({
    where: {
      clientId: user.clientId,
      ...(query.status && query.status !== "failing" && { status: query.status }),
      ...(query.subscriptionId && { subscriptionId: query.subscriptionId }),
      AND: [
        query.status === "failing"
          ? { OR: [{ status: "failed" }, { status: "pending", attempts: { gt: 0 } }] }
          : {},
        before
          ? {
              OR: [
                { createdAt: { lt: before.createdAt } },
                { createdAt: before.createdAt, id: { lt: before.id } },
              ],
            }
          : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    include: { attemptLog: { orderBy: { attempt: "asc" }, take: 50 } },
  });
  const page = rows.slice(0, query.limit);
  const subIds = [...new Set(page.map((d) => d.subscriptionId))];
  const subs = subIds.length
    ? await prisma.webhookSubscription.findMany({
        where: { clientId: user.clientId, id: { in: subIds } },
        select: { id: true, url: true },
      })
    : [];
  const urls = new Map(subs.map((s) => [s.id, s.url]));
  return {
    deliveries: page.map((d) => ({
      id: d.id,
      subscriptionId: d.subscriptionId,
      url: urls.get(d.subscriptionId) ?? null,
      eventType: d.eventType,
      status: d.status,
      state: deliveryState(d),
      attempts: d.attempts,
      lastError: d.lastError,
      nextAttemptAt: d.nextAttemptAt?.getTime() ?? null,
      deliveredAt: d.deliveredAt?.getTime() ?? null,
      createdAt: d.createdAt.getTime(),
      attemptLog: d.attemptLog.map((a) => ({
        attempt: a.attempt,
        startedAt: a.startedAt.getTime(),
        durationMs: a.durationMs,
        responseStatus: a.responseStatus,
        error: a.error,
      })),
    })),
    nextCursor: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

export async function redeliverDelivery(
  user: TSessionUser,
  { deliveryId }: { deliveryId: string },
): Promise<{ id: string; status: string; requeued: boolean }> {
  return prisma.$transaction(async (tx) => {
    const result = await redeliverWebhook({ clientId: user.clientId, deliveryId }, tx);
    if (result.requeued) {
      await writeAudit(tx, user, {
        action: "webhook.redelivered",
        entityType: "webhook_delivery",
        entityId: deliveryId,
      });
    }
    return result;
  });
}

/** "Retry now" on a retrying delivery: its next attempt at once instead of at its scheduled time. */
export async function retryDeliveryNow(
  user: TSessionUser,
  { deliveryId }: { deliveryId: string },
): Promise<{ id: string; status: string; requeued: boolean }> {
  return prisma.$transaction(async (tx) => {
    const result = await retryWebhookNow({ clientId: user.clientId, deliveryId }, tx);
    if (result.requeued) {
      await writeAudit(tx, user, {
        action: "webhook.retried_now",
        entityType: "webhook_delivery",
        entityId: deliveryId,
      });
    }
    return result;
  });
}

/** "Redeliver all failed" of one subscription, audited once with the count. */
export async function redeliverFailedDeliveries(
  user: TSessionUser,
  { subscriptionId }: { subscriptionId: string },
): Promise<{ requeued: number }> {
  return prisma.$transaction(async (tx) => {
    const result = await redeliverFailedWebhooks({ clientId: user.clientId, subscriptionId }, tx);
    if (result.requeued > 0) {
      await writeAudit(tx, user, {
        action: "webhook.redelivered_failed",
        entityType: "webhook_subscription",
        entityId: subscriptionId,
        details: { deliveries: result.requeued },
      });
    }
    return result;
  });
}
