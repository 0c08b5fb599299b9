import { UsersTable } from "@/components/users/users-table";
import { PageHeader } from "@/components/ui";
import { REVIEW_READ_ROLES } from "@/lib/alerts/roles";
import { requirePageRole } from "@/lib/auth/session";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function UsersPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  await requirePageRole(REVIEW_READ_ROLES);
  const sp = await searchParams;
  return (
    <div>
      <PageHeader title="Users" subtitle="Search by the start of an id, a name or an email." />
      <UsersTable initialQ={one(sp.q)} initialStatus={one(sp.status)} />
    </div>
  );
}
