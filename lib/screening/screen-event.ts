import type { TClientContext } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db";
import { cachedRules } from "@/lib/screening/hot/config";
import { screenEventHot } from "@/lib/screening/hot/screen-event";
import type { TEvent } from "@/lib/events/schemas";
import { upsertMerchant } from "@/lib/merchants/upsert-merchant";
import { assessment, type TRiskAssessment, ruleVariables } from "@/lib/screening/assessment";
import { runRules } from "@/lib/screening/run-rules";
import { TX_OPTIONS } from "@/lib/screening/screen-transaction";
import { upsertUser } from "@/lib/users/upsert-user";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/**
 * Stores a non-monetary event (inline user/merchant upserted). With eventRules it is screened and
 * event.screened emitted; without, it is stored with no assessment. Runs on the raw-SQL path
 * (lib/screening/hot/screen-event.ts).
 */
export async function screenEvent(args: {
  client: TClientContext;
  body: TEvent;
}): Promise<TRiskAssessment | { id: string; status: "success" }> {
  return screenEventHot(args);
}

/** The Prisma path it replaced, kept as the reference of tests/integration/pi-event-equivalence.test.ts. */
export async function screenEventPrisma({
  client,
  body,
}: {
  client: TClientContext;
  body: TEvent;
}): Promise<TRiskAssessment | { id: string; status: "success" }> {
  const clientId = client.id;
  const rules = client.features.has("eventRules") ? await cachedRules(client, "event") : undefined;
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    if (body.user) await upsertUser(tx, { clientId, user: body.user, source: "event" });
    if (body.merchant) await upsertMerchant(tx, { clientId, merchant: body.merchant });
    const userId = body.userId ?? body.user?.id ?? null;
    const merchantId = body.merchantId ?? body.merchant?.id ?? null;
    const occurredAt = new Date(body.timestamp ?? now.getTime());
    const record = { ...body, timestamp: occurredAt.getTime() };
    const columns = {
      type: body.type,
      method: body.method ?? null,
      userId,
      merchantId,
      occurredAt,
      data: record as object,
    };
    await tx.event.upsert({
      where: { clientId_id: { clientId, id: body.id } },
      create: { clientId, id: body.id, ...columns },
      update: { ...columns, riskLevel: null, recommendedAction: null, assessedAt: null, decisionId: null },
    });
    if (!client.features.has("eventRules")) return { id: body.id, status: "success" as const };

    const variables = await ruleVariables(tx, { clientId, userId, merchantId, subject: { event: record } });
    const result = await runRules(tx, {
      clientId,
      rules,
      subject: "event",
      subjectId: body.id,
      timestamp: occurredAt.getTime(),
      variables,
    });
    const answer = assessment(body.id, result, now);
    await tx.event.update({
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
      event: "event.screened",
      payload: webhookPayload["event.screened"](answer),
    });
    return answer;
  }, TX_OPTIONS);
}
