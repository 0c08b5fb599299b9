"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/api/client";
import { listKeys } from "@/components/lists/query-keys";
import type { TAddedListEntry, TListEntryView, TListView } from "@/lib/lists/manage-lists";

export const ENTRIES_PAGE_SIZE = 50;

const base = (listId: string) => `/dashboard-api/lists/${encodeURIComponent(listId)}`;

export function useLists() {
  return useQuery({
    queryKey: listKeys.index,
    queryFn: () => apiFetch<{ lists: TListView[] }>("/dashboard-api/lists"),
  });
}

export function useListEntries(listId: string, filter: { q: string; page: number }) {
  return useQuery({
    queryKey: listKeys.entries(listId, filter),
    queryFn: () =>
      apiFetch<{ list: TListView; entries: TListEntryView[]; total: number; page: number; limit: number }>(
        `${base(listId)}/entries?${new URLSearchParams({
          q: filter.q,
          page: String(filter.page),
          limit: String(ENTRIES_PAGE_SIZE),
        })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** After any change of a list: its entries and the index's counts. */
function useInvalidateList(listId: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: listKeys.allEntries(listId) }),
      qc.invalidateQueries({ queryKey: listKeys.index }),
    ]);
}

export function useCreateList() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; kind: string; description: string }) =>
      apiFetch<TListView>("/dashboard-api/lists", { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: listKeys.index }),
  });
}

export function useAddListEntry(listId: string) {
  const invalidate = useInvalidateList(listId);
  return useMutation({
    mutationFn: (input: { value: string; note: string; expiresAt: number | null; replace?: boolean }) =>
      apiFetch<TAddedListEntry>(`${base(listId)}/entries`, { json: input }),
    onSuccess: invalidate,
  });
}

export function useRemoveListEntry(listId: string) {
  const invalidate = useInvalidateList(listId);
  return useMutation({
    mutationFn: (entryId: string) =>
      apiFetch<{ removed: true }>(`${base(listId)}/entries/${encodeURIComponent(entryId)}`, {
        method: "DELETE",
      }),
    onSuccess: invalidate,
  });
}

export function useUploadListCsv(listId: string) {
  const invalidate = useInvalidateList(listId);
  return useMutation({
    mutationFn: (input: { csv: string; replace: boolean; fileName: string }) =>
      apiFetch<{ list: string; entries: number }>(`${base(listId)}/upload`, { json: input }),
    onSuccess: invalidate,
  });
}

export function listDownloadHref(listId: string): string {
  return `${base(listId)}/download`;
}
