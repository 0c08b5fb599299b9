import { sealSecret } from "@/lib/crypto/secret-box";
import { prisma, type Tx } from "@/lib/db";
import { validationError } from "@/lib/errors/domain-error";
import { allowedEventTypes } from "@/lib/webhooks/event-types";
import type { TCreateWebhook, TWebhookSubscription } from "@/lib/webhooks/schemas";
import { serializeSubscription } from "@/lib/webhooks/serialize-subscription";

/**
 * Subscribes the client's URL to event types; business clients only to their documented set.
 * `db`: the caller's transaction when an audit row must commit with the subscription.
 */
export async function createSubscription(
  {
    clientId,
    clientType,
    url,
    events,
    secret,
  }: {
    clientId: string;
    clientType: "business" | "consumer";
  } & TCreateWebhook,
  db: Tx = prisma,
): Promise<TWebhookSubscription> {
  const allowed = allowedEventTypes(clientType);
  const refused = events.flatMap((event, i) =>
    allowed.includes(event)
      ? []
      : [`/events/${i}: Event type ${event} is not available to ${clientType} clients`],
  );
  if (refused.length > 0) throw validationError(refused);

  const row = await db.webhookSubscription.create({
    data: { clientId, url, events: [...new Set(events)], secretEncrypted: sealSecret(secret) },
    select: { id: true, url: true, events: true },
  });
  return serializeSubscription(row);
}
