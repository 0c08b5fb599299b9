// GET /dashboard-api/rules/:ruleId: rule with its versions; PUT: save an edit as a new version
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { getRuleDetail } from "@/lib/admin/get-rule-detail";
import { saveRule } from "@/lib/admin/save-rule";
import { ZSaveRule } from "@/lib/admin/schemas";

type P = { ruleId: string };

export const GET = dashboardRoute<P>("rules.read", async ({ user, params }) =>
  getRuleDetail(user, { ruleId: params.ruleId }),
);

export const PUT = dashboardRoute<P>("rules.draft", async ({ user, params, body }) => {
  const { definition } = await body(ZSaveRule);
  return saveRule(user, { ruleId: params.ruleId, definition });
});
