"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { requestJson, toQuery } from "@/components/alerts/api-client";
import { userKeys } from "@/components/alerts/query";
import type { TUserListItem } from "@/lib/users/list-users";
import type { TUserStatusResult } from "@/lib/users/set-user-status";

export function useUsers(filters: Record<string, string | undefined>, after: string | undefined) {
  return useQuery({
    queryKey: userKeys.list(filters, after),
    queryFn: () =>
      requestJson<{ users: TUserListItem[]; nextCursor: string | null }>(
        `/dashboard-api/users${toQuery({ ...filters, after })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useChangeUserStatus(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ status, comment }: { status: string; comment: string }) =>
      requestJson<TUserStatusResult>(`/dashboard-api/users/${encodeURIComponent(userId)}/status`, {
        status,
        comment,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useAddComment(userId: string) {
  return useMutation({
    mutationFn: ({ comment, transactionId }: { comment: string; transactionId?: string }) =>
      requestJson<{ status: string; id: string }>(
        `/dashboard-api/users/${encodeURIComponent(userId)}/comments`,
        {
          comment,
          transactionId,
        },
      ),
  });
}
