"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { AlertStatusBadge } from "@/components/alerts/status-badge";
import { ReviewDialog } from "@/components/alerts/review-dialog";
import type { TAlertFilters } from "@/components/alerts/query";
import {
  Button,
  ErrorNote,
  formatShortTime,
  formatTime,
  inputClass,
  LevelBadge,
  Table,
  Td,
} from "@/components/ui";
import type { TAlertListItem } from "@/lib/alerts/list-alerts";
import { useAlerts, useAssignAlert } from "@/components/alerts/hooks";
import { KeysetPager } from "@/components/ui/keyset-pager";

const LEVELS = ["very_high", "high", "medium", "medium_low", "low"];
const STATUSES = ["open", "escalated", "cleared", "confirmed", "all"];

export function AlertsQueue({
  initialFilters,
  ruleIds,
  currentUserId,
  canReview,
}: {
  initialFilters: TAlertFilters;
  ruleIds: string[];
  currentUserId: string;
  canReview: boolean;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [filters, setFilters] = useState<TAlertFilters>(initialFilters);
  // Keyset pages: the cursors of the pages behind the current one, so "Newer" goes back exactly.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const [reviewing, setReviewing] = useState<TAlertListItem | null>(null);
  const { data, isPending, isFetching, error } = useAlerts(filters, cursor);
  const assign = useAssignAlert();

  function update(patch: Partial<TAlertFilters>) {
    const next = { ...filters, ...patch };
    setFilters(next);
    setCursors([undefined]);
    const search = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => !!e[1]));
    router.replace(`${pathname}?${search.toString()}`, { scroll: false });
  }

  return (
    <div className="space-y-4">
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="text-xs font-medium text-slate-600">
          Status
          <select
            className={inputClass}
            value={filters.status}
            onChange={(e) => update({ status: e.target.value })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-medium text-slate-600">
          Level
          <select
            className={inputClass}
            value={filters.level ?? ""}
            onChange={(e) => update({ level: e.target.value || undefined })}
          >
            <option value="">any</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l.replace("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-medium text-slate-600">
          Rule
          <select
            className={inputClass}
            value={filters.ruleId ?? ""}
            onChange={(e) => update({ ruleId: e.target.value || undefined })}
          >
            <option value="">any</option>
            {ruleIds.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-medium text-slate-600">
          Assignee
          <select
            className={inputClass}
            value={filters.assigned ?? ""}
            onChange={(e) => update({ assigned: e.target.value || undefined })}
          >
            <option value="">anyone</option>
            <option value="me">me</option>
            <option value="unassigned">unassigned</option>
          </select>
        </label>
        <label className="text-xs font-medium text-slate-600">
          From
          <input
            type="date"
            className={inputClass}
            value={filters.from ?? ""}
            onChange={(e) => update({ from: e.target.value || undefined })}
          />
        </label>
        <label className="text-xs font-medium text-slate-600">
          To
          <input
            type="date"
            className={inputClass}
            value={filters.to ?? ""}
            onChange={(e) => update({ to: e.target.value || undefined })}
          />
        </label>
        {isFetching && <span className="pb-2 text-xs text-slate-400">Loading…</span>}
      </form>

      {error && <ErrorNote>{error.message}</ErrorNote>}
      {assign.error && <ErrorNote>{assign.error.message}</ErrorNote>}

      <Table
        head={["Created (UTC)", "Level", "Rule", "Transaction", "User", "Status", ""]}
        empty={
          !isPending && data?.alerts.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-500">No alerts match these filters.</p>
          ) : null
        }
      >
        {data?.alerts.map((a) => (
          <tr
            key={a.id}
            data-testid="alert-row"
            data-transaction-id={a.transactionId}
            className="hover:bg-slate-50"
          >
            <Td className="text-xs text-slate-500">
              <span title={formatTime(a.createdAt)}>{formatShortTime(a.createdAt)}</span>
            </Td>
            <Td>
              <LevelBadge level={a.level} />
            </Td>
            <Td>
              <div className="font-medium">{a.ruleId}</div>
              <div className="max-w-56 truncate text-xs text-slate-500" title={a.reason}>
                {a.ruleName}
              </div>
            </Td>
            <Td>
              <Link
                className="font-mono text-brand-700 hover:underline"
                href={`/dashboard/transactions/${encodeURIComponent(a.transactionId)}`}
              >
                {a.transactionId}
              </Link>
              {a.transaction && (
                <div className="text-xs text-slate-500">
                  {a.transaction.amount} {a.transaction.currencyCode}
                </div>
              )}
            </Td>
            <Td>
              {a.userId ? (
                <Link
                  className="text-brand-700 hover:underline"
                  href={`/dashboard/users/${encodeURIComponent(a.userId)}`}
                >
                  {a.userName ?? a.userId}
                </Link>
              ) : (
                "—"
              )}
            </Td>
            <Td>
              <AlertStatusBadge status={a.status} />
              <div className="flex items-center gap-1 text-xs text-slate-500">
                {a.reviewedBy ??
                  (a.assignedTo
                    ? `assigned to ${a.assignedTo.id === currentUserId ? "me" : a.assignedTo.label}`
                    : "unassigned")}
                {canReview &&
                  (a.assignedTo?.id === currentUserId ? (
                    <button
                      type="button"
                      className="text-brand-700 hover:underline"
                      onClick={() => assign.mutate({ alertId: a.id, assign: false })}
                    >
                      Release
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="text-brand-700 hover:underline"
                      onClick={() => assign.mutate({ alertId: a.id, assign: true })}
                    >
                      Assign to me
                    </button>
                  ))}
              </div>
            </Td>
            <Td className="text-right">
              {canReview && (
                <Button variant="secondary" onClick={() => setReviewing(a)}>
                  Review
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </Table>

      <KeysetPager cursors={cursors} setCursors={setCursors} nextCursor={data?.nextCursor} />

      {reviewing && <ReviewDialog alert={reviewing} onClose={() => setReviewing(null)} />}
    </div>
  );
}
