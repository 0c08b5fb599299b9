import type { TClientContext } from "@/lib/auth/api-keys";
import { updateTransactionHot } from "@/lib/screening/hot/update-transaction";
import type { TTransactionAssessment } from "@/lib/screening/screen-transaction";
import type { TTransactionUpdate } from "@/lib/transactions/schemas";

/**
 * Applies a status/feedback update and partial payment-method changes to a stored transaction,
 * keeping the history. With transactionUpdateMonitoring the updated transaction is screened again.
 * Runs on the raw-SQL path (lib/screening/hot/update-transaction.ts), with the same rows as
 * updateTransactionPrisma.
 */
export async function updateTransaction(args: {
  client: TClientContext;
  body: TTransactionUpdate;
}): Promise<{ status: "Success" } | TTransactionAssessment> {
  return updateTransactionHot(args);
}
