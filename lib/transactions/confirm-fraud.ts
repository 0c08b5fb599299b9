import type { TDashboardActor } from "@/lib/alerts/actor";
import {
  confirmTransaction,
  type TConfirmation,
  type TConfirmTransaction,
} from "@/lib/transactions/confirm-transaction";

/** Marks a transaction as confirmed fraud and emits transaction.confirmedFraud. */
export function confirmFraud(
  input: { clientId: string; transactionId: string; confirmer: TDashboardActor } & Omit<
    TConfirmTransaction,
    "kind"
  >,
): Promise<TConfirmation> {
  return confirmTransaction({ ...input, kind: "fraud" });
}
