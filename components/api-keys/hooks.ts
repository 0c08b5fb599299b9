"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api/client";
import { apiKeyKeys } from "@/components/api-keys/query-keys";
import type { TApiKeyView } from "@/lib/admin/api-keys";

export function useApiKeys() {
  return useQuery({
    queryKey: apiKeyKeys.all,
    queryFn: () => apiFetch<{ keys: TApiKeyView[] }>("/dashboard-api/api-keys"),
  });
}

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiFetch<{ id: string; apiKey: string }>("/dashboard-api/api-keys", { json: { name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ revoked: boolean }>(`/dashboard-api/api-keys/${encodeURIComponent(id)}/revoke`, {
        json: {},
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
