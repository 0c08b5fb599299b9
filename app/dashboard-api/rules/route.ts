// GET /dashboard-api/rules: rules with hit counts; POST: create a rule (first version)
import { ALL_ROLES } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";
import { saveRule } from "@/lib/admin/save-rule";
import { ZSaveRule } from "@/lib/admin/schemas";

export const GET = dashboardRoute(ALL_ROLES, async ({ user }) => ({ rules: await listRulesWithHits(user) }));

export const POST = dashboardRoute(["admin", "reviewer"], async ({ user, body }) => {
  const { definition } = await body(ZSaveRule);
  return saveRule(user, { definition });
});
