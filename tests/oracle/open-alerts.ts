import type { Tx } from "@/lib/db";
import type { TFiredRule } from "@/lib/screening/run-rules";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { webhookPayload } from "@/lib/webhooks/payloads";

/**
 * Opens one alert per (transaction, active rule that fired); a rule firing again on the same
 * transaction (resubmission, update) opens nothing and emits nothing. Returns the number opened.
 */
export async function openAlerts(
  tx: Tx,
  {
    clientId,
    transactionId,
    userId,
    decisionId,
    fired,
    at,
  }: {
    clientId: string;
    transactionId: string;
    userId: string | null;
    decisionId: string;
    fired: TFiredRule[];
    at: number;
  },
): Promise<number> {
  const active = fired.filter((f) => f.status === "active");
  if (active.length === 0) return 0;
  const createdAt = new Date(at);
  const opened = await tx.alert.createManyAndReturn({
    data: active.map((f) => ({
      clientId,
      transactionId,
      userId,
      ruleRef: f.ruleRef,
      ruleId: f.id,
      ruleVersionId: f.versionId,
      ruleName: f.name,
      level: f.level,
      reason: f.reason,
      recommendedAction: f.recommendedAction,
      decisionId,
      createdAt,
    })),
    skipDuplicates: true,
    select: { ruleRef: true, createdAt: true },
  });
  // each alert is its fired rule's copy: the payload is built from the rule, as the raw-SQL path does
  const byRef = new Map(active.map((f) => [f.ruleRef, f]));
  for (const alert of opened) {
    await emitWebhookEvent(tx, {
      clientId,
      event: "alert.created",
      payload: webhookPayload["alert.created"]({
        transactionId,
        rule: byRef.get(alert.ruleRef)!,
        alertedAt: alert.createdAt,
      }),
    });
  }
  return opened.length;
}
