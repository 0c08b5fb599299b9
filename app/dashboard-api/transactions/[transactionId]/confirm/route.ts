// POST /dashboard-api/transactions/:transactionId/confirm: mark as fraud or chargeback with a note (emits the webhook), closing its open alerts
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { confirmChargeback } from "@/lib/transactions/confirm-chargeback";
import { confirmFraud } from "@/lib/transactions/confirm-fraud";
import { ZConfirmTransaction } from "@/lib/transactions/confirm-transaction";

export const POST = dashboardRoute<{ transactionId: string }>(
  "transactions.confirm",
  async ({ user, params, body }) => {
    const { kind, ...confirmation } = await body(ZConfirmTransaction);
    const input = {
      ...confirmation,
      clientId: user.clientId,
      transactionId: params.transactionId,
      confirmer: user,
    };
    return kind === "fraud" ? confirmFraud(input) : confirmChargeback(input);
  },
);
