import { prisma } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { storedTransactionAssessment } from "@/lib/screening/screen-transaction";

/** GET /v1/transaction/{id}: the stored assessment, or 404 naming /id. */
export async function getTransactionAssessment({ clientId, id }: { clientId: string; id: string }) {
  const stored = await storedTransactionAssessment(prisma, { clientId, id });
  if (!stored) throw notFound("/id", "Transaction not found");
  return stored;
}
