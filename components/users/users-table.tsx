"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge, Button, ErrorNote, formatTime, inputClass, LevelBadge, Table, Td } from "@/components/ui";
import { useUsers } from "@/components/users/hooks";
import { KeysetPager } from "@/components/ui/keyset-pager";

export function UserStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={status === "blocked" ? "red" : status === "inactive" ? "slate" : "green"}>{status}</Badge>
  );
}

export function UsersTable({ initialQ, initialStatus }: { initialQ?: string; initialStatus?: string }) {
  const [q, setQ] = useState(initialQ ?? "");
  const [filters, setFilters] = useState<{ q?: string; status?: string }>({
    q: initialQ,
    status: initialStatus,
  });
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const { data, isPending, isFetching, error } = useUsers(filters, cursors[cursors.length - 1]);

  function update(patch: { q?: string; status?: string }) {
    setFilters((f) => ({ ...f, ...patch }));
    setCursors([undefined]);
  }

  return (
    <div className="space-y-4">
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
        onSubmit={(e) => {
          e.preventDefault();
          update({ q: q.trim() || undefined });
        }}
      >
        <label className="text-xs font-medium text-slate-600">
          Search
          <input
            className={`${inputClass} w-72`}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="id, name or email (starts with)"
          />
        </label>
        <label className="text-xs font-medium text-slate-600">
          Status
          <select
            className={inputClass}
            value={filters.status ?? ""}
            onChange={(e) => update({ status: e.target.value || undefined })}
          >
            <option value="">any</option>
            <option value="active">active</option>
            <option value="inactive">inactive</option>
            <option value="blocked">blocked</option>
          </select>
        </label>
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {isFetching && <span className="pb-2 text-xs text-slate-400">Loading…</span>}
      </form>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      <Table
        head={["User", "Name", "Email", "Status", "Risk", "Created"]}
        empty={
          !isPending && data?.users.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-500">No users match.</p>
          ) : null
        }
      >
        {data?.users.map((u) => (
          <tr key={u.id} className="hover:bg-slate-50" data-testid="user-row">
            <Td>
              <Link
                className="font-mono text-brand-700 hover:underline"
                href={`/dashboard/users/${encodeURIComponent(u.id)}`}
              >
                {u.id}
              </Link>
            </Td>
            <Td>{u.name ?? "—"}</Td>
            <Td>{u.email ?? "—"}</Td>
            <Td>
              <UserStatusBadge status={u.status} />
            </Td>
            <Td>{u.riskLevel ? <LevelBadge level={u.riskLevel} /> : "—"}</Td>
            <Td className="text-xs text-slate-500">{formatTime(u.createdAt)}</Td>
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
