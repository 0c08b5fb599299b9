import type { TClientContext } from "@/lib/auth/api-keys";
import type { Tx } from "@/lib/db";
import { screenTransactionHot } from "@/lib/screening/hot/screen-transaction";
import { assessment, type TRiskAssessment } from "@/lib/screening/assessment";
import type { TTransaction } from "@/lib/transactions/schemas";

export type TTransactionAssessment = TRiskAssessment & { transactionId: string; status: string };

export const TX_OPTIONS = { timeout: 20_000, maxWait: 10_000 } as const;

function response(row: { id: string; status: string }, result: TRiskAssessment): TTransactionAssessment {
  return { ...result, transactionId: row.id, status: row.status };
}

/** The stored assessment of a transaction, as first answered (GET and idempotent resubmission). */
export async function storedTransactionAssessment(
  db: Tx,
  { clientId, id }: { clientId: string; id: string },
): Promise<TTransactionAssessment | null> {
  const row = await db.transaction.findUnique({ where: { clientId_id: { clientId, id } } });
  if (!row) return null;
  const decision = row.decisionId
    ? await db.decision.findUnique({ where: { id: row.decisionId }, select: { response: true } })
    : null;
  const triggered = ((decision?.response as { triggered?: unknown[] } | null)?.triggered ?? []) as never[];
  return response(
    row,
    assessment(
      row.id,
      { riskLevel: row.riskLevel, recommendedAction: row.recommendedAction, triggered },
      row.assessedAt,
    ),
  );
}

/**
 * Screens a transaction (POST /v1/transaction): the raw-SQL path of lib/screening/hot.
 */
export async function screenTransaction(args: {
  client: TClientContext;
  body: TTransaction;
}): Promise<TTransactionAssessment> {
  return screenTransactionHot(args);
}
