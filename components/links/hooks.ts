"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { alertKeys } from "@/components/alerts/query-keys";
import { apiFetch, toQuery } from "@/components/api/client";
import { caseKeys } from "@/components/cases/query-keys";
import { networkKeys, type TNetworkFilters } from "@/components/links/query-keys";
import { userKeys } from "@/components/users/query-keys";
import type { TRingStatusResult } from "@/lib/links/change-ring-status";
import type { TUserNetwork } from "@/lib/links/get-user-network";

const networkPath = (userId: string) => `/dashboard-api/users/${encodeURIComponent(userId)}/network`;

export function useUserNetwork(userId: string, filters: TNetworkFilters, { enabled = true } = {}) {
  return useQuery({
    enabled,
    queryKey: networkKeys.user(userId, filters),
    queryFn: () => apiFetch<TUserNetwork>(`${networkPath(userId)}${toQuery(filters)}`),
    placeholderData: keepPreviousData,
  });
}

// A ring action changes statuses, alerts and cases: every view of them is read again.
function useInvalidateRing() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [networkKeys.all, userKeys.all, alertKeys.all, caseKeys.all].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

export function useRingStatus(userId: string) {
  const invalidate = useInvalidateRing();
  return useMutation({
    mutationFn: (input: {
      userIds: string[];
      status: "blocked" | "inactive";
      note: string;
      closeAlerts: boolean;
    }) => apiFetch<TRingStatusResult>(`${networkPath(userId)}/status`, { json: input }),
    onSuccess: invalidate,
  });
}

export function useMergeCases(caseId: string) {
  const invalidate = useInvalidateRing();
  return useMutation({
    mutationFn: (input: { caseIds: string[]; note: string }) =>
      apiFetch<{ id: string; merged: string[]; alertsMoved: number }>(
        `/dashboard-api/cases/${encodeURIComponent(caseId)}/merge`,
        { json: input },
      ),
    onSuccess: invalidate,
  });
}
