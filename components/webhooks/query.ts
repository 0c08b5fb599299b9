import { fetchJson } from "@/lib/admin/fetch-json";
import type { TDeliveryView, TSubscriptionView } from "@/lib/admin/webhooks";

export const webhookKeys = {
  subscriptions: ["webhooks", "subscriptions"] as const,
  deliveries: (failedOnly: boolean) => ["webhooks", "deliveries", { failedOnly }] as const,
};

export const webhooksApi = {
  list: () =>
    fetchJson<{ subscriptions: TSubscriptionView[]; allowedEvents: string[] }>("/dashboard-api/webhooks"),
  create: (input: { url: string; events: string[]; secret?: string }) =>
    fetchJson<{
      id: string;
      url: string;
      events: string[];
      secret: string | null;
      productionWarning: string | null;
    }>("/dashboard-api/webhooks", { body: input }),
  disable: (id: string) =>
    fetchJson<{ disabled: boolean }>(`/dashboard-api/webhooks/${encodeURIComponent(id)}/disable`, {
      body: {},
    }),
  deliveries: (failedOnly: boolean) =>
    fetchJson<{ deliveries: TDeliveryView[]; nextCursor: string | null }>(
      `/dashboard-api/webhooks/deliveries?limit=50${failedOnly ? "&status=failing" : ""}`,
    ),
  redeliver: (id: string) =>
    fetchJson<{ id: string; status: string; requeued: boolean }>(
      `/dashboard-api/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`,
      { body: {} },
    ),
};
