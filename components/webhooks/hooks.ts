"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api/client";
import { webhookKeys } from "@/components/webhooks/query-keys";
import type { TDeliveryView, TSubscriptionView } from "@/lib/admin/webhooks";

export type TCreatedSubscription = {
  id: string;
  url: string;
  events: string[];
  secret: string | null;
  productionWarning: string | null;
};

export function useSubscriptions() {
  return useQuery({
    queryKey: webhookKeys.subscriptions,
    queryFn: () =>
      apiFetch<{ subscriptions: TSubscriptionView[]; allowedEvents: string[] }>("/dashboard-api/webhooks"),
  });
}

/** The delivery log; the delivery machinery updates rows in the background, so it polls while shown. */
export function useDeliveries(failedOnly: boolean) {
  return useQuery({
    queryKey: webhookKeys.deliveries(failedOnly),
    queryFn: () =>
      apiFetch<{ deliveries: TDeliveryView[]; nextCursor: string | null }>(
        `/dashboard-api/webhooks/deliveries?limit=50${failedOnly ? "&status=failing" : ""}`,
      ),
    refetchInterval: 2_000,
  });
}

export function useCreateSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; events: string[]; secret?: string }) =>
      apiFetch<TCreatedSubscription>("/dashboard-api/webhooks", { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.subscriptions }),
  });
}

export function useDisableSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ disabled: boolean }>(`/dashboard-api/webhooks/${encodeURIComponent(id)}/disable`, {
        json: {},
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.subscriptions }),
  });
}

export function useRedeliver() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ id: string; status: string; requeued: boolean }>(
        `/dashboard-api/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`,
        { json: {} },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.allDeliveries }),
  });
}

export function useRetryNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ id: string; status: string; requeued: boolean }>(
        `/dashboard-api/webhooks/deliveries/${encodeURIComponent(id)}/retry-now`,
        { json: {} },
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: webhookKeys.allDeliveries }),
  });
}

export function useRedeliverFailed() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      apiFetch<{ requeued: number }>(
        `/dashboard-api/webhooks/${encodeURIComponent(subscriptionId)}/redeliver-failed`,
        { json: {} },
      ),
    onSettled: () => qc.invalidateQueries({ queryKey: webhookKeys.allDeliveries }),
  });
}
