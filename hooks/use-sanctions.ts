"use client";

import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "@/lib/admin/fetch-json";

type TEntityRef = { datasetId: string; entityId: string };

function falseMatchesUrl(userId: string): string {
  return `/dashboard-api/users/${encodeURIComponent(userId)}/sanctions-false-matches`;
}

export function useMarkFalseMatch(userId: string) {
  return useMutation({
    mutationFn: (input: TEntityRef & { screenedName: string; note: string }) =>
      fetchJson<{ created: boolean }>(falseMatchesUrl(userId), { body: input }),
  });
}

export function useRemoveFalseMatch(userId: string) {
  return useMutation({
    mutationFn: ({ datasetId, entityId }: TEntityRef) =>
      fetchJson<{ removed: true }>(
        `${falseMatchesUrl(userId)}?${new URLSearchParams({ datasetId, entityId }).toString()}`,
        { method: "DELETE" },
      ),
  });
}
