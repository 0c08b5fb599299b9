import { requirePagePermission } from "@/lib/auth/permissions";
import { TeamScreen } from "@/components/team/team-screen";
import { PageHeader } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const user = await requirePagePermission("team.manage");
  return (
    <div className="max-w-5xl">
      <PageHeader title="Team" subtitle="Dashboard users of this client and their roles." />
      <TeamScreen selfId={user.id} />
    </div>
  );
}
