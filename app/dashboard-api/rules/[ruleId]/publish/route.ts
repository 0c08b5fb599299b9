// POST /dashboard-api/rules/:ruleId/publish: make a version the live one ({ version, status }); admins only
import { publishRule } from "@/lib/admin/change-rule-status";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZRulePublish } from "@/lib/admin/schemas";

export const POST = dashboardRoute<{ ruleId: string }>("rules.manage", async ({ user, params, body }) =>
  publishRule(user, { ruleId: params.ruleId, ...(await body(ZRulePublish)) }),
);
