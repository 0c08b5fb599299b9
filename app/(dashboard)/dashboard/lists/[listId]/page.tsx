import { notFound } from "next/navigation";
import { requirePagePermission } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db";
import { PageHeader } from "@/components/ui";
import { ListDetailScreen } from "@/components/lists/list-detail-screen";

export const dynamic = "force-dynamic";

export default async function ListPage({ params }: { params: Promise<{ listId: string }> }) {
  const user = await requirePagePermission("lists.manage");
  const { listId } = await params;
  const list = await prisma.list.findFirst({
    where: { clientId: user.clientId, id: listId },
    select: { name: true },
  });
  if (!list) notFound();
  return (
    <div className="max-w-6xl">
      <PageHeader title={`List ${list.name}`} />
      <ListDetailScreen listId={listId} />
    </div>
  );
}
