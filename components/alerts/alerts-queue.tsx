"use client";

import Link from "next/link";
import { useState } from "react";
import { useAlerts, useAssignAlert } from "@/components/alerts/hooks";
import type { TAlertFilters } from "@/components/alerts/query-keys";
import { ReviewDialog } from "@/components/alerts/review-dialog";
import { AlertStatusBadge } from "@/components/alerts/status-badge";
import {
  Button,
  ClientText,
  DateTime,
  DoneNote,
  ErrorNote,
  LevelBadge,
  Money,
  Table,
  Td,
} from "@/components/ui";
import { DateFilter, FilterBar, SelectFilter, UserFilter } from "@/components/ui/filters";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { useListFilters } from "@/components/ui/use-list-filters";
import type { TAlertListItem } from "@/lib/alerts/list-alerts";
import { formatEnum } from "@/lib/format";
import { RISK_LEVELS_MOST_SEVERE_FIRST } from "@/lib/risk/risk-levels";

const STATUSES = ["open", "escalated", "cleared", "confirmed", "all"];
const UNSETTLED = new Set(["open", "escalated"]);

function heading(status: string): string {
  if (status === "all") return "All alerts";
  return `${formatEnum(status)} alerts${UNSETTLED.has(status) ? "" : " (read-only)"}`;
}

export function AlertsQueue({
  initialFilters,
  rules,
  currentUserId,
  canReview,
}: {
  initialFilters: TAlertFilters;
  /** Rules to filter by: the id is the value, the name what the reviewer reads. */
  rules: { ruleId: string; name: string }[];
  currentUserId: string;
  canReview: boolean;
}) {
  const { filters, update, cursor, cursors, setCursors } = useListFilters<TAlertFilters>(initialFilters);
  const [reviewing, setReviewing] = useState<TAlertListItem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { data, isPending, isFetching, error } = useAlerts(filters, cursor);
  const assign = useAssignAlert();

  return (
    <div className="space-y-4">
      <FilterBar busy={isFetching} label="Alert filters">
        <SelectFilter
          label="Status"
          value={filters.status}
          options={STATUSES}
          anyLabel={null}
          onChange={(status) => update({ status: status ?? "open" })}
        />
        <SelectFilter
          label="Level"
          value={filters.level}
          options={RISK_LEVELS_MOST_SEVERE_FIRST}
          onChange={(level) => update({ level })}
        />
        <SelectFilter
          label="Rule"
          value={filters.ruleId}
          options={rules.map((r) => ({
            value: r.ruleId,
            label: r.name === r.ruleId ? r.ruleId : `${r.name} (${r.ruleId})`,
          }))}
          onChange={(ruleId) => update({ ruleId })}
        />
        <SelectFilter
          label="Assignee"
          value={filters.assigned}
          anyLabel="Anyone"
          options={[
            { value: "me", label: "Me" },
            { value: "unassigned", label: "Unassigned" },
          ]}
          onChange={(assigned) => update({ assigned })}
        />
        <UserFilter value={filters.userId} onChange={(userId) => update({ userId })} />
        <DateFilter label="From" value={filters.from} onChange={(from) => update({ from })} />
        <DateFilter label="To" value={filters.to} onChange={(to) => update({ to })} />
      </FilterBar>
      {done && <DoneNote>{done}</DoneNote>}

      <h2 className="text-lg font-semibold text-slate-900" data-testid="alerts-heading">
        {heading(filters.status)}
      </h2>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      {assign.error && <ErrorNote>{assign.error.message}</ErrorNote>}

      <Table
        head={["Created", "Level", "Rule", "Transaction", "User", "Case", "Status", ""]}
        empty={
          !isPending && data?.alerts.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-700">No alerts match these filters.</p>
          ) : null
        }
      >
        {data?.alerts.map((a) => {
          const workable = canReview && UNSETTLED.has(a.status);
          return (
            <tr
              key={a.id}
              data-testid="alert-row"
              data-transaction-id={a.transactionId}
              className="hover:bg-slate-50"
            >
              {/* cells wrap so the whole queue fits 1280 px without a clipped column */}
              <Td className="w-28 whitespace-normal text-xs">
                <DateTime value={a.createdAt} />
              </Td>
              <Td>
                <LevelBadge level={a.level} />
              </Td>
              <Td className="max-w-40 whitespace-normal break-words">
                <div className="font-medium">{a.ruleId}</div>
                <div className="max-w-40 truncate text-xs text-slate-700" title={a.reason}>
                  {a.ruleName}
                </div>
              </Td>
              <Td className="max-w-40 whitespace-normal break-all">
                <Link
                  className="font-mono text-brand-700 hover:underline"
                  href={`/dashboard/transactions/${encodeURIComponent(a.transactionId)}`}
                >
                  <ClientText value={a.transactionId} truncate maxWidth="max-w-40" />
                </Link>
                {a.transaction && (
                  <div className="text-xs text-slate-700">
                    <Money amount={a.transaction.amount} currency={a.transaction.currencyCode} />
                  </div>
                )}
              </Td>
              <Td className="max-w-32 whitespace-normal">
                {a.userId ? (
                  <Link
                    className="inline-block py-1 text-brand-700 hover:underline"
                    href={`/dashboard/users/${encodeURIComponent(a.userId)}`}
                  >
                    <ClientText value={a.userName ?? a.userId} truncate maxWidth="max-w-32" />
                  </Link>
                ) : (
                  "—"
                )}
              </Td>
              <Td>
                {a.caseId ? (
                  <Link
                    className="inline-block py-1 text-brand-700 hover:underline"
                    href={`/dashboard/cases/${a.caseId}`}
                  >
                    Open case
                  </Link>
                ) : (
                  "—"
                )}
              </Td>
              <Td className="max-w-40 whitespace-normal">
                <AlertStatusBadge status={a.status} />
                <div className="flex flex-wrap items-center gap-1 text-xs text-slate-700">
                  {a.reviewedBy ? (
                    <span>by {a.reviewedBy}</span>
                  ) : a.assignedTo ? (
                    <span>assigned to {a.assignedTo.id === currentUserId ? "me" : a.assignedTo.label}</span>
                  ) : (
                    <span>unassigned</span>
                  )}
                  {workable &&
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
                {workable ? (
                  <Button
                    variant="secondary"
                    onClick={() => {
                      setDone(null);
                      setReviewing(a);
                    }}
                  >
                    Review
                  </Button>
                ) : (
                  !UNSETTLED.has(a.status) && <span className="text-xs text-slate-700">Read-only</span>
                )}
              </Td>
            </tr>
          );
        })}
      </Table>

      <KeysetPager cursors={cursors} setCursors={setCursors} nextCursor={data?.nextCursor} />

      {reviewing && (
        <ReviewDialog
          alert={reviewing}
          onClose={() => setReviewing(null)}
          onDone={(message) => {
            setReviewing(null);
            setDone(message);
          }}
        />
      )}
    </div>
  );
}
