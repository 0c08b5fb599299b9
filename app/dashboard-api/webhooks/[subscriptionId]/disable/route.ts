// POST /dashboard-api/webhooks/:subscriptionId/disable: stop delivering to a subscription
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { disableWebhookSubscription } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ subscriptionId: string }>("webhooks.manage", async ({ user, params }) =>
  disableWebhookSubscription(user, { id: params.subscriptionId }),
);
