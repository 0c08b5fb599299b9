import { requirePagePermission } from "@/lib/auth/permissions";
import { PageHeader } from "@/components/ui";
import { ListsScreen } from "@/components/lists/lists-screen";

export const dynamic = "force-dynamic";

export default async function ListsPage() {
  await requirePagePermission("lists.manage");
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Lists"
        subtitle='Deny and allow lists that rules read with inList("name", value); a change applies from the next screening.'
      />
      <ListsScreen />
    </div>
  );
}
