import { inngest } from "@/inngest/client";
import { WEBHOOK_RETRY_EVENT } from "@/lib/webhooks/emit";
import { recordDeliveryAttempt } from "@/lib/webhooks/record-delivery-attempt";
import { retryDelaysMs } from "@/lib/webhooks/retry-schedule";
import { ZWebhookRetry } from "@/lib/webhooks/schemas";
import { sendDeliveryAttempt } from "@/lib/webhooks/send-delivery-attempt";

/**
 * Delivers one webhook (one event to one subscription) on the retry schedule, from the attempt at
 * position `n` of the schedule: the retries of a delivery whose attempt in `deliver-webhooks` failed
 * (`webhook/delivery.retry`, after a durable sleep until it is due). Sending and recording are
 * separate steps and the wait between attempts is a durable sleep, so after a crash the run resumes
 * where it was: a POST that was answered is never sent again. (Runs started by a
 * `webhook/delivery.requested` event before deliveries went out in batches were moved onto this
 * event at 1 by migration 20261125130200, so their memoized steps still match.)
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    name: "Deliver a webhook (retries)",
    retries: 4,
    triggers: [{ event: WEBHOOK_RETRY_EVENT }],
  },
  async ({ event, step }) => {
    const { deliveryId, n: from, at } = ZWebhookRetry.parse(event.data);
    if (at !== undefined) await step.sleepUntil(`backoff-${from - 1}`, new Date(at));
    const delays = retryDelaysMs();

    // the time this run waited for: a delivery an admin retried meanwhile is on the new run's schedule
    let dueAt = at;
    for (let n = from; ; n++) {
      const due = dueAt;
      const sent = await step.run(`send-attempt-${n}`, () => sendDeliveryAttempt({ deliveryId, dueAt: due }));
      if (sent.skipped) return { deliveryId, status: sent.status, attempts: n - 1 };

      const delay = sent.final ? undefined : delays[n - 1];
      const retryAt = sent.ok || delay === undefined ? null : sent.startedAt + sent.durationMs + delay;
      const recorded = await step.run(`record-attempt-${n}`, () =>
        recordDeliveryAttempt({ deliveryId, outcome: sent, retryAt }),
      );
      if (recorded.status !== "pending" || recorded.nextAttemptAt === null) {
        return { deliveryId, status: recorded.status, attempts: recorded.attempts };
      }
      dueAt = recorded.nextAttemptAt;
      await step.sleepUntil(`backoff-${n}`, new Date(recorded.nextAttemptAt));
    }
  },
);
