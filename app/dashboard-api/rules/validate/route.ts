// POST /dashboard-api/rules/validate: the engine's validation of a definition being edited
import { ALL_ROLES } from "@/lib/admin/authorize";
import { dashboardRoute } from "@/lib/admin/dashboard-route";
import { ZSaveRule } from "@/lib/admin/schemas";
import { validateRuleDraft } from "@/lib/admin/validate-rule-draft";

export const POST = dashboardRoute(ALL_ROLES, async ({ user, body }) =>
  validateRuleDraft(user, await body(ZSaveRule)),
);
