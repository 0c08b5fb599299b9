"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { alertKeys } from "@/components/alerts/query-keys";
import { apiFetch, toQuery } from "@/components/api/client";
import { caseKeys } from "@/components/cases/query-keys";
import { userKeys, type TUserFilters } from "@/components/users/query-keys";
import type { TUserListItem } from "@/lib/users/list-users";
import type { TDashboardUserStatusResult } from "@/lib/users/change-user-status-from-dashboard";

function userPath(userId: string, rest: string): string {
  return `/dashboard-api/users/${encodeURIComponent(userId)}/${rest}`;
}

export function useUsers(filters: TUserFilters, after: string | undefined, { enabled = true } = {}) {
  return useQuery({
    enabled,
    queryKey: userKeys.list(filters, after),
    queryFn: () =>
      apiFetch<{ users: TUserListItem[]; nextCursor: string | null }>(
        `/dashboard-api/users${toQuery({ ...filters, after })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useChangeUserStatus(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      status,
      comment,
      closeAlerts,
    }: {
      status: string;
      comment: string;
      closeAlerts?: boolean;
    }) =>
      apiFetch<TDashboardUserStatusResult>(userPath(userId, "status"), {
        json: { status, comment, closeAlerts },
      }),
    // A block may confirm the user's open alerts, which settles them in the alert queue and the case inbox.
    onSuccess: () =>
      Promise.all(
        [userKeys.all, alertKeys.all, caseKeys.all].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export function useAddComment(userId: string) {
  return useMutation({
    mutationFn: ({ comment, transactionId }: { comment: string; transactionId?: string }) =>
      apiFetch<{ status: string; id: string }>(userPath(userId, "comments"), {
        json: { comment, transactionId },
      }),
  });
}

type TEntityRef = { datasetId: string; entityId: string };

export function useMarkFalseMatch(userId: string) {
  return useMutation({
    mutationFn: (input: TEntityRef & { screenedName: string; note: string }) =>
      apiFetch<{ created: boolean }>(userPath(userId, "sanctions-false-matches"), { json: input }),
  });
}

export function useRemoveFalseMatch(userId: string) {
  return useMutation({
    mutationFn: ({ datasetId, entityId }: TEntityRef) =>
      apiFetch<{ removed: true }>(
        `${userPath(userId, "sanctions-false-matches")}${toQuery({ datasetId, entityId })}`,
        { method: "DELETE" },
      ),
  });
}
