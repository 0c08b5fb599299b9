import { can, requirePagePermission } from "@/lib/auth/permissions";
import { AlertsQueue } from "@/components/alerts/alerts-queue";
import { PageHeader } from "@/components/ui";
import { alertRuleOptions } from "@/lib/alerts/list-alerts";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function AlertsPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  const user = await requirePagePermission("dashboard.read");
  const sp = await searchParams;
  const rules = await alertRuleOptions({ clientId: user.clientId });
  const canReview = can(user.role, "alerts.review");
  return (
    <div>
      <PageHeader
        title="Alerts"
        subtitle={
          canReview
            ? "Alerts one by one, newest first. Most work happens in cases, which group a person's alerts."
            : "Read-only for reporting officers."
        }
      />
      <AlertsQueue
        currentUserId={user.id}
        canReview={canReview}
        rules={rules}
        initialFilters={{
          status: one(sp.status) ?? "open",
          level: one(sp.level),
          ruleId: one(sp.ruleId),
          assigned: one(sp.assigned),
          userId: one(sp.userId),
          from: one(sp.from),
          to: one(sp.to),
        }}
      />
    </div>
  );
}
