// GET /dashboard-api/webhooks/deliveries: delivery log with attempts, newest first
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZDeliveryQuery } from "@/lib/admin/schemas";
import { listWebhookDeliveries } from "@/lib/admin/webhooks";

export const GET = dashboardRoute("webhooks.manage", async ({ user, query }) =>
  listWebhookDeliveries(user, query(ZDeliveryQuery)),
);
