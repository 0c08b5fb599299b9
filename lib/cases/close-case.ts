import { prisma, type Tx } from "@/lib/db";
import type { Case } from "@/lib/generated/prisma/client";
import { actorLabel, type TDashboardActor } from "@/lib/alerts/actor";
import { settleAlerts } from "@/lib/alerts/settle-alerts";
import { assertOpen, lockCase, setCaseStatus } from "@/lib/cases/case-access";
import type { TCaseOutcome, TCloseCase } from "@/lib/cases/schemas";
import { caseSubject } from "@/lib/cases/serialize-case";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/** The verdict a closure gives the alerts still waiting for one. */
const ALERT_VERDICT: Record<TCaseOutcome, "cleared" | "confirmed"> = {
  false_positive: "cleared",
  other: "cleared",
  confirmed_fraud: "confirmed",
  reported: "confirmed",
};

/**
 * Closes a locked, not yet closed case: its unsettled alerts get the outcome's verdict (alert.reviewed
 * each), the case its outcome and note, its history the closure, the client case.closed, all in the
 * caller's transaction.
 */
export async function closeLockedCase(
  tx: Tx,
  row: Case,
  { outcome, note, actor }: { outcome: TCaseOutcome; note: string; actor: TDashboardActor },
): Promise<void> {
  const { clientId } = row;
  await settleAlerts(tx, {
    clientId,
    where: { caseId: row.id },
    status: ALERT_VERDICT[outcome],
    feedback: note,
    reviewer: actor,
    cause: `case.closed.${outcome}`,
  });
  const closedAt = new Date();
  await setCaseStatus(tx, row, {
    to: "closed",
    actor,
    note,
    type: "closed",
    data: { outcome, closeNote: note, closedAt, closedById: actor.id },
    details: { outcome },
  });
  const alerts = await tx.alert.findMany({
    where: { clientId, caseId: row.id },
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  await emitWebhookEvent(tx, {
    clientId,
    event: "case.closed",
    payload: webhookPayload["case.closed"]({
      caseId: row.id,
      subject: caseSubject(row),
      priority: row.priority,
      outcome,
      note,
      closedBy: actorLabel(actor),
      closedAt,
      reportId: row.reportId,
      alertIds: alerts.map((a) => a.id),
    }),
    timestamp: closedAt.getTime(),
  });
  await tx.auditLog.create({
    data: {
      clientId,
      actorType: "dashboard_user",
      actorId: actor.id,
      action: "case.closed",
      entityType: "case",
      entityId: row.id,
      details: { from: row.status, outcome, note },
      createdAt: closedAt,
    },
  });
}

/** Dashboard: closes a case with an outcome and the reviewer's note (required). */
export async function closeCase(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TCloseCase,
): Promise<{ id: string; status: "closed" }> {
  const { outcome, note } = input;
  await prisma.$transaction(async (tx) => {
    const row = await lockCase(tx, input);
    assertOpen(row);
    await closeLockedCase(tx, row, { outcome, note, actor: input.actor });
  });
  return { id: input.caseId, status: "closed" };
}

/**
 * Filing a report closes the case escalated into it as `reported` (in the filing's transaction), with
 * the filing officer as the one who closed it.
 */
export async function closeReportedCase(
  tx: Tx,
  {
    clientId,
    reportId,
    officerId,
    reference,
  }: { clientId: string; reportId: string; officerId: string | null; reference: string },
): Promise<void> {
  const linked = await tx.case.findFirst({
    where: { clientId, reportId, status: { not: "closed" } },
    select: { id: true },
  });
  if (!linked || !officerId) return;
  const officer = await tx.dashboardUser.findFirst({
    where: { clientId, id: officerId },
    select: { id: true, email: true, name: true },
  });
  if (!officer) return;
  const row = await lockCase(tx, { clientId, caseId: linked.id });
  if (row.status === "closed") return;
  await closeLockedCase(tx, row, {
    outcome: "reported",
    note: `Report ${reportId} filed with the FIU (reference ${reference})`,
    actor: officer,
  });
}
