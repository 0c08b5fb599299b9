import { prisma } from "@/lib/db";
import { DomainError } from "@/lib/errors/domain-error";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { settleAlerts } from "@/lib/alerts/settle-alerts";
import { assertOpen, lockCase, startReview } from "@/lib/cases/case-access";
import type { TReviewCaseAlerts } from "@/lib/cases/schemas";

/**
 * Dashboard: clears or confirms the selected alerts of a case (or all of its unsettled ones), each as a
 * manual review would (alert.reviewed), with the reviewer's note. Ids outside the case are not found.
 */
export async function reviewCaseAlerts(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TReviewCaseAlerts,
): Promise<{ id: string; settled: number }> {
  const { clientId, actor, status, alertIds, note } = input;
  const settled = await prisma.$transaction(async (tx) => {
    const row = await lockCase(tx, input);
    assertOpen(row);
    if (alertIds) {
      const found = await tx.alert.findMany({
        where: { clientId, caseId: row.id, id: { in: alertIds } },
        select: { id: true },
      });
      const known = new Set(found.map((a) => a.id));
      const missing = alertIds.flatMap((id, i) => (known.has(id) ? [] : [`/alertIds/${i}: Alert not found`]));
      if (missing.length) throw new DomainError("not_found", "Alert not found", missing);
    }
    const done = await settleAlerts(tx, {
      clientId,
      where: { caseId: row.id, ...(alertIds && { id: { in: alertIds } }) },
      status,
      feedback: note,
      reviewer: actor,
      cause: "case.alerts_reviewed",
    });
    await startReview(tx, row, actor);
    return done.length;
  });
  return { id: input.caseId, settled };
}
