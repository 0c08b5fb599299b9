// POST /dashboard-api/cases/:caseId/assign: assign the case to a reviewer (assigneeId, or null)
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { assignCase } from "@/lib/cases/assign-case";
import { ZAssignCase } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  assignCase({ ...(await body(ZAssignCase)), clientId: user.clientId, caseId: params.caseId, actor: user }),
);
