import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import type { TReviewStatus } from "@/lib/alerts/schemas";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

export type TSettledAlert = { id: string; transactionId: string; ruleId: string; caseId: string | null };

/** The alert.reviewed event of one verdict, in the transaction that recorded it. */
export async function emitAlertReviewed(
  tx: Tx,
  clientId: string,
  alert: { transactionId: string; ruleId: string },
  review: { status: TReviewStatus; reviewedBy: string; reviewedAt: Date; feedback: string },
): Promise<void> {
  await emitWebhookEvent(tx, {
    clientId,
    event: "alert.reviewed",
    payload: webhookPayload["alert.reviewed"]({ alert, ...review }),
    timestamp: review.reviewedAt.getTime(),
  });
}

/** Alerts still waiting for a verdict: open, or escalated and not settled yet. */
export const UNSETTLED_ALERT_STATUSES = ["open", "escalated"] as const;

/**
 * Gives the alerts matching `where` that are still unsettled the same verdict, as a manual review does
 * for each (status, reviewer, note, alert.reviewed, audit row), and records it on their cases. Call it
 * inside the transaction of the action that decided it (a fraud confirmation, a block, a case closure).
 */
export async function settleAlerts(
  tx: Tx,
  {
    clientId,
    where,
    status,
    feedback,
    reviewer,
    cause,
  }: {
    clientId: string;
    where: Pick<Prisma.AlertWhereInput, "id" | "caseId" | "transactionId" | "userId">;
    status: TReviewStatus;
    feedback: string;
    reviewer: TDashboardActor;
    /** What decided it, for the audit and the case history (e.g. "transaction.confirmedFraud"). */
    cause: string;
  },
): Promise<TSettledAlert[]> {
  // escalating settles only open alerts; a verdict settles escalated ones too
  const from = status === "escalated" ? ["open"] : [...UNSETTLED_ALERT_STATUSES];
  const alerts = await tx.alert.findMany({
    where: { ...where, clientId, status: { in: from } },
    select: { id: true, transactionId: true, ruleId: true, caseId: true, status: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (alerts.length === 0) return [];
  const reviewedAt = new Date();
  const reviewedBy = actorLabel(reviewer);
  // the status condition again: a concurrent review that won keeps its verdict
  await tx.alert.updateMany({
    where: { clientId, id: { in: alerts.map((a) => a.id) }, status: { in: from } },
    data: { status, reviewedBy, reviewedAt, feedback },
  });
  for (const alert of alerts)
    await emitAlertReviewed(tx, clientId, alert, { status, reviewedBy, reviewedAt, feedback });
  await tx.auditLog.createMany({
    data: alerts.map((alert) => ({
      clientId,
      actorType: "dashboard_user",
      actorId: reviewer.id,
      action: "alert.reviewed",
      entityType: "alert",
      entityId: alert.id,
      details: {
        from: alert.status,
        to: status,
        feedback,
        cause,
        transactionId: alert.transactionId,
        ruleId: alert.ruleId,
      },
      createdAt: reviewedAt,
    })),
  });
  const byCase = new Map<string, string[]>();
  for (const a of alerts) if (a.caseId) byCase.set(a.caseId, [...(byCase.get(a.caseId) ?? []), a.id]);
  if (byCase.size)
    await tx.caseEvent.createMany({
      data: [...byCase].map(([caseId, alertIds]) => ({
        clientId,
        caseId,
        type: "alerts_reviewed",
        actorId: reviewer.id,
        note: feedback,
        details: { status, alertIds, cause },
        createdAt: reviewedAt,
      })),
    });
  return alerts.map(({ id, transactionId, ruleId, caseId }) => ({ id, transactionId, ruleId, caseId }));
}
