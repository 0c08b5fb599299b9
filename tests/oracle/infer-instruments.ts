import type { Tx } from "@/lib/db";
import { instrumentCandidates } from "@/lib/screening/infer-instruments";
import type { TTransaction } from "@/lib/transactions/schemas";

/**
 * Records the payment instruments seen on a transaction as inferred and linked to its user,
 * unless the client already told us about them (explicit instruments are never overwritten).
 */
export async function inferInstruments(
  tx: Tx,
  {
    clientId,
    userId,
    transaction,
    at,
  }: { clientId: string; userId: string; transaction: TTransaction; at: Date },
): Promise<void> {
  const candidates = instrumentCandidates(transaction);
  if (candidates.length === 0) return;
  await tx.paymentInstrument.createMany({
    skipDuplicates: true,
    data: candidates.map((c) => ({
      clientId,
      id: c.id,
      userId,
      status: "linked",
      method: c.method,
      data: { id: c.id, userId, method: c.method, [c.method]: c.data } as object,
      inferred: true,
      riskLevel: "n/a",
      recommendedAction: "ALLOW",
      assessedAt: at,
      occurredAt: new Date(transaction.timestamp),
    })),
  });
}
