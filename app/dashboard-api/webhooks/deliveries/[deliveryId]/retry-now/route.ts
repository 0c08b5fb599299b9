// POST /dashboard-api/webhooks/deliveries/:deliveryId/retry-now: make a retrying delivery's next attempt now
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { retryDeliveryNow } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ deliveryId: string }>("webhooks.manage", async ({ user, params }) =>
  retryDeliveryNow(user, { deliveryId: params.deliveryId }),
);
