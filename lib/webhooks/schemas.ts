import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-types";
import { webhookUrlProblem } from "@/lib/webhooks/url-guard";

export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

export const ZCreateWebhook = z.object({
  url: z
    .string()
    .max(2048)
    .superRefine((url, ctx) => {
      const problem = webhookUrlProblem(url);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe("http(s) URL receiving the deliveries"),
  events: z
    .array(ZWebhookEventType)
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length * 4)
    .describe("Event types to deliver"),
  secret: z
    .string()
    .min(1)
    .max(512)
    .describe(
      "Key of the HMAC-SHA256 X-Service-Signature; never returned. Use at least 32 random bytes (for example 64 hex characters).",
    ),
});
export type TCreateWebhook = z.infer<typeof ZCreateWebhook>;

export const ZWebhookSubscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(ZWebhookEventType),
});
export type TWebhookSubscription = z.infer<typeof ZWebhookSubscription>;

export const ZCreateWebhookResponse = z.object({
  status: z.literal("success"),
  subscription: ZWebhookSubscription,
});

export const ZListWebhooksResponse = z.object({
  status: z.literal("success"),
  subscriptions: z.array(ZWebhookSubscription),
});

/** Data of the `webhook/delivery.requested` background event. */
export const ZWebhookDeliveryRequested = z.object({ deliveryId: z.string().min(1) });

/**
 * Data of the `webhook/delivery.retry` background event: `n` is the position of the delivery's next
 * attempt in its retry schedule (2 = the first retry), `at` when it is due (epoch ms; absent: now).
 */
export const ZWebhookRetry = z.object({
  deliveryId: z.string().min(1),
  n: z.number().int().min(1),
  at: z.number().optional(),
});
