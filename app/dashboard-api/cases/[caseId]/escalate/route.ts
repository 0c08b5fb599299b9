// POST /dashboard-api/cases/:caseId/escalate: escalate to a reporting officer: a linked report draft
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { escalateCase } from "@/lib/cases/escalate-case";
import { ZEscalateCase } from "@/lib/cases/schemas";

export const POST = dashboardRoute<{ caseId: string }>("cases.work", async ({ user, params, body }) =>
  escalateCase({
    clientId: user.clientId,
    caseId: params.caseId,
    actor: user,
    ...(await body(ZEscalateCase)),
  }),
);
