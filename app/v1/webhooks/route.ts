// POST /v1/webhooks: subscribe a URL to event types; GET /v1/webhooks: list active subscriptions
import { methods, withClient } from "@/lib/http/with-client";
import { createSubscription } from "@/lib/webhooks/create-subscription";
import { listSubscriptions } from "@/lib/webhooks/list-subscriptions";
import { ZCreateWebhook } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withClient(async ({ client, body }) => {
    const input = await body(ZCreateWebhook);
    const subscription = await createSubscription({ clientId: client.id, clientType: client.type, ...input });
    return { status: "success", subscription };
  }),
  GET: withClient(async ({ client }) => {
    const subscriptions = await listSubscriptions({ clientId: client.id });
    return { status: "success", subscriptions };
  }),
});
