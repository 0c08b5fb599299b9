// POST /dashboard-api/rules/:ruleId/status: change the live version's status (switch off / on)
import { changeRuleStatus } from "@/lib/admin/change-rule-status";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZRuleStatusChange } from "@/lib/admin/schemas";

export const POST = dashboardRoute<{ ruleId: string }>("rules.draft", async ({ user, params, body }) => {
  const { status } = await body(ZRuleStatusChange);
  return changeRuleStatus(user, { ruleId: params.ruleId, status });
});
