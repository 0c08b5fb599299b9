// POST /dashboard-api/rules/validate: the engine's validation of a definition being edited
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZSaveRule } from "@/lib/admin/schemas";
import { validateRuleDraft } from "@/lib/admin/validate-rule-draft";

export const POST = dashboardRoute("rules.read", async ({ user, body }) =>
  validateRuleDraft(user, await body(ZSaveRule)),
);
