// POST /dashboard-api/webhooks/deliveries/:deliveryId/redeliver: send a failed delivery again
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { redeliverDelivery } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ deliveryId: string }>(ADMIN_ONLY, async ({ user, params }) =>
  redeliverDelivery(user, { deliveryId: params.deliveryId }),
);
