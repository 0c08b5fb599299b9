import { prisma } from "@/lib/db";
import type { TDeliveryStatus } from "@/lib/webhooks/send-delivery-attempt";

export type TAttemptResult = {
  attempt: number;
  startedAt: number;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  ok: boolean;
};

export type TRecordedDelivery = { status: TDeliveryStatus; attempts: number; nextAttemptAt: number | null };

/**
 * Logs an attempt and moves the delivery on: delivered on success, pending with the next attempt
 * time while retries remain (`retryAt`), failed otherwise. Safe to run twice for one attempt.
 */
export async function recordDeliveryAttempt({
  deliveryId,
  outcome,
  retryAt,
}: {
  deliveryId: string;
  outcome: TAttemptResult;
  retryAt: number | null;
}): Promise<TRecordedDelivery> {
  const status: TDeliveryStatus = outcome.ok ? "delivered" : retryAt === null ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? retryAt : null;
  return prisma.$transaction(async (tx) => {
    const logged = await tx.webhookAttempt.findFirst({
      where: { deliveryId, attempt: outcome.attempt },
      select: { id: true },
    });
    if (!logged) {
      await tx.webhookAttempt.create({
        data: {
          deliveryId,
          attempt: outcome.attempt,
          startedAt: new Date(outcome.startedAt),
          durationMs: outcome.durationMs,
          responseStatus: outcome.responseStatus,
          error: outcome.error,
        },
      });
    }
    const updated = await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        status,
        attempts: outcome.attempt,
        nextAttemptAt: nextAttemptAt === null ? null : new Date(nextAttemptAt),
        lastError: outcome.ok ? null : outcome.error,
        deliveredAt: outcome.ok ? new Date(outcome.startedAt + outcome.durationMs) : undefined,
        updatedAt: new Date(),
      },
      select: { status: true, attempts: true, nextAttemptAt: true },
    });
    return {
      status: updated.status as TDeliveryStatus,
      attempts: updated.attempts,
      nextAttemptAt: updated.nextAttemptAt?.getTime() ?? null,
    };
  });
}
