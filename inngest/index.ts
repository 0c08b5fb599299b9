// Every Inngest function of the app: served at /api/inngest and run by the in-process driver.
import { deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { deliverWebhooks } from "@/inngest/functions/deliver-webhooks";
import { WEBHOOK_EMITTED_EVENT } from "@/lib/webhooks/emit";

export const functions = [deliverWebhooks, deliverWebhook];

/**
 * Each function's version (absent: 1). A run records the version that created it and only a driver
 * serving that version claims it: bump a version when a change to the function's steps (ids, order,
 * the data a memoized step returns) means a run started by the previous release cannot be continued
 * by this one (docs/operations.md, rolling upgrades).
 */
export const functionVersions: Readonly<Record<string, number>> = {
  "deliver-webhooks": 1,
  "deliver-webhook": 1,
};

/**
 * Events this app writes that trigger no function: the driver marks them dispatched without a run.
 * Any other event name no function takes is left undispatched, for a build that knows it.
 */
export const eventsWithoutFunctions = [WEBHOOK_EMITTED_EVENT];
