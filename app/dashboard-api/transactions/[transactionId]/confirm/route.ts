// POST /dashboard-api/transactions/:transactionId/confirm: mark as fraud or chargeback with a note (emits the webhook), closing its open alerts
import { z } from "zod";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { confirmChargeback } from "@/lib/transactions/confirm-chargeback";
import { confirmFraud } from "@/lib/transactions/confirm-fraud";

const ZBody = z.object({
  kind: z.enum(["fraud", "chargeback"]),
  feedback: z.string().optional(),
  closeAlerts: z.boolean().optional(),
});

export const POST = dashboardRoute<{ transactionId: string }>(
  "transactions.confirm",
  async ({ user, params, body }) => {
    const { kind, feedback, closeAlerts } = await body(ZBody);
    const input = {
      clientId: user.clientId,
      transactionId: params.transactionId,
      feedback,
      closeAlerts,
      confirmer: user,
    };
    return kind === "fraud" ? confirmFraud(input) : confirmChargeback(input);
  },
);
