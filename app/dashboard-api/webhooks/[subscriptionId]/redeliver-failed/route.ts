// POST /dashboard-api/webhooks/:subscriptionId/redeliver-failed: send every failed delivery of a subscription again
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { redeliverFailedDeliveries } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ subscriptionId: string }>("webhooks.manage", async ({ user, params }) =>
  redeliverFailedDeliveries(user, { subscriptionId: params.subscriptionId }),
);
