import { openSecret } from "@/lib/crypto/secret-box";
import { jobsPool } from "@/lib/db";
import { batcher } from "@/lib/db-batch";
import { postWebhook } from "@/lib/webhooks/post-webhook";
import { signatureHeader } from "@/lib/webhooks/signature";

export type TDeliveryStatus = "pending" | "delivered" | "failed";

export type TSendOutcome =
  | { skipped: true; status: TDeliveryStatus | "missing" | "superseded" }
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
  nextAttemptAt: Date | null;
  eventType: string;
  body: string;
  status: string;
  attempts: number;
  url: string | null;
  secretEncrypted: string | null;
  active: boolean | null;
};

/** The deliveries and their subscriptions (of the same client), in one statement. */
async function readDeliveries(ids: readonly string[]): Promise<Map<string, TDeliveryRow>> {
  // named: planned once per connection
  const { rows } = await jobsPool().query<TDeliveryRow>({
    name: "webhook-read-deliveries",
    text: `SELECT d.id, d."nextAttemptAt", d."eventType", d.body, d.status, d.attempts, s.url, s."secretEncrypted", s.active
     FROM webhook_deliveries d
     LEFT JOIN webhook_subscriptions s ON s.id = d."subscriptionId" AND s."clientId" = d."clientId"
     WHERE d.id = ANY($1::text[])`,
    values: [ids],
  });
  return new Map(rows.map((r) => [r.id, r]));
}

// The single attempts that start together share one read (this runs once per attempt).
const readDelivery = batcher<string, TDeliveryRow | undefined>(async (ids) => {
  const byId = await readDeliveries(ids);
  return ids.map((id) => byId.get(id));
});

/**
 * One attempt of a delivery as read: the body stored at emit time, signed now with the subscription
 * secret (`secrets` opens each sealed secret once for the attempts made together).
 */
async function attemptDelivery(delivery: TDeliveryRow, secrets: Map<string, string>): Promise<TSendOutcome> {
  if (delivery.status !== "pending") return { skipped: true, status: delivery.status as TDeliveryStatus };

  const attempt = delivery.attempts + 1;
  if (delivery.url === null || delivery.secretEncrypted === null || delivery.active !== true) {
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
  let secret = secrets.get(delivery.secretEncrypted);
  if (secret === undefined) {
    secret = openSecret(delivery.secretEncrypted);
    secrets.set(delivery.secretEncrypted, secret);
  }

  const result = await postWebhook({
    url: delivery.url,
    body: delivery.body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "risk-screening-webhooks/1",
      "X-Service-Signature": signatureHeader(secret, delivery.body),
      "X-Service-Event": delivery.eventType,
      "X-Service-Delivery": delivery.id,
    },
  });
  const ok = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
  return { skipped: false, attempt, ...result, ok, final: false };
}

/**
 * Sends one attempt of a pending delivery. Does not write anything; the caller records the outcome
 * (a separate step, so that a crash after a successful POST never sends it again).
 */
export async function sendDeliveryAttempt({
  deliveryId,
  dueAt,
}: {
  deliveryId: string;
  /** When the caller's schedule had this attempt due: a delivery rescheduled since ("retry now") is another run's. */
  dueAt?: number;
}): Promise<TSendOutcome> {
  const delivery = await readDelivery(deliveryId);
  if (!delivery) return { skipped: true, status: "missing" };
  if (
    dueAt !== undefined &&
    delivery.status === "pending" &&
    delivery.nextAttemptAt !== null &&
    new Date(delivery.nextAttemptAt).getTime() !== dueAt
  )
    return { skipped: true, status: "superseded" };
  return attemptDelivery(delivery, new Map());
}

/**
 * Sends the next attempt of each pending delivery of `deliveryIds` at once: one read for all, then
 * every POST concurrently, each signed as `sendDeliveryAttempt` signs it. Writes nothing either.
 */
export async function sendDeliveryAttempts({
  deliveryIds,
}: {
  deliveryIds: readonly string[];
}): Promise<Array<TSendOutcome & { deliveryId: string }>> {
  const byId = await readDeliveries(deliveryIds);
  const secrets = new Map<string, string>();
  return Promise.all(
    deliveryIds.map(async (deliveryId) => {
      const delivery = byId.get(deliveryId);
      const outcome: TSendOutcome = delivery
        ? await attemptDelivery(delivery, secrets)
        : { skipped: true, status: "missing" };
      return { deliveryId, ...outcome };
    }),
  );
}
