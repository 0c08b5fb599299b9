// POST /dashboard-api/webhooks/:subscriptionId/disable: stop delivering to a subscription
import { ADMIN_ONLY } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { disableWebhookSubscription } from "@/lib/admin/webhooks";

export const POST = dashboardRoute<{ subscriptionId: string }>(ADMIN_ONLY, async ({ user, params }) =>
  disableWebhookSubscription(user, { id: params.subscriptionId }),
);
