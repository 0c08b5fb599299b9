import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { cachedRules } from "@/lib/screening/hot/config";
import type { TMerchant } from "@/lib/merchants/schemas";
import { upsertMerchant } from "@/lib/merchants/upsert-merchant";
import { assessment, storedMerchant, type TRiskAssessment } from "@/lib/screening/assessment";
import { screenMerchantHot } from "@/lib/screening/hot/screen-party";
import { runRules } from "@/lib/screening/run-rules";
import { TX_OPTIONS } from "@/lib/screening/screen-transaction";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/** Merchant risk assessment: stores the merchant record (with history) and screens it. */
/** The raw-SQL path (lib/screening/hot/screen-party.ts): one read, one write statement. */
export async function screenMerchant(args: {
  client: TClientContext;
  body: TMerchant;
}): Promise<TRiskAssessment> {
  return screenMerchantHot(args);
}

/** The Prisma path it replaced, kept callable for the equivalence test. */
export async function screenMerchantPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TMerchant;
}): Promise<TRiskAssessment> {
  const clientId = client.id;
  const rules = await cachedRules(client, "merchant");
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    await upsertMerchant(tx, { clientId, merchant: body });
    const stored = await tx.merchant.findUniqueOrThrow({ where: { clientId_id: { clientId, id: body.id } } });
    const result = await runRules(tx, {
      clientId,
      rules,
      subject: "merchant",
      subjectId: body.id,
      timestamp: body.timestamp,
      // the stored record: its `timestamp` is the first one received for the id (Merchant rule 2)
      variables: { merchant: storedMerchant(stored)! },
    });
    const answer = assessment(body.id, result, now);
    await tx.merchant.update({
      where: { clientId_id: { clientId, id: body.id } },
      data: {
        riskLevel: answer.riskLevel,
        recommendedAction: answer.recommendedAction,
        assessedAt: now,
        decisionId: result.decisionId,
      },
    });
    await emitWebhookEvent(tx, {
      clientId,
      event: "merchant.screened",
      payload: webhookPayload["merchant.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}
