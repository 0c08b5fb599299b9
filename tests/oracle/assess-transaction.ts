import type { Tx } from "@/lib/db";
import type { TFxConversion } from "@/lib/fx/rates";
import type { TLoadedRule } from "@/lib/screening/evaluate-rules";
import { assessment, type TRiskAssessment } from "@/lib/screening/assessment";
import { ruleVariables } from "@/tests/oracle/run-rules";
import { openAlerts } from "@/tests/oracle/open-alerts";
import { runRules } from "@/tests/oracle/run-rules";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/**
 * Screens a stored transaction with the client's transaction rules (on submission, and on update with
 * monitoring): records the decision on the row, opens one alert per newly fired active rule and emits
 * transaction.screened, in the caller's database transaction.
 */
export async function assessTransaction(
  tx: Tx,
  {
    clientId,
    transaction,
    fx,
    userId,
    merchantId,
    occurredAt,
    now,
    rules,
  }: {
    clientId: string;
    /** The transaction as the rules see it: the request's field names. */
    transaction: Record<string, unknown> & { id: string };
    /** Its conversion to the client's base currency (lib/fx), recorded on the decision. */
    fx?: TFxConversion;
    userId: string | null;
    merchantId: string | null;
    occurredAt: number;
    now: Date;
    /** From the in-memory cache when the caller has it (runRules reads them otherwise). */
    rules?: readonly TLoadedRule[];
  },
): Promise<TRiskAssessment> {
  const variables = await ruleVariables(tx, { clientId, userId, merchantId, subject: { transaction } });
  const result = await runRules(tx, {
    clientId,
    subject: "transaction",
    subjectId: transaction.id,
    timestamp: occurredAt,
    variables,
    rules,
    fx,
  });
  const answer = assessment(transaction.id, result, now);
  await tx.transaction.update({
    where: { clientId_id: { clientId, id: transaction.id } },
    data: {
      riskLevel: answer.riskLevel,
      recommendedAction: answer.recommendedAction,
      decisionId: result.decisionId,
      assessedAt: now,
    },
  });
  await openAlerts(tx, {
    clientId,
    transactionId: transaction.id,
    userId,
    decisionId: result.decisionId,
    fired: result.firedActive,
    at: now.getTime(),
  });
  await emitWebhookEvent(tx, {
    clientId,
    event: "transaction.screened",
    payload: webhookPayload["transaction.screened"](answer),
  });
  return answer;
}
