"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, toQuery } from "@/components/api/client";
import { auditKeys, type TAuditFilters } from "@/components/audit/query-keys";
import type { TAuditEntry } from "@/lib/admin/list-audit-log";

export function useAuditLog(filters: TAuditFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: auditKeys.list(filters, cursor),
    queryFn: () =>
      apiFetch<{ entries: TAuditEntry[]; nextCursor: string | null }>(
        `/dashboard-api/audit${toQuery({ ...filters, cursor })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** The export link of the same filters: a plain download, so the browser saves the file. */
export function auditExportHref(filters: TAuditFilters): string {
  return `/dashboard-api/audit/export${toQuery(filters)}`;
}
