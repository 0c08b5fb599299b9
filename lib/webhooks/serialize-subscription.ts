import type { TWebhookEventType } from "@/lib/webhooks/event-types";
import type { TWebhookSubscription } from "@/lib/webhooks/schemas";

// The secret is deliberately not a parameter: it cannot leak through a serializer that never sees it.
export function serializeSubscription(row: {
  id: string;
  url: string;
  events: string[];
}): TWebhookSubscription {
  return { id: row.id, url: row.url, events: row.events as TWebhookEventType[] };
}
