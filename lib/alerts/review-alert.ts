import { prisma } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors/domain-error";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import type { TReviewAlert, TReviewStatus } from "@/lib/alerts/schemas";
import { emitAlertReviewed, UNSETTLED_ALERT_STATUSES } from "@/lib/alerts/settle-alerts";

export type TReviewedAlert = {
  id: string;
  transactionId: string;
  ruleId: string;
  status: TReviewStatus;
  reviewedBy: string;
  reviewedAt: number;
  feedback: string;
};

/**
 * Records a reviewer's verdict on an alert and emits alert.reviewed, with an audit row, in one
 * transaction. An escalated alert may be reviewed again (an escalation is settled later); a cleared or
 * confirmed one is read-only. The note is required. Another client's alert id is not found.
 */
export async function reviewAlert(
  input: { clientId: string; alertId: string; reviewer: TDashboardActor } & TReviewAlert,
): Promise<TReviewedAlert> {
  const { clientId, reviewer, alertId, status, feedback } = input;
  return prisma.$transaction(async (tx) => {
    const alert = await tx.alert.findFirst({
      where: { id: alertId, clientId },
      select: { id: true, status: true, transactionId: true, ruleId: true, caseId: true },
    });
    if (!alert) throw notFound("/alertId", "Alert not found");
    // cleared and confirmed alerts are the record of a decision (their case says so too): read-only
    if (!(UNSETTLED_ALERT_STATUSES as readonly string[]).includes(alert.status))
      throw conflict(`The alert is ${alert.status}; a settled alert is read-only`);
    const reviewedAt = new Date();
    const reviewedBy = actorLabel(reviewer);
    // compare-and-set on the status read above: of two reviewers settling the same alert at once, the
    // second waits for the first to commit, then matches nothing and is refused like any late verdict
    const { count } = await tx.alert.updateMany({
      where: { id: alertId, clientId, status: alert.status },
      data: { status, reviewedBy, reviewedAt, feedback },
    });
    if (count === 0) {
      const now = await tx.alert.findFirst({ where: { id: alertId, clientId }, select: { status: true } });
      throw conflict(`The alert was reviewed meanwhile and is now ${now?.status ?? "gone"}; reload it`);
    }
    await emitAlertReviewed(tx, clientId, alert, { status, reviewedBy, reviewedAt, feedback });
    await tx.auditLog.create({
      data: {
        clientId,
        actorType: "dashboard_user",
        actorId: reviewer.id,
        action: "alert.reviewed",
        entityType: "alert",
        entityId: alertId,
        details: {
          from: alert.status,
          to: status,
          feedback,
          transactionId: alert.transactionId,
          ruleId: alert.ruleId,
        },
        createdAt: reviewedAt,
      },
    });
    if (alert.caseId)
      await tx.caseEvent.create({
        data: {
          clientId,
          caseId: alert.caseId,
          type: "alerts_reviewed",
          actorId: reviewer.id,
          note: feedback,
          details: { status, alertIds: [alertId], cause: "alert.reviewed" },
          createdAt: reviewedAt,
        },
      });
    return {
      id: alertId,
      transactionId: alert.transactionId,
      ruleId: alert.ruleId,
      status,
      reviewedBy,
      reviewedAt: reviewedAt.getTime(),
      feedback,
    };
  });
}
