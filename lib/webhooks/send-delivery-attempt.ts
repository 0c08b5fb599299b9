import { openSecret } from "@/lib/crypto/secret-box";
import { jobsPool } from "@/lib/db";
import { batcher } from "@/lib/db-batch";
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

type TDeliveryRow = {
  id: string;
  eventType: string;
  body: string;
  status: string;
  attempts: number;
  url: string | null;
  secretEncrypted: string | null;
  active: boolean | null;
};

// One statement (the delivery and its subscription, of the same client) for the attempts that
// start together: this runs once per attempt.
const readDelivery = batcher<string, TDeliveryRow | undefined>(async (ids) => {
  const { rows } = await jobsPool().query<TDeliveryRow>(
    `SELECT d.id, d."eventType", d.body, d.status, d.attempts, s.url, s."secretEncrypted", s.active
     FROM webhook_deliveries d
     LEFT JOIN webhook_subscriptions s ON s.id = d."subscriptionId" AND s."clientId" = d."clientId"
     WHERE d.id = ANY($1::text[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
});

/**
 * Sends one attempt of a pending delivery: the body stored at emit time, signed now with the
 * subscription secret. Does not write anything; the caller records the outcome (a separate step,
 * so that a crash after a successful POST never sends it again).
 */
export async function sendDeliveryAttempt({ deliveryId }: { deliveryId: string }): Promise<TSendOutcome> {
  const delivery = await readDelivery(deliveryId);
  if (!delivery) return { skipped: true, status: "missing" };
  if (delivery.status !== "pending") return { skipped: true, status: delivery.status as TDeliveryStatus };

  const attempt = delivery.attempts + 1;
  const subscription =
    delivery.url !== null && delivery.secretEncrypted !== null
      ? { url: delivery.url, secretEncrypted: delivery.secretEncrypted, active: delivery.active === true }
      : null;
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
