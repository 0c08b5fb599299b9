// POST /dashboard-api/cases/:caseId/close: close with an outcome and a note
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { closeCase } from "@/lib/cases/close-case";
import { ZCloseCase } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  closeCase({ ...(await body(ZCloseCase)), clientId: user.clientId, caseId: params.caseId, actor: user }),
);
