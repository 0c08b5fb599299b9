"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CaseStatusBadge, OverdueBadge, PriorityBadge } from "@/components/cases/case-badges";
import { useBulkCases, useCaseInbox, useNextCase } from "@/components/cases/hooks";
import type { TCaseFilters } from "@/components/cases/query-keys";
import {
  ClientText,
  Button,
  DateTime,
  DoneNote,
  ErrorNote,
  inputClass,
  NoteDialog,
  PersonName,
  Table,
  Td,
} from "@/components/ui";
import { FilterBar, SelectFilter, UserFilter } from "@/components/ui/filters";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { useListFilters } from "@/components/ui/use-list-filters";
import { formatCount, formatPerson, revealInvisible } from "@/lib/format";
import { RISK_LEVELS_MOST_SEVERE_FIRST } from "@/lib/risk/risk-levels";

type TPerson = { id: string; name: string | null; email: string };

const STATUSES = [
  { value: "active", label: "Not closed" },
  { value: "open", label: "Open" },
  { value: "in_review", label: "In review" },
  { value: "escalated", label: "Escalated" },
  { value: "closed", label: "Closed" },
  { value: "all", label: "All" },
];

/** The reviewer's home: cases due first, filters, "Next case", bulk assignment and closure. */
export function CaseInbox({
  initialFilters,
  rules,
  reviewers,
  currentUserId,
  canWork,
}: {
  initialFilters: TCaseFilters;
  /** Rules to filter by: the id is the value, the name what the reviewer reads. */
  rules: { ruleId: string; name: string }[];
  reviewers: TPerson[];
  currentUserId: string;
  canWork: boolean;
}) {
  const router = useRouter();
  const { filters, update, cursor, cursors, setCursors } = useListFilters<TCaseFilters>(initialFilters);
  const { data, isPending, isFetching, isPlaceholderData, error } = useCaseInbox(filters, cursor);
  // Cases that arrive while the list is open wait behind a note instead of being inserted, so the row
  // under the reviewer's pointer does not move; the ids already on screen per list (filters and page).
  const listKey = JSON.stringify([filters, cursor ?? null]);
  const [seen, setSeen] = useState<{ key: string; ids: Set<string> } | null>(null);
  if (data && !isPlaceholderData && seen?.key !== listKey) {
    setSeen({ key: listKey, ids: new Set(data.cases.map((c) => c.id)) });
  }
  const current = seen?.key === listKey ? seen : null;
  const arrived = current ? (data?.cases ?? []).filter((c) => !current.ids.has(c.id)) : [];
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [closing, setClosing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [assignTo, setAssignTo] = useState("");
  const next = useNextCase();
  const bulk = useBulkCases();
  const rows = (data?.cases ?? []).filter((c) => !current || current.ids.has(c.id));
  const selectable = rows.filter((c) => c.status !== "closed");
  const allSelected = selectable.length > 0 && selectable.every((c) => selected.has(c.id));

  function toggle(id: string) {
    const copy = new Set(selected);
    if (copy.has(id)) copy.delete(id);
    else copy.add(id);
    setSelected(copy);
  }

  return (
    <div className="space-y-4">
      <FilterBar busy={isFetching} label="Case filters">
        <SelectFilter
          label="Status"
          value={filters.status}
          options={STATUSES}
          anyLabel={null}
          onChange={(status) => update({ status: status ?? "active" })}
        />
        <SelectFilter
          label="Priority"
          value={filters.priority}
          options={RISK_LEVELS_MOST_SEVERE_FIRST}
          onChange={(priority) => update({ priority })}
        />
        <SelectFilter
          label="Assignee"
          value={filters.assignee}
          anyLabel="Anyone"
          options={[
            { value: "me", label: "Me" },
            { value: "unassigned", label: "Unassigned" },
            ...reviewers
              .filter((r) => r.id !== currentUserId)
              .map((r) => ({ value: r.id, label: formatPerson(r) })),
          ]}
          onChange={(assignee) => update({ assignee })}
        />
        <SelectFilter
          label="Due"
          value={filters.overdue}
          options={[
            { value: "true", label: "Overdue" },
            { value: "false", label: "Not overdue" },
          ]}
          onChange={(overdue) => update({ overdue })}
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
        <UserFilter value={filters.userId} onChange={(userId) => update({ userId })} />
        {canWork && (
          <div className="ml-auto">
            <Button
              disabled={next.isPending}
              onClick={() =>
                next.mutate(undefined, {
                  onSuccess: (res) => {
                    if (res.case) router.push(`/dashboard/cases/${res.case.id}`);
                  },
                })
              }
            >
              Next case
            </Button>
          </div>
        )}
      </FilterBar>
      {arrived.length > 0 && (
        // fixed in a corner: the note itself moves nothing either
        <div
          role="status"
          data-testid="new-cases"
          className="fixed right-6 bottom-6 z-10 flex items-center gap-3 rounded-lg border border-brand-200 bg-white px-4 py-3 text-sm shadow-lg"
        >
          {formatCount(arrived.length, "new case")}
          <Button
            variant="secondary"
            onClick={() => setSeen({ key: listKey, ids: new Set(data?.cases.map((c) => c.id)) })}
          >
            Show
          </Button>
        </div>
      )}
      {next.data && !next.data.case && (
        <p role="status" className="text-sm text-slate-700">
          No case is waiting: every open case is assigned to someone else.
        </p>
      )}
      {error && <ErrorNote>{error.message}</ErrorNote>}
      {next.error && <ErrorNote>{next.error.message}</ErrorNote>}
      {done && <DoneNote>{done}</DoneNote>}

      {canWork && selected.size > 0 && (
        <div
          className="flex flex-wrap items-end gap-3 rounded-lg border border-brand-200 bg-brand-50 p-3"
          data-testid="bulk-bar"
        >
          <span className="pb-1.5 text-sm font-medium text-slate-800">{selected.size} selected</span>
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
            Assign to
            <select className={inputClass} value={assignTo} onChange={(e) => setAssignTo(e.target.value)}>
              <option value="">Choose a reviewer</option>
              <option value="-">Nobody (unassign)</option>
              {reviewers.map((r) => (
                <option key={r.id} value={r.id}>
                  {formatPerson(r)}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="secondary"
            disabled={!assignTo || bulk.isPending}
            onClick={() => {
              setDone(null);
              bulk.mutate(
                { action: "assign", caseIds: [...selected], assigneeId: assignTo === "-" ? null : assignTo },
                {
                  onSuccess: (res) => {
                    setSelected(new Set());
                    setDone(
                      `${formatCount(res.updated, "case")} ${assignTo === "-" ? "unassigned" : "assigned"}.`,
                    );
                  },
                },
              );
            }}
          >
            Assign
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDone(null);
              setClosing(true);
            }}
          >
            Close as false positive…
          </Button>
          {bulk.error && !closing && <ErrorNote>{bulk.error.message}</ErrorNote>}
        </div>
      )}

      <Table
        head={[
          canWork ? (
            <input
              key="all"
              type="checkbox"
              aria-label="Select every case on this page"
              checked={allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(selectable.map((c) => c.id)))}
            />
          ) : (
            ""
          ),
          "Due",
          "Priority",
          "Subject",
          "Status",
          "Alerts",
          "Rules",
          "Assignee",
        ]}
        empty={
          !isPending && rows.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-700">No cases match these filters.</p>
          ) : null
        }
      >
        {rows.map((c) => (
          <tr key={c.id} data-testid="case-row" data-case-id={c.id} className="hover:bg-slate-50">
            <Td>
              {canWork && c.status !== "closed" && (
                <input
                  type="checkbox"
                  aria-label={`Select the case of ${revealInvisible(c.subject.name ?? c.subject.id)}`}
                  checked={selected.has(c.id)}
                  onChange={() => toggle(c.id)}
                />
              )}
            </Td>
            <Td className="text-xs">
              <DateTime value={c.dueAt} />
              {c.overdue && (
                <div>
                  <OverdueBadge />
                </div>
              )}
            </Td>
            <Td>
              <PriorityBadge priority={c.priority} />
            </Td>
            <Td>
              <Link className="font-medium text-brand-700 hover:underline" href={`/dashboard/cases/${c.id}`}>
                <ClientText value={c.subject.name ?? c.subject.id} truncate maxWidth="max-w-44" />
              </Link>
              <div className="font-mono text-xs text-slate-700">
                {c.subject.type === "user" ? "" : `${c.subject.type} `}
                <ClientText value={c.subject.id} truncate maxWidth="max-w-44" />
              </div>
            </Td>
            <Td>
              <CaseStatusBadge status={c.status} />
            </Td>
            <Td className="tabular-nums">
              {c.openAlertCount} open / {c.alertCount}
            </Td>
            <Td className="text-xs text-slate-700">
              <div className="w-48 whitespace-normal" title={c.rules.join(", ")}>
                {c.rules.slice(0, 2).join(", ")}
                {c.rules.length > 2 && ` and ${c.rules.length - 2} more`}
              </div>
            </Td>
            <Td>
              {c.assignee ? (
                c.assignee.id === currentUserId ? (
                  "Me"
                ) : (
                  <PersonName person={c.assignee} />
                )
              ) : (
                <span className="text-slate-700">Unassigned</span>
              )}
            </Td>
          </tr>
        ))}
      </Table>

      <KeysetPager
        cursors={cursors}
        setCursors={setCursors}
        nextCursor={data?.nextCursor}
        labels={["Due earlier", "Due later"]}
      />

      <NoteDialog
        open={closing}
        onClose={() => {
          setClosing(false);
          bulk.reset();
        }}
        title={`Close ${formatCount(selected.size, "case")} as false positive`}
        testId="bulk-close-dialog"
        intro="Their open alerts are cleared with this note, and each case is closed with the outcome false positive."
        noteLabel="Note"
        requiredMessage="Write a note: it is kept in each case's history with your name."
        submitLabel="Close cases"
        pending={bulk.isPending}
        error={bulk.error}
        onSubmit={({ note }) =>
          bulk.mutate(
            { action: "close_false_positive", caseIds: [...selected], note },
            {
              onSuccess: (res) => {
                setSelected(new Set());
                setClosing(false);
                setDone(`${formatCount(res.updated, "case")} closed as false positive.`);
              },
            },
          )
        }
      />
    </div>
  );
}
