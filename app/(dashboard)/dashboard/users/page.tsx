import { requirePagePermission } from "@/lib/auth/permissions";
import { UsersTable } from "@/components/users/users-table";
import { PageHeader } from "@/components/ui";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function UsersPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  await requirePagePermission("dashboard.read");
  const sp = await searchParams;
  return (
    <div>
      <PageHeader
        title="Users"
        subtitle="Each user with the risk to act on, the open cases and the latest activity."
      />
      <UsersTable initialFilters={{ q: one(sp.q), status: one(sp.status) }} />
    </div>
  );
}
