"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { alertKeys, type TAlertFilters } from "@/components/alerts/query-keys";
import { apiFetch, toQuery } from "@/components/api/client";
import { caseKeys } from "@/components/cases/query-keys";
import { transactionKeys } from "@/components/transactions/query-keys";
import type { TAlertList } from "@/lib/alerts/list-alerts";
import type { TReviewedAlert } from "@/lib/alerts/review-alert";
import type { TRuleExplanation } from "@/lib/transactions/get-transaction-detail";

export function useAlerts(filters: TAlertFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: alertKeys.list(filters, cursor),
    queryFn: () => apiFetch<TAlertList>(`/dashboard-api/alerts${toQuery({ ...filters, cursor })}`),
    placeholderData: keepPreviousData,
  });
}

export function useAlertExplanation(alertId: string) {
  return useQuery({
    queryKey: alertKeys.explanation(alertId),
    queryFn: () =>
      apiFetch<{ id: string; caseId: string | null; explanation: TRuleExplanation | null }>(
        `/dashboard-api/alerts/${encodeURIComponent(alertId)}`,
      ),
  });
}

export function useReviewAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, status, feedback }: { alertId: string; status: string; feedback: string }) =>
      apiFetch<TReviewedAlert>(`/dashboard-api/alerts/${encodeURIComponent(alertId)}/review`, {
        json: { status, feedback },
      }),
    // Settled, not only succeeded: a refusal (a colleague's verdict came first) also means the queue is stale.
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: alertKeys.all });
      await queryClient.invalidateQueries({ queryKey: caseKeys.all });
      await queryClient.invalidateQueries({ queryKey: transactionKeys.all });
    },
  });
}

export function useAssignAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, assign }: { alertId: string; assign: boolean }) =>
      apiFetch<{ id: string; assignedToId: string | null }>(
        `/dashboard-api/alerts/${encodeURIComponent(alertId)}/assign`,
        { json: { assign } },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
