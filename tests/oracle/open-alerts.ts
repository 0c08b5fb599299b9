import type { Tx } from "@/lib/db";
import type { TFiredRule } from "@/lib/screening/run-rules";
import { emitWebhook } from "@/lib/webhooks/emit";

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
    select: {
      ruleId: true,
      ruleName: true,
      level: true,
      reason: true,
      recommendedAction: true,
      createdAt: true,
    },
  });
  for (const alert of opened) {
    await emitWebhook(tx, {
      clientId,
      event: "alert.created",
      payload: {
        transactionId,
        ruleId: alert.ruleId,
        ruleName: alert.ruleName,
        level: alert.level,
        reason: alert.reason,
        recommendedAction: alert.recommendedAction,
        alertedAt: alert.createdAt.getTime(),
      },
    });
  }
  return opened.length;
}
