"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import {
  Badge,
  Button,
  ErrorNote,
  formatShortTime,
  formatTime,
  inputClass,
  LevelBadge,
  Table,
  Td,
} from "@/components/ui";
import { useTransactions } from "@/hooks/use-transactions";
import { KeysetPager } from "@/components/ui/keyset-pager";

const LEVELS = ["very_high", "high", "medium", "medium_low", "low", "n/a"];
const STATUSES = [
  "PENDING",
  "APPROVED",
  "DECLINED",
  "BLOCKED",
  "FAILED",
  "CANCELED",
  "ABANDONED",
  "CHARGEBACK",
];

export type TTransactionFilters = {
  userId?: string;
  riskLevel?: string;
  status?: string;
  from?: string;
  to?: string;
};

export function TransactionsTable({
  initialFilters,
  fixedUserId,
}: {
  initialFilters: TTransactionFilters;
  fixedUserId?: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [filters, setFilters] = useState<TTransactionFilters>(initialFilters);
  const [userInput, setUserInput] = useState(initialFilters.userId ?? "");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const effective = fixedUserId ? { ...filters, userId: fixedUserId } : filters;
  const { data, isPending, isFetching, error } = useTransactions(effective, cursor);

  function update(patch: TTransactionFilters) {
    const next = { ...filters, ...patch };
    setFilters(next);
    setCursors([undefined]);
    if (!fixedUserId) {
      const search = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => !!e[1]));
      router.replace(`${pathname}?${search.toString()}`, { scroll: false });
    }
  }

  return (
    <div className="space-y-4">
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
        onSubmit={(e) => {
          e.preventDefault();
          update({ userId: userInput.trim() || undefined });
        }}
      >
        {!fixedUserId && (
          <label className="text-xs font-medium text-slate-600">
            User id
            <input
              className={inputClass}
              value={userInput}
              onChange={(e) => setUserInput(e.target.value)}
              onBlur={() => update({ userId: userInput.trim() || undefined })}
              placeholder="exact user id"
            />
          </label>
        )}
        <label className="text-xs font-medium text-slate-600">
          Risk level
          <select
            className={inputClass}
            value={filters.riskLevel ?? ""}
            onChange={(e) => update({ riskLevel: e.target.value || undefined })}
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
          Status
          <select
            className={inputClass}
            value={filters.status ?? ""}
            onChange={(e) => update({ status: e.target.value || undefined })}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
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
        {!fixedUserId && (
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        )}
        {isFetching && <span className="pb-2 text-xs text-slate-400">Loading…</span>}
      </form>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      <Table
        head={
          fixedUserId
            ? ["Time (UTC)", "Transaction", "Amount", "Status", "Risk"]
            : ["Time (UTC)", "Transaction", "User", "Amount", "Status", "Risk"]
        }
        empty={
          !isPending && data?.transactions.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-500">No transactions match these filters.</p>
          ) : null
        }
      >
        {data?.transactions.map((t) => (
          <tr key={t.id} className="hover:bg-slate-50" data-testid="transaction-row">
            <Td className="text-xs text-slate-500">
              <span title={formatTime(t.occurredAt)}>{formatShortTime(t.occurredAt)}</span>
            </Td>
            <Td>
              <Link
                className="font-mono text-brand-700 hover:underline"
                href={`/dashboard/transactions/${encodeURIComponent(t.id)}`}
              >
                {t.id}
              </Link>
            </Td>
            {!fixedUserId && (
              <Td>
                {t.userId ? (
                  <Link
                    className="text-brand-700 hover:underline"
                    href={`/dashboard/users/${encodeURIComponent(t.userId)}`}
                  >
                    {t.userId}
                  </Link>
                ) : (
                  "—"
                )}
              </Td>
            )}
            <Td className="tabular-nums">
              {t.amount} {t.currencyCode}
              {t.direction && <span className="ml-1 text-xs text-slate-500">{t.direction}</span>}
            </Td>
            <Td>
              {t.status} {t.isFraud && <Badge tone="red">fraud</Badge>}{" "}
              {t.isChargeback && <Badge tone="amber">chargeback</Badge>}
            </Td>
            <Td>
              <LevelBadge level={t.riskLevel} />{" "}
              <span className="text-xs text-slate-500">{t.recommendedAction}</span>
            </Td>
          </tr>
        ))}
      </Table>
      <KeysetPager cursors={cursors} setCursors={setCursors} nextCursor={data?.nextCursor} />
    </div>
  );
}
