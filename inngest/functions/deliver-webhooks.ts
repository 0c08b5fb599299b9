import { inngest } from "@/inngest/client";
import { WEBHOOK_DELIVERY_EVENT } from "@/lib/webhooks/emit";
import { recordDeliveryAttempts } from "@/lib/webhooks/record-delivery-attempt";
import { retryDelaysMs } from "@/lib/webhooks/retry-schedule";
import { ZWebhookDeliveryRequested } from "@/lib/webhooks/schemas";
import { sendDeliveryAttempts } from "@/lib/webhooks/send-delivery-attempt";

/** Deliveries per run; the driver (or the Inngest server) fills a run with what is pending. */
export const DELIVERY_BATCH_SIZE = 100;

/**
 * Makes the attempt of every delivery of a batch of `webhook/delivery.requested` events (new
 * deliveries, admin redeliveries): one step sends them all concurrently, each signed as a single
 * delivery is, and the next step records them all in one statement, which also schedules the
 * retries of those left pending (`webhook/delivery.retry`, continued by `deliver-webhook` on the
 * schedule of docs/decisions.md §7). Sending and recording are separate steps: a POST that was answered and
 * recorded is never sent again; a crash between the two may send it again (at-least-once).
 *
 * Without an Inngest server the driver hands a run every pending event up to `maxSize` at once and
 * never waits for `timeout`, so at rest a single delivery goes out at once.
 */
export const deliverWebhooks = inngest.createFunction(
  {
    id: "deliver-webhooks",
    name: "Deliver webhooks",
    retries: 4,
    triggers: [{ event: WEBHOOK_DELIVERY_EVENT }],
    batchEvents: { maxSize: DELIVERY_BATCH_SIZE, timeout: "1s" },
  },
  async ({ events, step }) => {
    // A malformed event must not hold back the deliveries batched with it.
    const deliveryIds = [
      ...new Set(
        events.flatMap((event) => {
          const parsed = ZWebhookDeliveryRequested.safeParse(event.data);
          return parsed.success ? [parsed.data.deliveryId] : [];
        }),
      ),
    ];
    const result = { deliveries: deliveryIds.length, delivered: 0, retrying: 0, failed: 0, skipped: 0 };
    if (deliveryIds.length === 0) return result;

    const sent = await step.run("send-attempts", () => sendDeliveryAttempts({ deliveryIds }));
    const delay = retryDelaysMs()[0];
    const attempts = sent.flatMap((s) => {
      if (s.skipped) return [];
      const retryAt = s.ok || s.final || delay === undefined ? null : s.startedAt + s.durationMs + delay;
      return [{ deliveryId: s.deliveryId, outcome: s, retryAt }];
    });
    result.skipped = sent.length - attempts.length;
    if (attempts.length === 0) return result;

    // Counts only: the step's result is stored with the run, the deliveries' states are in their rows.
    const recorded = await step.run("record-attempts", async () => {
      const counts = { delivered: 0, retrying: 0, failed: 0 };
      for (const r of await recordDeliveryAttempts({ attempts, retryN: 2 })) {
        if (r.status === "delivered") counts.delivered++;
        else if (r.status === "failed") counts.failed++;
        else counts.retrying++;
      }
      return counts;
    });
    return { ...result, ...recorded };
  },
);
