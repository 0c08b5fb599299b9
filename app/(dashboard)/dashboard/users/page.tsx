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
      <PageHeader title="Users" subtitle="Search by the start of an id, a name or an email." />
      <UsersTable initialQ={one(sp.q)} initialStatus={one(sp.status)} />
    </div>
  );
}
