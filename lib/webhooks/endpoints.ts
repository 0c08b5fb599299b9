import { registerEndpoint } from "@/lib/openapi/registry";
import { ZCreateWebhook, ZCreateWebhookResponse, ZListWebhooksResponse } from "@/lib/webhooks/schemas";

registerEndpoint({
  method: "post",
  path: "/v1/webhooks",
  tag: "Webhooks",
  summary: "Subscribe a URL to webhook events",
  description:
    'Deliveries are POSTed with `X-Service-Signature: t=<ms>,v1=<hex HMAC-SHA256 of "t.body">` keyed with `secret`, ' +
    "`X-Service-Event` and `X-Service-Delivery` (stable across retries). Any 2xx within 10 s is success; otherwise " +
    "retried after 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h and 24 h, then marked failed. Business clients may " +
    "subscribe to transaction.screened, merchant.screened, alert.created, alert.reviewed, " +
    "transaction.confirmedFraud and transaction.confirmedChargeback. The secret is stored encrypted and never returned.",
  body: ZCreateWebhook,
  response: ZCreateWebhookResponse,
  errors: {
    400: "Missing or invalid url, events or secret; event type unknown or not available to the client",
    401: "Missing or invalid API key",
  },
});

registerEndpoint({
  method: "get",
  path: "/v1/webhooks",
  tag: "Webhooks",
  summary: "List the active webhook subscriptions",
  response: ZListWebhooksResponse,
  errors: { 401: "Missing or invalid API key" },
});
