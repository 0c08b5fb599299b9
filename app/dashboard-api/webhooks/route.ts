// GET /dashboard-api/webhooks: subscriptions; POST: create one (a generated secret is shown once)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZCreateWebhookInput } from "@/lib/admin/schemas";
import { createWebhookSubscription, listWebhookSubscriptions } from "@/lib/admin/webhooks";

export const GET = dashboardRoute("webhooks.manage", async ({ user }) => listWebhookSubscriptions(user));

export const POST = dashboardRoute("webhooks.manage", async ({ user, body }) =>
  createWebhookSubscription(user, await body(ZCreateWebhookInput)),
);
