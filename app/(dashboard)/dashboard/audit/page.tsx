import { requirePagePermission } from "@/lib/auth/permissions";
import { AuditTrailScreen } from "@/components/audit/audit-trail-screen";
import { PageHeader } from "@/components/ui";
import { listTeam } from "@/lib/admin/team";

export const dynamic = "force-dynamic";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  const user = await requirePagePermission("audit.read");
  const sp = await searchParams;
  const members = await listTeam(user);
  return (
    <div className="max-w-6xl">
      <PageHeader
        title="Audit trail"
        subtitle="Every audited change in this client, newest first: who did what, to which object, when."
      />
      <AuditTrailScreen
        members={members.map((m) => ({ id: m.id, label: m.name ? `${m.name} (${m.email})` : m.email }))}
        initialFilters={{
          actorId: one(sp.actorId),
          action: one(sp.action),
          entityType: one(sp.entityType),
          entityId: one(sp.entityId),
          from: one(sp.from),
          to: one(sp.to),
        }}
      />
    </div>
  );
}
