// POST /dashboard-api/webhooks/deliveries/:deliveryId/redeliver: send a failed delivery again
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { redeliverDelivery } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ deliveryId: string }>("webhooks.manage", async ({ user, params }) =>
  redeliverDelivery(user, { deliveryId: params.deliveryId }),
);
