import { notFound } from "next/navigation";
import { requirePagePermission } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors/domain-error";
import { searchListEntries, type TListView } from "@/lib/lists/manage-lists";
import { PageHeader } from "@/components/ui";
import { ListDetailScreen } from "@/components/lists/list-detail-screen";

export const dynamic = "force-dynamic";

export default async function ListPage({ params }: { params: Promise<{ listId: string }> }) {
  const user = await requirePagePermission("lists.manage");
  const { listId } = await params;
  let list: TListView;
  try {
    // the entries screen's own read; the page needs only the list's name from it
    ({ list } = await searchListEntries({ clientId: user.clientId, listId, q: "", page: 1, limit: 1 }));
  } catch (err) {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  }
  return (
    <div className="max-w-6xl">
      <PageHeader title={`List ${list.name}`} />
      <ListDetailScreen listId={listId} />
    </div>
  );
}
