// Every Inngest function of the app: served at /api/inngest and run by the in-process driver.
import { deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { deliverWebhooks } from "@/inngest/functions/deliver-webhooks";

export const functions = [deliverWebhooks, deliverWebhook];
