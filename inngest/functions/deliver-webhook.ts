import { inngest } from "@/inngest/client";
import { WEBHOOK_DELIVERY_EVENT } from "@/lib/webhooks/emit";
import { recordDeliveryAttempt } from "@/lib/webhooks/record-delivery-attempt";
import { retryDelaysMs } from "@/lib/webhooks/retry-schedule";
import { ZWebhookDeliveryRequested } from "@/lib/webhooks/schemas";
import { sendDeliveryAttempt } from "@/lib/webhooks/send-delivery-attempt";

/**
 * Delivers one webhook (one event to one subscription) on the retry schedule. Sending and
 * recording are separate steps and the wait between attempts is a durable sleep, so after a
 * crash the run resumes where it was: a POST that was answered is never sent again.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    name: "Deliver a webhook",
    retries: 4,
    triggers: [{ event: WEBHOOK_DELIVERY_EVENT }],
  },
  async ({ event, step }) => {
    const { deliveryId } = ZWebhookDeliveryRequested.parse(event.data);
    const delays = retryDelaysMs();

    for (let n = 1; ; n++) {
      const sent = await step.run(`send-attempt-${n}`, () => sendDeliveryAttempt({ deliveryId }));
      if (sent.skipped) return { deliveryId, status: sent.status, attempts: n - 1 };

      const delay = sent.final ? undefined : delays[n - 1];
      const retryAt = sent.ok || delay === undefined ? null : sent.startedAt + sent.durationMs + delay;
      const recorded = await step.run(`record-attempt-${n}`, () =>
        recordDeliveryAttempt({ deliveryId, outcome: sent, retryAt }),
      );
      if (recorded.status !== "pending" || recorded.nextAttemptAt === null) {
        return { deliveryId, status: recorded.status, attempts: recorded.attempts };
      }
      await step.sleepUntil(`backoff-${n}`, new Date(recorded.nextAttemptAt));
    }
  },
);
