"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { requestJson, toQuery } from "@/components/alerts/api-client";
import { transactionKeys } from "@/components/alerts/query";
import type { TTransactionListItem } from "@/lib/transactions/list-transactions";
import type { TConfirmation } from "@/lib/transactions/confirm-transaction";

export function useTransactions(filters: Record<string, string | undefined>, cursor: string | undefined) {
  return useQuery({
    queryKey: transactionKeys.list(filters, cursor),
    queryFn: () =>
      requestJson<{ transactions: TTransactionListItem[]; nextCursor: string | null }>(
        `/dashboard-api/transactions${toQuery({ ...filters, cursor })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useConfirmTransaction(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, feedback }: { kind: "fraud" | "chargeback"; feedback: string }) =>
      requestJson<TConfirmation>(`/dashboard-api/transactions/${encodeURIComponent(transactionId)}/confirm`, {
        kind,
        feedback,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
  });
}
