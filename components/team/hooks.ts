"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api/client";
import { teamKeys } from "@/components/team/query-keys";
import type { TTeamMember } from "@/lib/admin/team";

export type TNewMember = { email: string; name?: string; role: string; password: string };

export function useTeam() {
  return useQuery({
    queryKey: teamKeys.all,
    queryFn: () => apiFetch<{ members: TTeamMember[] }>("/dashboard-api/team"),
  });
}

/** A change to one member (`disable`, `unlock`), then the list again. */
export function useMemberAction(action: "disable" | "enable" | "unlock") {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<unknown>(`/dashboard-api/team/${encodeURIComponent(id)}/${action}`, { json: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }),
  });
}

export function useCreateMember() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TNewMember) => apiFetch<{ userId: string }>("/dashboard-api/team", { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }),
  });
}

export function useChangeRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) =>
      apiFetch<{ changed: boolean; role: string }>(`/dashboard-api/team/${encodeURIComponent(id)}/role`, {
        json: { role },
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: teamKeys.all }),
  });
}

export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ temporaryPassword: string }>(
        `/dashboard-api/team/${encodeURIComponent(id)}/reset-password`,
        { json: {} },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
