import type { TDashboardActor } from "@/lib/alerts/actor";
import { confirmTransaction, type TConfirmation } from "@/lib/transactions/confirm-transaction";

/** Marks a transaction as confirmed fraud and emits transaction.confirmedFraud. */
export function confirmFraud(input: {
  clientId: string;
  transactionId: string;
  feedback?: string;
  closeAlerts?: boolean;
  confirmer: TDashboardActor;
}): Promise<TConfirmation> {
  return confirmTransaction({ ...input, kind: "fraud" });
}
