"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { alertKeys } from "@/components/alerts/query-keys";
import { apiFetch, toQuery } from "@/components/api/client";
import { caseKeys } from "@/components/cases/query-keys";
import { transactionKeys, type TTransactionFilters } from "@/components/transactions/query-keys";
import type { TConfirmation } from "@/lib/transactions/confirm-transaction";
import type { TTransactionListItem } from "@/lib/transactions/list-transactions";

export function useTransactions(filters: TTransactionFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: transactionKeys.list(filters, cursor),
    queryFn: () =>
      apiFetch<{ transactions: TTransactionListItem[]; nextCursor: string | null }>(
        `/dashboard-api/transactions${toQuery({ ...filters, cursor })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useConfirmTransaction(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      kind,
      feedback,
      closeAlerts,
    }: {
      kind: "fraud" | "chargeback";
      feedback: string;
      closeAlerts: boolean;
    }) =>
      apiFetch<TConfirmation>(`/dashboard-api/transactions/${encodeURIComponent(transactionId)}/confirm`, {
        json: { kind, feedback, closeAlerts },
      }),
    // The verdict may confirm the transaction's open alerts too: the alert queue and the case inbox change.
    onSuccess: () =>
      Promise.all(
        [transactionKeys.all, alertKeys.all, caseKeys.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
