// GET /dashboard-api/settings/case-sla: case SLA hours per priority; PUT: change them (admin, audited)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { ZCaseSla } from "@/lib/cases/schemas";
import { getCaseSla, updateCaseSla } from "@/lib/cases/sla";

export const GET = dashboardRoute("settings.manage", async ({ user }) =>
  getCaseSla({ clientId: user.clientId }),
);

export const PUT = dashboardRoute("settings.manage", async ({ user, body }) =>
  updateCaseSla({ clientId: user.clientId, actor: user, sla: await body(ZCaseSla) }),
);
