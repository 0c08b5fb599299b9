import { CaseInbox } from "@/components/cases/case-inbox";
import { PageHeader } from "@/components/ui";
import { alertRuleOptions } from "@/lib/alerts/list-alerts";
import { can, requirePagePermission } from "@/lib/auth/permissions";
import { listAssignees } from "@/lib/cases/list-assignees";

type TSearch = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

export default async function CasesPage({ searchParams }: { searchParams: Promise<TSearch> }) {
  const user = await requirePagePermission("dashboard.read");
  const sp = await searchParams;
  const canWork = can(user.role, "cases.work");
  const [rules, reviewers] = await Promise.all([
    alertRuleOptions({ clientId: user.clientId }),
    listAssignees({ clientId: user.clientId }),
  ]);
  return (
    <div>
      <PageHeader
        title="Cases"
        subtitle={
          canWork
            ? "Each case holds the alerts of one person (or merchant), due first. Take the next one, or pick from the list."
            : "Cases escalated to the reporting officers, with their report drafts."
        }
      />
      <CaseInbox
        currentUserId={user.id}
        canWork={canWork}
        rules={rules}
        reviewers={reviewers}
        initialFilters={{
          status: one(sp.status) ?? "active",
          priority: one(sp.priority),
          assignee: one(sp.assignee),
          overdue: one(sp.overdue),
          ruleId: one(sp.ruleId),
          userId: one(sp.userId),
        }}
      />
    </div>
  );
}
