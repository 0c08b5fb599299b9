import { TeamScreen } from "@/components/team/team-screen";
import { PageHeader } from "@/components/ui";
import { requirePageRole } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const user = await requirePageRole(["admin"]);
  return (
    <div className="max-w-5xl">
      <PageHeader title="Team" subtitle="Dashboard users of this client and their roles." />
      <TeamScreen selfId={user.id} />
    </div>
  );
}
