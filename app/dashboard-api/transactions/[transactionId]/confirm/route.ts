// POST /dashboard-api/transactions/:transactionId/confirm: mark as fraud or chargeback with feedback (emits the webhook)
import { z } from "zod";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { confirmChargeback } from "@/lib/transactions/confirm-chargeback";
import { confirmFraud } from "@/lib/transactions/confirm-fraud";

const ZBody = z.object({ kind: z.enum(["fraud", "chargeback"]), feedback: z.string().optional() });

export const POST = dashboardRoute<{ transactionId: string }>(
  "transactions.confirm",
  async ({ user, params, body }) => {
    const { kind, feedback } = await body(ZBody);
    const input = { clientId: user.clientId, transactionId: params.transactionId, feedback, confirmer: user };
    return kind === "fraud" ? confirmFraud(input) : confirmChargeback(input);
  },
);
