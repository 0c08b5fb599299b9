"use client";

import Link from "next/link";
import {
  ClientText,
  Badge,
  DateTime,
  EnumLabel,
  ErrorNote,
  LevelBadge,
  linkClass,
  Money,
  Table,
  Td,
} from "@/components/ui";
import { DateFilter, FilterBar, SelectFilter, UserFilter } from "@/components/ui/filters";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { useListFilters } from "@/components/ui/use-list-filters";
import { useTransactions } from "@/components/transactions/hooks";
import type { TTransactionFilters } from "@/components/transactions/query-keys";
import { RISK_LEVELS } from "@/lib/risk/risk-levels";
import { TRANSACTION_STATUSES } from "@/lib/transactions/schemas";

export function TransactionsTable({
  initialFilters,
  fixedUserId,
}: {
  initialFilters: TTransactionFilters;
  fixedUserId?: string;
}) {
  const { filters, update, cursor, cursors, setCursors } = useListFilters(initialFilters, {
    syncUrl: !fixedUserId,
  });
  const effective = fixedUserId ? { ...filters, userId: fixedUserId } : filters;
  const { data, isPending, isFetching, error } = useTransactions(effective, cursor);

  return (
    <div className="space-y-4">
      <FilterBar busy={isFetching} label="Transaction filters">
        {!fixedUserId && <UserFilter value={filters.userId} onChange={(userId) => update({ userId })} />}
        <SelectFilter
          label="Risk level"
          value={filters.riskLevel}
          options={RISK_LEVELS}
          onChange={(riskLevel) => update({ riskLevel })}
        />
        <SelectFilter
          label="Status"
          value={filters.status}
          options={TRANSACTION_STATUSES}
          onChange={(status) => update({ status })}
        />
        <DateFilter label="From" value={filters.from} onChange={(from) => update({ from })} />
        <DateFilter label="To" value={filters.to} onChange={(to) => update({ to })} />
      </FilterBar>
      {error && <ErrorNote>{error.message}</ErrorNote>}
      <Table
        head={
          fixedUserId
            ? ["Time", "Transaction", "Amount", "Status", "Risk"]
            : ["Time", "Transaction", "User", "Amount", "Status", "Risk"]
        }
        empty={
          !isPending && data?.transactions.length === 0 ? (
            <p className="p-6 text-center text-sm text-slate-600">No transactions match these filters.</p>
          ) : null
        }
      >
        {data?.transactions.map((t) => (
          <tr key={t.id} className="hover:bg-slate-50" data-testid="transaction-row">
            <Td className="text-xs text-slate-600">
              <DateTime value={t.occurredAt} />
            </Td>
            <Td>
              <Link
                className={`font-mono ${linkClass}`}
                href={`/dashboard/transactions/${encodeURIComponent(t.id)}`}
              >
                <ClientText value={t.id} truncate maxWidth="max-w-40" />
              </Link>
            </Td>
            {!fixedUserId && (
              <Td>
                {t.userId ? (
                  <Link
                    className={`block ${linkClass}`}
                    href={`/dashboard/users/${encodeURIComponent(t.userId)}`}
                  >
                    <ClientText value={t.userName ?? t.userId} truncate maxWidth="max-w-48" />
                    {t.userName && (
                      <ClientText
                        className="block font-mono text-xs text-slate-600"
                        value={t.userId}
                        truncate
                        maxWidth="max-w-56"
                      />
                    )}
                  </Link>
                ) : (
                  "—"
                )}
              </Td>
            )}
            <Td>
              <Money amount={t.amount} currency={t.currencyCode} />
              {t.direction && <EnumLabel className="ml-1 text-xs text-slate-600" value={t.direction} />}
            </Td>
            <Td>
              <EnumLabel value={t.status} /> {t.isFraud && <Badge tone="red">Fraud</Badge>}{" "}
              {t.isChargeback && <Badge tone="amber">Chargeback</Badge>}
            </Td>
            <Td className="whitespace-normal">
              <LevelBadge level={t.riskLevel} />{" "}
              <EnumLabel className="text-xs text-slate-600" value={t.recommendedAction} />
            </Td>
          </tr>
        ))}
      </Table>
      <KeysetPager cursors={cursors} setCursors={setCursors} nextCursor={data?.nextCursor} />
    </div>
  );
}
