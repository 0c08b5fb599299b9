import { openSecret } from "@/lib/crypto/secret-box";
import { prisma } from "@/lib/db";
import { postWebhook } from "@/lib/webhooks/post-webhook";
import { signatureHeader } from "@/lib/webhooks/signature";

export type TDeliveryStatus = "pending" | "delivered" | "failed";

export type TSendOutcome =
  | { skipped: true; status: TDeliveryStatus | "missing" }
  | {
      skipped: false;
      attempt: number;
      startedAt: number;
      durationMs: number;
      responseStatus: number | null;
      error: string | null;
      ok: boolean;
      /** The subscription is gone or disabled: no point retrying. */
      final: boolean;
    };

/**
 * Sends one attempt of a pending delivery: the body stored at emit time, signed now with the
 * subscription secret. Does not write anything; the caller records the outcome (a separate step,
 * so that a crash after a successful POST never sends it again).
 */
export async function sendDeliveryAttempt({ deliveryId }: { deliveryId: string }): Promise<TSendOutcome> {
  const delivery = await prisma.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: {
      id: true,
      clientId: true,
      subscriptionId: true,
      eventType: true,
      body: true,
      status: true,
      attempts: true,
    },
  });
  if (!delivery) return { skipped: true, status: "missing" };
  if (delivery.status !== "pending") return { skipped: true, status: delivery.status as TDeliveryStatus };

  const attempt = delivery.attempts + 1;
  const subscription = await prisma.webhookSubscription.findFirst({
    where: { id: delivery.subscriptionId, clientId: delivery.clientId },
    select: { url: true, secretEncrypted: true, active: true },
  });
  if (!subscription?.active) {
    const now = Date.now();
    return {
      skipped: false,
      attempt,
      startedAt: now,
      durationMs: 0,
      responseStatus: null,
      error: "Subscription is no longer active",
      ok: false,
      final: true,
    };
  }

  const result = await postWebhook({
    url: subscription.url,
    body: delivery.body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "risk-screening-webhooks/1",
      "X-Service-Signature": signatureHeader(openSecret(subscription.secretEncrypted), delivery.body),
      "X-Service-Event": delivery.eventType,
      "X-Service-Delivery": delivery.id,
    },
  });
  const ok = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
  return { skipped: false, attempt, ...result, ok, final: false };
}
