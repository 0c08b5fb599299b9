import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { explainDecision, type TRuleExplanation } from "@/lib/transactions/get-transaction-detail";

/** The fired rule of an alert as its decision recorded it (condition, the values that fired it); 404 for another client's id. */
export async function getAlertExplanation({
  clientId,
  alertId,
}: {
  clientId: string;
  alertId: string;
}): Promise<{ id: string; caseId: string | null; explanation: TRuleExplanation | null }> {
  const alert = await prisma.alert.findFirst({
    where: { clientId, id: alertId },
    select: { id: true, ruleId: true, decisionId: true, caseId: true },
  });
  if (!alert) throw notFound("/alertId", "Alert not found");
  const decision = alert.decisionId
    ? await explainDecision({ clientId, decisionId: alert.decisionId })
    : null;
  return {
    id: alert.id,
    caseId: alert.caseId,
    explanation: decision?.fired.find((f) => f.ruleId === alert.ruleId) ?? null,
  };
}
