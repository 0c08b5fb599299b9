"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { alertKeys } from "@/components/alerts/query-keys";
import { apiFetch, toQuery } from "@/components/api/client";
import { caseKeys, type TCaseFilters } from "@/components/cases/query-keys";
import type { TCaseInbox } from "@/lib/cases/list-case-inbox";
import type { TCaseSla } from "@/lib/cases/schemas";

const casePath = (caseId: string, action?: string) =>
  `/dashboard-api/cases/${encodeURIComponent(caseId)}${action ? `/${action}` : ""}`;

/** How often the inbox looks for new cases while it is open. */
export const CASE_INBOX_REFRESH_MS = 15_000;

export function useCaseInbox(filters: TCaseFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: caseKeys.list(filters, cursor),
    queryFn: () => apiFetch<TCaseInbox>(`/dashboard-api/cases${toQuery({ ...filters, cursor })}`),
    placeholderData: keepPreviousData,
    refetchInterval: CASE_INBOX_REFRESH_MS,
  });
}

/** After a change: the lists refetch and the server-rendered case page re-renders. */
function useAfterChange() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: caseKeys.all });
    await queryClient.invalidateQueries({ queryKey: alertKeys.all });
    router.refresh();
  };
}

export type TCaseAction =
  | { action: "assign"; assigneeId: string | null }
  | { action: "comment"; comment: string }
  | { action: "alerts"; status: "cleared" | "confirmed"; alertIds?: string[]; note: string }
  | { action: "close"; outcome: string; note: string }
  | { action: "escalate"; note: string }
  | { action: "block-user"; note: string; closeAlerts: boolean };

/**
 * One mutation for every action of the case page (assign, comment, verdicts, close, escalate, block). A refusal
 * usually means someone else changed the case: the page reloads too, so what it offers matches the case again.
 */
export function useCaseAction(caseId: string) {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: ({ action, ...json }: TCaseAction) =>
      apiFetch<Record<string, unknown>>(casePath(caseId, action), { json }),
    onSuccess: afterChange,
    onError: afterChange,
  });
}

export function useNextCase() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ case: { id: string } | null }>("/dashboard-api/cases/next", { method: "POST" }),
    onSuccess: afterChange,
  });
}

export type TBulkCases =
  | { action: "assign"; caseIds: string[]; assigneeId: string | null }
  | { action: "close_false_positive"; caseIds: string[]; note: string };

export function useBulkCases() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: (json: TBulkCases) => apiFetch<{ updated: number }>("/dashboard-api/cases/bulk", { json }),
    onSuccess: afterChange,
  });
}

export function useCaseSla(initial: TCaseSla) {
  return useQuery({
    queryKey: caseKeys.sla(),
    queryFn: () => apiFetch<TCaseSla>("/dashboard-api/settings/case-sla"),
    initialData: initial,
  });
}

export function useUpdateCaseSla() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: TCaseSla) =>
      apiFetch<TCaseSla>("/dashboard-api/settings/case-sla", { method: "PUT", json }),
    onSuccess: (sla) => queryClient.setQueryData(caseKeys.sla(), sla),
  });
}
