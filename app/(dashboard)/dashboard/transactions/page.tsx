import { requirePagePermission } from "@/lib/auth/permissions";
import { TransactionsTable } from "@/components/transactions/transactions-table";
import { PageHeader } from "@/components/ui";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  await requirePagePermission("dashboard.read");
  const sp = await searchParams;
  return (
    <div>
      <PageHeader title="Transactions" subtitle="Newest first by transaction time." />
      <TransactionsTable
        initialFilters={{
          userId: one(sp.userId),
          riskLevel: one(sp.riskLevel),
          status: one(sp.status),
          from: one(sp.from),
          to: one(sp.to),
        }}
      />
    </div>
  );
}
