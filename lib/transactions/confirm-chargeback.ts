import type { TDashboardActor } from "@/lib/alerts/actor";
import {
  confirmTransaction,
  type TConfirmation,
  type TConfirmTransaction,
} from "@/lib/transactions/confirm-transaction";

/** Marks a transaction as a chargeback (status CHARGEBACK) and emits transaction.confirmedChargeback. */
export function confirmChargeback(
  input: { clientId: string; transactionId: string; confirmer: TDashboardActor } & Omit<
    TConfirmTransaction,
    "kind"
  >,
): Promise<TConfirmation> {
  return confirmTransaction({ ...input, kind: "chargeback" });
}
