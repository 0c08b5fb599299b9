"use client";

import Link from "next/link";
import {
  ClientText,
  Badge,
  Button,
  DateTime,
  EnumLabel,
  ErrorNote,
  LevelBadge,
  linkClass,
  Table,
  Td,
} from "@/components/ui";
import { FilterBar, SelectFilter, TextFilter } from "@/components/ui/filters";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { useListFilters } from "@/components/ui/use-list-filters";
import { useUsers } from "@/components/users/hooks";
import type { TUserFilters } from "@/components/users/query-keys";
import type { TRiskSource } from "@/lib/users/list-users";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";

export function UserStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={status === "blocked" ? "red" : status === "inactive" ? "slate" : "green"}>
      <EnumLabel value={status} />
    </Badge>
  );
}

const RISK_SOURCE: Record<TRiskSource, string> = {
  open_alerts: "highest open alert",
  latest_transaction: "latest transaction",
  onboarding: "onboarding screening",
};

export function UsersTable({ initialFilters }: { initialFilters: TUserFilters }) {
  const { filters, update, cursor, cursors, setCursors } = useListFilters(initialFilters);
  const { data, isPending, isFetching, error } = useUsers(filters, cursor);

  return (
    <div className="space-y-4">
      <FilterBar busy={isFetching} label="User filters">
        <TextFilter
          label="Search"
          value={filters.q}
          onChange={(q) => update({ q })}
          placeholder="Start of an id, a name or an email"
          className="w-72"
        />
        <SelectFilter
          label="Status"
          value={filters.status}
          options={STORED_USER_STATUSES}
          onChange={(status) => update({ status })}
        />
        {/* The search applies on Enter or when the field loses focus, which this click causes. */}
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </FilterBar>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      <Table
        head={["User", "Status", "Risk", "Open cases", "Last activity", "Created"]}
        empty={
          !isPending && data?.users.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-600">No users match.</p>
          ) : null
        }
      >
        {data?.users.map((u) => (
          <tr key={u.id} className="hover:bg-slate-50" data-testid="user-row">
            <Td>
              <Link className={`block ${linkClass}`} href={`/dashboard/users/${encodeURIComponent(u.id)}`}>
                <ClientText className="font-medium" value={u.name ?? u.id} truncate />
                {u.name && (
                  <ClientText className="block font-mono text-xs text-slate-600" value={u.id} truncate />
                )}
              </Link>
              {u.email && <ClientText className="block text-xs text-slate-600" value={u.email} truncate />}
            </Td>
            <Td>
              <UserStatusBadge status={u.status} />
            </Td>
            <Td>
              {u.riskLevel && u.riskSource ? (
                <span title={`From the ${RISK_SOURCE[u.riskSource]}`}>
                  <LevelBadge level={u.riskLevel} />
                  <span className="ml-1 text-xs text-slate-600">{RISK_SOURCE[u.riskSource]}</span>
                </span>
              ) : (
                <span className="text-slate-600">Not screened</span>
              )}
            </Td>
            <Td className="tabular-nums">
              {u.openCases > 0 ? (
                <Link
                  className={linkClass}
                  href={`/dashboard/cases?${new URLSearchParams({ userId: u.id, status: "active" }).toString()}`}
                >
                  {u.openCases} {u.openCases === 1 ? "case" : "cases"}
                </Link>
              ) : (
                "None"
              )}
              {u.openAlerts > 0 && (
                <span className="block text-xs text-slate-600">
                  {u.openAlerts} {u.openAlerts === 1 ? "alert" : "alerts"} to settle
                </span>
              )}
            </Td>
            <Td className="text-xs text-slate-700">
              <DateTime value={u.lastActivityAt} />
            </Td>
            <Td className="text-xs text-slate-700">
              <DateTime value={u.createdAt} dateOnly />
            </Td>
          </tr>
        ))}
      </Table>
      <KeysetPager
        cursors={cursors}
        setCursors={setCursors}
        nextCursor={data?.nextCursor}
        labels={["Previous", "Next"]}
      />
    </div>
  );
}
