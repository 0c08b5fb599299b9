"use client";

import Link from "next/link";
import { auditExportHref, useAuditLog } from "@/components/audit/hooks";
import type { TAuditFilters } from "@/components/audit/query-keys";
import { DateTime, ErrorNote, linkClass, PersonName, Table, Td } from "@/components/ui";
import { DateFilter, FilterBar, SelectFilter, TextFilter } from "@/components/ui/filters";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { useListFilters } from "@/components/ui/use-list-filters";
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES } from "@/lib/admin/audit-actions";
import type { TAuditEntry } from "@/lib/admin/list-audit-log";

const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));
const OBJECT_OPTIONS = Object.entries(AUDIT_OBJECT_TYPES).map(([value, label]) => ({ value, label }));

/** A short line of what changed: `key: value` pairs of the entry's details, cut on screen, whole on hover. */
function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details !== "object") return String(details);
  return Object.entries(details as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" · ");
}

function Actor({ entry }: { entry: TAuditEntry }) {
  if (entry.actor) return <PersonName person={entry.actor} />;
  return (
    <span className="text-slate-600">{entry.actorType === "operator_cli" ? "Operator (CLI)" : "System"}</span>
  );
}

function ObjectCell({ entry }: { entry: TAuditEntry }) {
  const type = AUDIT_OBJECT_TYPES[entry.entityType] ?? entry.entityType;
  const name = entry.entityLabel ?? entry.entityId;
  const text = (
    <>
      {type}: <bdi>{name}</bdi>
    </>
  );
  return (
    <div
      className="max-w-[13rem] truncate"
      title={`${type}: ${name}${entry.entityLabel ? ` (${entry.entityId})` : ""}`}
    >
      {entry.href ? (
        <Link href={entry.href} className={linkClass} data-testid="audit-object-link">
          {text}
        </Link>
      ) : (
        text
      )}
    </div>
  );
}

export function AuditTrailScreen({
  members,
  initialFilters,
}: {
  members: { id: string; label: string }[];
  initialFilters: TAuditFilters;
}) {
  const { filters, update, cursor, cursors, setCursors } = useListFilters<TAuditFilters>(initialFilters);
  const { data, error, isFetching } = useAuditLog(filters, cursor);
  return (
    <div className="space-y-4">
      <FilterBar busy={isFetching} label="Audit trail filters">
        <SelectFilter
          label="Who"
          value={filters.actorId}
          options={members.map((m) => ({ value: m.id, label: m.label }))}
          onChange={(actorId) => update({ actorId })}
          className="max-w-[14rem]"
        />
        <SelectFilter
          label="Action"
          value={filters.action}
          options={ACTION_OPTIONS}
          onChange={(action) => update({ action })}
          className="max-w-[16rem]"
        />
        <SelectFilter
          label="Object"
          value={filters.entityType}
          options={OBJECT_OPTIONS}
          onChange={(entityType) => update({ entityType })}
        />
        <TextFilter
          label="Object id"
          value={filters.entityId}
          onChange={(entityId) => update({ entityId })}
          placeholder="e.g. a rule id"
          className="w-40"
        />
        <DateFilter label="From" value={filters.from} onChange={(from) => update({ from })} />
        <DateFilter label="To" value={filters.to} onChange={(to) => update({ to })} />
        <a
          href={auditExportHref(filters)}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-100"
          data-testid="audit-export"
          download
        >
          Export CSV
        </a>
      </FilterBar>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      <Table
        head={["When", "Who", "Action", "Object", "Details"]}
        empty={
          data?.entries.length === 0 && (
            <p className="p-4 text-sm text-slate-600">No audited changes match these filters.</p>
          )
        }
      >
        {data?.entries.map((e) => (
          <tr key={e.id} data-testid="audit-row" data-action={e.action} className="align-top">
            <Td className="whitespace-normal">
              <div className="w-28 text-xs">
                <DateTime value={e.at} />
              </div>
            </Td>
            <Td>
              <div className="max-w-[10rem] truncate">
                <bdi>
                  <Actor entry={e} />
                </bdi>
              </div>
            </Td>
            <Td className="whitespace-normal">
              <div className="w-44" title={e.action}>
                {e.actionLabel}
              </div>
            </Td>
            <Td>
              <ObjectCell entry={e} />
            </Td>
            <Td>
              <div className="max-w-[11rem] truncate text-xs text-slate-600" title={detailsText(e.details)}>
                <bdi>{detailsText(e.details) || "—"}</bdi>
              </div>
            </Td>
          </tr>
        ))}
      </Table>
      <KeysetPager cursors={cursors} setCursors={setCursors} nextCursor={data?.nextCursor} />
    </div>
  );
}
