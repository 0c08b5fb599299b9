// GET /dashboard-api/rules: rules with hit counts; POST: create a rule (first version)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { listRulesWithHits } from "@/lib/admin/list-rules-with-hits";
import { saveRule } from "@/lib/admin/save-rule";
import { ZSaveRule } from "@/lib/admin/schemas";

export const GET = dashboardRoute("rules.read", async ({ user }) => ({
  rules: await listRulesWithHits(user),
}));

export const POST = dashboardRoute("rules.draft", async ({ user, body }) => {
  const { definition } = await body(ZSaveRule);
  return saveRule(user, { definition });
});
