import { conflict } from "@/lib/errors/domain-error";
import { randomUUID } from "node:crypto";
import { prisma, type Tx } from "@/lib/db";
import type { TDashboardActor } from "@/lib/alerts/actor";
import { settleAlerts } from "@/lib/alerts/settle-alerts";
import { assertOpen, lockCase, setCaseStatus } from "@/lib/cases/case-access";
import type { TEscalateCase } from "@/lib/cases/schemas";
import { insertReport } from "@/lib/reports/create-report";
import { activeSchema } from "@/lib/reports/goaml-xml";
import { indicatorCodes, suggestIndicators } from "@/lib/reports/indicators";
import { readReportProfile, type TCreateReport } from "@/lib/reports/schemas";

/**
 * Escalates a case to the reporting officers: a report draft linked to the case, with the case's user
 * (or merchant), its alerts' transactions and the indicator codes mapped from the rules that fired
 * (Settings), written in one transaction with the case's new status, its open alerts marked escalated
 * (alert.reviewed) and the audit row. Filing that report later closes the case as `reported`.
 */
export async function escalateCase(
  input: { clientId: string; caseId: string; actor: TDashboardActor } & TEscalateCase,
): Promise<{ id: string; status: "escalated"; reportId: string }> {
  const { clientId, actor, note, reportType } = input;
  const reportId = `rpt_${randomUUID()}`;
  await prisma.$transaction(
    async (tx) => {
      const row = await lockCase(tx, input);
      assertOpen(row);
      if (row.status === "escalated" && row.reportId)
        throw conflict("The case is already escalated to a reporting officer");
      const alerts = await tx.alert.findMany({
        where: { clientId, caseId: row.id },
        select: { transactionId: true, ruleId: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      const client = await tx.client.findUniqueOrThrow({
        where: { id: clientId },
        select: { reportingProfile: true },
      });
      const profile = readReportProfile(client.reportingProfile);
      const indicators = suggestIndicators({
        firedRuleIds: alerts.map((a) => a.ruleId),
        mapping: profile.indicatorMapping,
        codes: indicatorCodes(activeSchema(profile).schema),
      }).map((s) => s.code);
      const body: TCreateReport = {
        reportType,
        // The officer's list names reports by title: a person's name reads, a case uuid does not.
        title: `Escalated case: ${await subjectName(tx, clientId, row.subjectType, row.subjectId)}`,
        description: note,
        reason: note,
        indicators,
        transactionIds: [...new Set(alerts.map((a) => a.transactionId))],
        caseOpenedAt: row.createdAt.getTime(),
        ...(row.subjectType === "user" && { userId: row.subjectId }),
        ...(row.subjectType === "merchant" && { merchantId: row.subjectId }),
      } as TCreateReport;
      await insertReport(tx, {
        clientId,
        id: reportId,
        body,
        now: new Date(),
        actor: { type: "dashboard", id: actor.id },
      });
      await settleAlerts(tx, {
        clientId,
        where: { caseId: row.id },
        status: "escalated",
        feedback: note,
        reviewer: actor,
        cause: "case.escalated",
      });
      await setCaseStatus(tx, row, {
        to: "escalated",
        actor,
        note,
        type: "escalated",
        data: { reportId },
        details: { reportId, indicators },
      });
      await tx.auditLog.create({
        data: {
          clientId,
          actorType: "dashboard_user",
          actorId: actor.id,
          action: "case.escalated",
          entityType: "case",
          entityId: row.id,
          details: { from: row.status, reportId, note, indicators },
        },
      });
    },
    { timeout: 30_000 },
  );
  return { id: input.caseId, status: "escalated", reportId };
}

async function subjectName(tx: Tx, clientId: string, type: string, id: string): Promise<string> {
  const where = { clientId_id: { clientId, id } };
  if (type === "merchant") {
    const merchant = await tx.merchant.findUnique({ where, select: { name: true } });
    return merchant ? `${merchant.name} (${id})` : id;
  }
  const user = await tx.user.findUnique({ where, select: { firstName: true, lastName: true } });
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(" ");
  return name ? `${name} (${id})` : id;
}
